package dev.retryafter.aot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import dev.retryafter.actuate.RetryAfterEndpoint;
import dev.retryafter.autoconfigure.BackoffProperties;
import dev.retryafter.autoconfigure.BudgetProperties;
import dev.retryafter.autoconfigure.CooldownProperties;
import dev.retryafter.autoconfigure.HeaderProperties;
import dev.retryafter.autoconfigure.IoErrorsProperties;
import dev.retryafter.autoconfigure.RateLimitProperties;
import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.RetryAfterFailureAnalyzer;
import dev.retryafter.autoconfigure.RetryAfterPropertyCheckAutoConfiguration;
import dev.retryafter.autoconfigure.RetryAfterProperties;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.autoconfigure.actuate.RetryAfterEndpointAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.frameworkretry.RetryAfterFrameworkRetryAutoConfiguration;
import dev.retryafter.autoconfigure.logging.RetryAfterLoggingAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.autoconfigure.observation.RetryAfterObservationAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.annotation.AnnotatedBeanDefinitionReader;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.InputStreamSource;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Processes the starter's auto-configurations ahead of time, as {@code spring-boot:process-aot}
 * does for an application, and checks the runtime hints a native image needs for what the
 * starter binds or reflects on: the {@code retry-after.*} properties types the {@code Binder}
 * fills in (and the property-name walk reads), the endpoint's response types Jackson writes,
 * the classes looked up by name, the fields of Spring's JDK factory and connector the
 * starter reads, and the failure analyzers Boot loads by name.
 */
class RetryAfterRuntimeHintsTests {

	private static RuntimeHints hints;

	private static Map<String, InputStreamSource> generatedSources;

