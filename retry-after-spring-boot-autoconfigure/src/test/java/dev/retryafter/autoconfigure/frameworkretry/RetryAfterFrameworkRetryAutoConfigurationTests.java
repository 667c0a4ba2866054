package dev.retryafter.autoconfigure.frameworkretry;

import java.io.File;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.frameworkretry.FrameworkRetryContext;
import dev.retryafter.frameworkretry.FrameworkRetryDetector;
import dev.retryafter.frameworkretry.RetriedMethodsPostProcessor;
import dev.retryafter.frameworkretry.RetryAfterReactorRetry;
import dev.retryafter.frameworkretry.RetryAfterRetryPolicy;
import dev.retryafter.frameworkretry.RetryAfterRetryTemplate;
import dev.retryafter.spi.OuterRetryDetector;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.core.task.TaskDecorator;
import org.springframework.resilience.annotation.EnableResilientMethods;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring Framework retry adapter's auto-configuration, one behaviour per test.
 */
class RetryAfterFrameworkRetryAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class, RetryAfterFrameworkRetryAutoConfiguration.class));

	/**
	 * Boot composes every {@code TaskDecorator} bean: the application's own still decorates
	 * its executor, and the starter's carries the invocation to the task's thread.
	 */
	@Test
	void whenTheApplicationHasItsOwnTaskDecoratorThenBootAppliesBoth() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
			.withUserConfiguration(OwnTaskDecoratorConfiguration.class)
			.run((context) -> {
				Executor executor = context.getBean("applicationTaskExecutor", Executor.class);
				FrameworkRetryDetector detector = context.getBean(FrameworkRetryDetector.class);
				RetryTemplate template = context.getBean("retryAfterRetryTemplate", RetryTemplate.class);
				AtomicBoolean bound = new AtomicBoolean();

				template.execute(() -> CompletableFuture
					.runAsync(() -> bound.set(detector.invocation() != null), executor)
					.get());

				assertThat(bound).isTrue();
				assertThat(context.getBean(OwnTaskDecoratorConfiguration.class).decorated).hasValue(1);
			});
	}

	@Test
	void shouldDefineThePolicyTheTemplateTheReactorSpecAndTheDetector() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RetryPolicy.class)
				.hasSingleBean(RetryTemplate.class)
				.hasSingleBean(RetryAfterReactorRetry.class)
				.hasSingleBean(FrameworkRetryDetector.class);
			assertThat(context.getBean("retryAfterRetryPolicy")).isInstanceOf(RetryAfterRetryPolicy.class);
			assertThat(context.getBean("retryAfterRetryTemplate")).isInstanceOf(RetryAfterRetryTemplate.class);
			assertThat(context.getBean(RetryTemplate.class).getRetryPolicy())
				.isSameAs(context.getBean(RetryPolicy.class));
		});
	}

	@Test
	void whenResilientMethodsAreNotEnabledThenNoAdviceIsAdded() {
		this.contextRunner
			.run((context) -> assertThat(context).doesNotHaveBean(RetriedMethodsPostProcessor.class));
	}

	@Test
	void whenResilientMethodsAreEnabledThenTheAdviceIsAdded() {
		this.contextRunner.withUserConfiguration(ResilientConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(RetriedMethodsPostProcessor.class));
	}

	@Test
	void theApplicationsOwnRetryPolicyIsInjectedByTypeAndTheStartersByName() {
		this.contextRunner.withUserConfiguration(OwnPolicyConfiguration.class)
			.withBean(PolicyConsumer.class)
			.run((context) -> {
				PolicyConsumer consumer = context.getBean(PolicyConsumer.class);
				assertThat(consumer.byType).isSameAs(context.getBean("myRetryPolicy"));
				assertThat(consumer.byName).isInstanceOf(RetryAfterRetryPolicy.class);
				assertThat(context.getBean("retryAfterRetryTemplate", RetryTemplate.class).getRetryPolicy())
					.isSameAs(consumer.byName);
			});
	}

	@Test
	void theApplicationsOwnRetryTemplateIsInjectedByTypeAndTheStartersByName() {
		this.contextRunner.withUserConfiguration(OwnTemplateConfiguration.class)
			.withBean(TemplateConsumer.class)
			.run((context) -> {
				TemplateConsumer consumer = context.getBean(TemplateConsumer.class);
				assertThat(consumer.byType).isSameAs(context.getBean("myRetryTemplate"));
				assertThat(consumer.byName).isInstanceOf(RetryAfterRetryTemplate.class);
			});
	}

	@Test
	void aLibraryDefiningItsPolicyAndTemplateOnlyWhenNoneExistsStillDefinesThem() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class,
					RetryAfterFrameworkRetryAutoConfiguration.class, LibraryRetryAutoConfiguration.class))
			.withBean(PolicyConsumer.class)
			.withBean(TemplateConsumer.class)
			.run((context) -> {
				assertThat(context.getBean(PolicyConsumer.class).byType)
					.isSameAs(context.getBean("libraryRetryPolicy"));
				assertThat(context.getBean(TemplateConsumer.class).byType)
					.isSameAs(context.getBean("libraryRetryTemplate"));
				assertThat(context.getBean(PolicyConsumer.class).byName).isInstanceOf(RetryAfterRetryPolicy.class);
				assertThat(context.getBean(TemplateConsumer.class).byName).isInstanceOf(RetryAfterRetryTemplate.class);
			});
	}

	@Test
	void aPolicyOfTheStartersNameReplacesItAndTheTemplateRunsOnIt() {
		this.contextRunner.withUserConfiguration(ReplacedPolicyConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(RetryAfterRetryPolicy.class);
			assertThat(context.getBean("retryAfterRetryPolicy"))
				.isSameAs(context.getBean(ReplacedPolicyConfiguration.class).policy);
			assertThat(context.getBean("retryAfterRetryTemplate", RetryTemplate.class).getRetryPolicy())
				.isSameAs(context.getBean(ReplacedPolicyConfiguration.class).policy);
		});
	}

	@Test
	void whenRetryAfterIsDisabledThenNothingIsDefined() {
		this.contextRunner.withPropertyValues("retry-after.enabled=false")
			.withUserConfiguration(ResilientConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean(RetryPolicy.class)
				.doesNotHaveBean(OuterRetryDetector.class)
				.doesNotHaveBean(RetriedMethodsPostProcessor.class));
	}

	@Test
	void whenWebFluxIsMissingThenThereIsNoReactorSpec() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.web.reactive"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(RetryAfterReactorRetry.class)
				.hasSingleBean(RetryAfterRetryPolicy.class));
	}

	/**
	 * Stronger than a bean check: the whole context runs in a class loader of its own, which
	 * is asked afterwards whether it ever loaded the advice's classes.
	 */
	@Test
	void whenResilientMethodsAreNotEnabledThenTheAdvicesClassesAreNotLoaded() throws Exception {
		try (RecordingLoader loader = new RecordingLoader(testClasspath())) {
			ClassLoader previous = Thread.currentThread().getContextClassLoader();
			try {
				Thread.currentThread().setContextClassLoader(loader);
				Method run = loader.loadClass(FrameworkRetryProbe.class.getName()).getDeclaredMethod("run");
				run.setAccessible(true);

				assertThat(run.invoke(null)).isEqualTo("policy=1 advice=0");
			}
			finally {
				Thread.currentThread().setContextClassLoader(previous);
			}
			assertThat(loader.loaded("dev.retryafter.frameworkretry.RetryAfterRetryPolicy")).isTrue();
			assertThat(loader.loaded("dev.retryafter.frameworkretry.RetriedMethodsPostProcessor")).isFalse();
			assertThat(loader.loaded("dev.retryafter.frameworkretry.RetriedMethodInterceptor")).isFalse();
		}
	}

	private static List<URL> testClasspath() throws MalformedURLException {
		List<URL> urls = new ArrayList<>();
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			urls.add(new File(entry).toURI().toURL());
		}
		return urls;
	}

	/**
	 * A class loader of the test classpath that can tell which classes it loaded.
	 */
	private static final class RecordingLoader extends URLClassLoader {

		RecordingLoader(List<URL> classpath) {
			super(classpath.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
		}

		boolean loaded(String name) {
			return findLoadedClass(name) != null;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableResilientMethods
	static class ResilientConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnPolicyConfiguration {

		@Bean
		RetryPolicy myRetryPolicy() {
			return RetryPolicy.builder().maxRetries(1).delay(Duration.ZERO).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReplacedPolicyConfiguration {

		@Nullable RetryAfterRetryPolicy policy;

		@Bean
		RetryAfterRetryPolicy retryAfterRetryPolicy(FrameworkRetryContext outerRetries) {
			this.policy = new RetryAfterRetryPolicy(outerRetries);
			return this.policy;
		}

	}

	/** A library's auto-configuration, after the starter's, defining its beans only when none exists. */
	@AutoConfiguration(after = RetryAfterFrameworkRetryAutoConfiguration.class)
	static class LibraryRetryAutoConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RetryPolicy libraryRetryPolicy() {
			return RetryPolicy.withDefaults();
		}

		@Bean
		@ConditionalOnMissingBean
		RetryTemplate libraryRetryTemplate(RetryPolicy retryPolicy) {
			return new RetryTemplate(retryPolicy);
		}

	}

	static class PolicyConsumer {

		final RetryPolicy byType;

		final RetryPolicy byName;

		PolicyConsumer(RetryPolicy byType, @Qualifier("retryAfterRetryPolicy") RetryPolicy byName) {
			this.byType = byType;
			this.byName = byName;
		}

	}

	static class TemplateConsumer {

		final RetryTemplate byType;

		final RetryTemplate byName;

		TemplateConsumer(RetryTemplate byType, @Qualifier("retryAfterRetryTemplate") RetryTemplate byName) {
			this.byType = byType;
			this.byName = byName;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnTemplateConfiguration {

		@Bean
		RetryTemplate myRetryTemplate() {
			return new RetryTemplate();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnTaskDecoratorConfiguration {

		final AtomicInteger decorated = new AtomicInteger();

		@Bean
		TaskDecorator ownTaskDecorator() {
			return (runnable) -> {
				this.decorated.incrementAndGet();
				return runnable;
			};
		}

	}

}
