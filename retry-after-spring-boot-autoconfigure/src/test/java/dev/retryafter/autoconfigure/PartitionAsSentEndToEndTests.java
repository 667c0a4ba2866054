package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.Held;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.ReactiveOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.web.client.OAuth2ClientHttpRequestInterceptor;
import org.springframework.security.oauth2.client.web.client.RequestAttributeClientRegistrationIdResolver;
import org.springframework.security.oauth2.client.web.reactive.function.client.ServerOAuth2AuthorizedClientExchangeFilterFunction;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cooldown key of a client with {@code cooldown.partition-headers: Authorization} whose
 * token is added by Spring Security's OAuth2 interceptor or filter, the usual setup: those run
 * after the starter's outermost retry element, so the key must be read from the request as
 * sent. Tenant A's {@code 429} must hold back only tenant A, on every Boot-built client and
 * transport, against a real origin on 127.0.0.1.
 */
@ExtendWith(OutputCaptureExtension.class)
class PartitionAsSentEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class,
				WebClientAutoConfiguration.class))
		.withPropertyValues("retry-after.cooldown.partition-headers=Authorization", "retry-after.max-attempts=1",
				"retry-after.jitter=0");

	private TenantOrigin origin;

	@AfterEach
	void stopOrigin() {
		if (this.origin != null) {
			this.origin.close();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "rest-client", "rest-client-jdk", "rest-client-simple", "rest-template",
			"web-client", "web-client-jdk" })
	void whenTenantAIsToldToComeBackLaterThenOnlyTenantAIsRefused(String client) throws Exception {
		this.origin = TenantOrigin.start("30");
		on(client).run((context) -> {
			Tenants tenants = tenants(client, context);
			assertThat(tenants.call("a")).isEqualTo(429);
			// A's cooldown is 30 s, far beyond the budget: A is refused without being sent.
			assertThat(tenants.call("a")).isEqualTo(REFUSED);
			assertThat(tenants.call("b")).isEqualTo(200);
			assertThat(this.origin.received()).containsExactly(bearer(TenantOrigin.TOKEN_A),
					bearer(TenantOrigin.TOKEN_B));
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "rest-client", "rest-template", "web-client" })
	void whenTenantAsCooldownFitsTheBudgetThenOnlyTenantAsNextRequestIsHeldForIt(String client) throws Exception {
		this.origin = TenantOrigin.start("1");
		on(client).withBean(RecordingListener.class, RecordingListener::new).run((context) -> {
			Tenants tenants = tenants(client, context);
			assertThat(tenants.call("a")).isEqualTo(429);
			// A's cooldown runs from its 429, not from after B's call, which a busy machine may
			// make take a tenth of a second.
			long start = System.nanoTime();
			assertThat(tenants.call("b")).isEqualTo(200);
			assertThat(tenants.call("a")).isEqualTo(429);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
			assertThat(this.origin.received()).containsExactly(bearer(TenantOrigin.TOKEN_A),
					bearer(TenantOrigin.TOKEN_B), bearer(TenantOrigin.TOKEN_A));
			// One hold, A's second request's, under A's own partition: B was never held.
			assertThat(context.getBean(RecordingListener.class).events()).filteredOn(Held.class::isInstance)
				.singleElement()
				.satisfies((held) -> assertThat(((Held) held).key().partition()).isNotNull());
		});
	}

	@Test
	void whenARequestIsSentWithoutAnyPartitionHeaderThenThatIsWarnedOnce(CapturedOutput output) throws Exception {
		this.origin = TenantOrigin.start("30");
		this.contextRunner.run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class)
				.build();
			assertThat(status(client.get().uri(this.origin.uri("/api")))).isEqualTo(429);
			assertThat(refusedOr(() -> status(client.get().uri(this.origin.uri("/api"))))).isEqualTo(REFUSED);
		});
		String warning = "are sent without any of retry-after.cooldown.partition-headers [Authorization]";
		assertThat(output.getOut().split(Pattern.quote(warning), -1)).hasSize(2);
		assertThat(output.getOut()).contains("Requests of client 'default' to http://127.0.0.1:");
	}

	@Test
	void whenTheApplicationBringsItsOwnRequestFactoryThenThatIsWarnedWithoutTheToken(CapturedOutput output)
			throws Exception {
		this.origin = TenantOrigin.start("30");
		this.contextRunner.run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class)
				.requestFactory(new JdkClientHttpRequestFactory())
				.requestInterceptor(oauth2Interceptor())
				.build();
			assertThat(status(client.get()
				.uri(this.origin.uri("/api"))
				.attributes(RequestAttributeClientRegistrationIdResolver.clientRegistrationId("tenant-a"))))
				.isEqualTo(429);
		});
		assertThat(output.getOut()).contains("go through a request factory or connector that Spring Boot did not build")
			.doesNotContain(TenantOrigin.TOKEN_A);
	}

	private static final int REFUSED = -1;

	private ApplicationContextRunner on(String client) {
		return switch (client) {
			case "rest-client-jdk" -> this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=jdk");
			case "rest-client-simple" ->
				this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=simple");
			case "web-client-jdk" -> this.contextRunner.withPropertyValues("spring.http.clients.reactive.connector=jdk");
			default -> this.contextRunner;
		};
	}

	private Tenants tenants(String client, ApplicationContext context) {
		if (client.startsWith("rest-client")) {
			RestClient restClient = context.getBean(RestClient.Builder.class)
				.requestInterceptor(oauth2Interceptor())
				.build();
			return (tenant) -> refusedOr(() -> status(restClient.get()
				.uri(this.origin.uri("/api"))
				.attributes(RequestAttributeClientRegistrationIdResolver.clientRegistrationId("tenant-" + tenant))));
		}
		if (client.equals("rest-template")) {
			// RestTemplate has no request attributes: the tenant travels in a header that is
			// no partition header, and the OAuth2 interceptor picks the registration from it.
			OAuth2ClientHttpRequestInterceptor interceptor = oauth2Interceptor();
			interceptor.setClientRegistrationIdResolver((request) -> "tenant-" + request.getHeaders().getFirst("X-Tenant"));
			RestTemplate restTemplate = context.getBean(RestTemplateBuilder.class)
				.additionalInterceptors(interceptor)
				.errorHandler(new NoOpResponseErrorHandler())
				.build();
			return (tenant) -> refusedOr(() -> {
				HttpHeaders headers = new HttpHeaders();
				headers.set("X-Tenant", tenant);
				return restTemplate
					.exchange(this.origin.uri("/api"), HttpMethod.GET, new HttpEntity<>(headers), Void.class)
					.getStatusCode()
					.value();
			});
		}
		ReactiveOAuth2AuthorizedClientManager manager = (request) -> Mono
			.just(authorizedClient(request.getClientRegistrationId()));
		WebClient webClient = context.getBean(WebClient.Builder.class)
			.filter(new ServerOAuth2AuthorizedClientExchangeFilterFunction(manager))
			.build();
		return (tenant) -> webClient.get()
			.uri(this.origin.uri("/api"))
			.attributes(ServerOAuth2AuthorizedClientExchangeFilterFunction.clientRegistrationId("tenant-" + tenant))
			.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()))
			.onErrorResume(RetryRefusedException.class, (refused) -> Mono.just(REFUSED))
			.block(Duration.ofSeconds(30));
	}

	/** Spring Security's interceptor, handing out each tenant's token as its client manager would. */
	private static OAuth2ClientHttpRequestInterceptor oauth2Interceptor() {
		OAuth2AuthorizedClientManager manager = (request) -> authorizedClient(request.getClientRegistrationId());
		OAuth2ClientHttpRequestInterceptor interceptor = new OAuth2ClientHttpRequestInterceptor(manager);
		interceptor.setPrincipalResolver((request) -> new TestingAuthenticationToken("app", null));
		return interceptor;
	}

	private static OAuth2AuthorizedClient authorizedClient(String registrationId) {
		ClientRegistration registration = ClientRegistration.withRegistrationId(registrationId)
			.clientId(registrationId)
			.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
			.tokenUri("http://127.0.0.1:9/token")
			.build();
		String token = registrationId.equals("tenant-a") ? TenantOrigin.TOKEN_A : TenantOrigin.TOKEN_B;
		Instant now = Instant.now();
		return new OAuth2AuthorizedClient(registration, "app",
				new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, token, now, now.plusSeconds(3600)));
	}

	private static int status(RestClient.RequestHeadersSpec<?> request) {
		return request.retrieve().onStatus((status) -> true, (req, res) -> {
		}).toBodilessEntity().getStatusCode().value();
	}

	private static String bearer(String token) {
		return "Bearer " + token;
	}

	/** The status, or {@link #REFUSED} when the starter refused to send the request. */
	private static int refusedOr(Callable<Integer> call) throws Exception {
		try {
			return call.call();
		}
		catch (Exception ex) {
			for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
				if (cause instanceof RetryRefusedException) {
					return REFUSED;
				}
			}
			throw ex;
		}
	}

	@FunctionalInterface
	private interface Tenants {

		int call(String tenant) throws Exception;

	}

}