	@BeforeAll
	static void processAheadOfTime() {
		GenericApplicationContext context = new GenericApplicationContext();
		TestPropertyValues.of("management.endpoints.web.exposure.include=retryafter").applyTo(context);
		new AnnotatedBeanDefinitionReader(context).register(Application.class);
		// What spring-core-test's TestGenerationContext is, without that artifact: Maven
		// Central serves it for some Framework 7.0.x releases only.
		InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
		DefaultGenerationContext generation = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(Application.class)), files);
		new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
		hints = generation.getRuntimeHints();
		generation.writeGeneratedContent();
		generatedSources = files.getGeneratedFiles(GeneratedFiles.Kind.SOURCE);
	}

	@Test
	void theStartersRetryTemplateAndPolicyStayOutOfOtherLibrariesWayAheadOfTime() throws IOException {
		String definitions = source(RetryAfterFrameworkRetryAutoConfiguration.class.getName().replace('.', '/')
				+ "__BeanDefinitions.java");
		assertThat(definitions).contains("getRetryAfterRetryTemplateBeanDefinition()",
				"getRetryAfterRetryPolicyBeanDefinition()");
		assertThat(definitions.split("setDefaultCandidate\\(false\\)", -1)).hasSize(3);
	}

	private static String source(String path) throws IOException {
		InputStreamSource source = generatedSources.get(path);
		assertThat(source).as(path + " among " + generatedSources.keySet()).isNotNull();
		return new String(source.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
	}

	static List<Class<?>> boundTypes() {
		return List.of(RetryAfterProperties.class, RetryAfterProperties.Client.class, RetryAfterProperties.Redis.class,
				RetryAfterProperties.Observations.class, BackoffProperties.class, HeaderProperties.class,
				IoErrorsProperties.class, CooldownProperties.class, BudgetProperties.class, RateLimitProperties.class);
	}

	@ParameterizedTest
	@MethodSource("boundTypes")
	void everyPropertiesTypeCanBeBoundAndWalked(Class<?> type) {
		assertThat(RuntimeHintsPredicates.reflection().onType(type)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(constructor(type))).accepts(hints);
	}

	@Test
	void namedClientsCanBeBoundThroughTheirSetters() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(RetryAfterProperties.class, "setClients"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(RetryAfterProperties.Client.class, "setHosts"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(RetryAfterProperties.Client.class, "setMaxAttempts")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(BackoffProperties.class, "setInitial"))
			.accepts(hints);
	}

	static List<Class<?>> endpointTypes() {
		return List.of(RetryAfterEndpoint.class, RetryAfterEndpoint.RetryAfterDescriptor.class,
				RetryAfterEndpoint.EndedDescriptor.class, RetryAfterEndpoint.ClientDescriptor.class,
				RetryAfterEndpoint.SettingsDescriptor.class, RetryAfterEndpoint.SettingsDescriptor.Backoff.class,
				RetryAfterEndpoint.SettingsDescriptor.Header.class, RetryAfterEndpoint.SettingsDescriptor.IoErrors.class,
				RetryAfterEndpoint.SettingsDescriptor.Cooldown.class, RetryAfterEndpoint.SettingsDescriptor.Budget.class,
				RetryAfterEndpoint.CooldownDescriptor.class, RetryAfterEndpoint.ProtectionDescriptor.class,
				RetryAfterEndpoint.QuotaDescriptor.class, RetryAfterEndpoint.StoreDescriptor.class,
				RetryAfterEndpoint.BudgetDescriptor.class);
	}

	@ParameterizedTest
	@MethodSource("endpointTypes")
	void everyEndpointResponseTypeCanBeWrittenByJackson(Class<?> type) {
		assertThat(RuntimeHintsPredicates.reflection().onType(type)).accepts(hints);
		if (type.isRecord()) {
			for (var component : type.getRecordComponents()) {
				assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(component.getAccessor()))
					.as(type.getSimpleName() + "." + component.getName()).accepts(hints);
			}
		}
	}

	@Test
	void theEndpointsOperationsCanBeInvoked() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(RetryAfterEndpoint.class, "retryAfter"))
			.accepts(hints);
	}

	static List<String> typesLookedUpByName() {
		return List.of("io.micrometer.tracing.handler.TracingObservationHandler$TracingContext",
				"reactor.core.publisher.Mono", "io.lettuce.core.event.connection.DisconnectedEvent",
				"reactor.core.Disposable");
	}

	@ParameterizedTest
	@MethodSource("typesLookedUpByName")
	void everyTypeLookedUpByNameCanBeFound(String name) {
		assertThat(RuntimeHintsPredicates.reflection().onType(org.springframework.aot.hint.TypeReference.of(name)))
			.accepts(hints);
	}

	static List<Arguments> fieldsRead() {
		return List.of(Arguments.of(JdkClientHttpRequestFactory.class, "httpClient"),
				Arguments.of(JdkClientHttpRequestFactory.class, "readTimeout"),
				Arguments.of(JdkClientHttpRequestFactory.class, "compression"),
				Arguments.of(JdkClientHttpConnector.class, "httpClient"),
				Arguments.of(JdkClientHttpConnector.class, "cookieParser"));
	}

	@ParameterizedTest
	@MethodSource("fieldsRead")
	void theFieldsOfSpringsJdkFactoryAndConnectorCanBeRead(Class<?> type, String field) {
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(type, field)).accepts(hints);
	}

	@Test
	void theFailureAnalyzersCanBeLoadedByName() {
		Predicate<RuntimeHints> constructor = RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(constructor(RetryAfterFailureAnalyzer.class));
		assertThat(constructor).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/spring.factories")).accepts(hints);
	}

	private static java.lang.reflect.Constructor<?> constructor(Class<?> type) {
		return type.getDeclaredConstructors()[0];
	}

	@ImportAutoConfiguration({ RetryAfterAutoConfiguration.class,
			RetryAfterRestClientAutoConfiguration.class, RetryAfterRedisAutoConfiguration.class,
			RetryAfterLoggingAutoConfiguration.class, RetryAfterWebClientAutoConfiguration.class,
			RetryAfterFrameworkRetryAutoConfiguration.class, RetryAfterMetricsAutoConfiguration.class,
			RetryAfterEndpointAutoConfiguration.class, RetryAfterPropertyCheckAutoConfiguration.class,
			RetryAfterObservationAutoConfiguration.class, HttpClientAutoConfiguration.class,
			ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
			RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class, WebClientAutoConfiguration.class,
			MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
			SimpleMetricsExportAutoConfiguration.class })
	static class Application {

	}

}
