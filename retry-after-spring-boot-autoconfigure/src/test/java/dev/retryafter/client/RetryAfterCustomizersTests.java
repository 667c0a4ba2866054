package dev.retryafter.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import org.junit.jupiter.api.Test;

import org.springframework.core.Ordered;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterRestClientCustomizer} and {@link RetryAfterRestTemplateCustomizer}.
 */
class RetryAfterCustomizersTests {

	private final RetryAfterInterceptor interceptor = newInterceptor();

	private final ClientHttpRequestInterceptor auth = (request, body, execution) -> execution.execute(request, body);

	private final ClientHttpRequestInterceptor tracing = (request, body, execution) -> execution.execute(request,
			body);

	@Test
	void whenRestClientHasInterceptorsThenRetryInterceptorIsFirst() {
		RestClient.Builder builder = RestClient.builder()
			.requestInterceptor(this.auth)
			.requestInterceptor(this.tracing);

		new RetryAfterRestClientCustomizer(this.interceptor).customize(builder);

		assertThat(interceptorsOf(builder)).containsExactly(this.interceptor, this.auth, this.tracing);
	}

	@Test
	void whenRestClientIsCustomizedTwiceThenInterceptorIsAddedOnce() {
		RestClient.Builder builder = RestClient.builder().requestInterceptor(this.auth);
		RetryAfterRestClientCustomizer customizer = new RetryAfterRestClientCustomizer(this.interceptor);

		customizer.customize(builder);
		customizer.customize(builder);

		assertThat(interceptorsOf(builder)).containsExactly(this.interceptor, this.auth);
	}

	@Test
	void whenRestClientHasTheInterceptorLaterInTheListThenItIsMovedFirst() {
		RestClient.Builder builder = RestClient.builder()
			.requestInterceptor(this.auth)
			.requestInterceptor(this.interceptor)
			.requestInterceptor(this.tracing);

		new RetryAfterRestClientCustomizer(this.interceptor).customize(builder);

		assertThat(interceptorsOf(builder)).containsExactly(this.interceptor, this.auth, this.tracing);
	}

	@Test
	void whenRestClientAlreadyHasAnotherRetryInterceptorThenLeftAlone() {
		RetryAfterInterceptor own = newInterceptor();
		RestClient.Builder builder = RestClient.builder().requestInterceptor(this.auth).requestInterceptor(own);

		new RetryAfterRestClientCustomizer(this.interceptor).customize(builder);

		assertThat(interceptorsOf(builder)).containsExactly(this.auth, own);
	}

	@Test
	void whenRestTemplateHasInterceptorsThenRetryInterceptorIsFirst() {
		RestTemplate restTemplate = new RestTemplate();
		restTemplate.getInterceptors().add(this.auth);
		restTemplate.getInterceptors().add(this.tracing);

		new RetryAfterRestTemplateCustomizer(this.interceptor).customize(restTemplate);

		assertThat(restTemplate.getInterceptors()).containsExactly(this.interceptor, this.auth, this.tracing);
	}

	@Test
	void whenRestTemplateIsCustomizedTwiceThenInterceptorIsAddedOnce() {
		RestTemplate restTemplate = new RestTemplate();
		restTemplate.getInterceptors().add(this.auth);
		RetryAfterRestTemplateCustomizer customizer = new RetryAfterRestTemplateCustomizer(this.interceptor);

		customizer.customize(restTemplate);
		customizer.customize(restTemplate);

		assertThat(restTemplate.getInterceptors()).containsExactly(this.interceptor, this.auth);
	}

	@Test
	void whenRestTemplateInterceptorsAreSetAgainThenRetryInterceptorStaysFirst() {
		RestTemplate restTemplate = new RestTemplate();
		new RetryAfterRestTemplateCustomizer(this.interceptor).customize(restTemplate);
		ClientHttpRequestInterceptor orderedInterceptor = new OrderedInterceptor(0);

		List<ClientHttpRequestInterceptor> replaced = new ArrayList<>(List.of(orderedInterceptor, this.interceptor));
		restTemplate.setInterceptors(replaced);

		assertThat(restTemplate.getInterceptors()).containsExactly(this.interceptor, orderedInterceptor);
	}

	@Test
	void whenAskedForOrderThenCustomizersRunLastAndInterceptorSortsFirst() {
		assertThat(new RetryAfterRestClientCustomizer(this.interceptor).getOrder())
			.isEqualTo(Ordered.LOWEST_PRECEDENCE);
		assertThat(new RetryAfterRestTemplateCustomizer(this.interceptor).getOrder())
			.isEqualTo(Ordered.LOWEST_PRECEDENCE);
		assertThat(this.interceptor.getOrder()).isEqualTo(Ordered.HIGHEST_PRECEDENCE);
	}

	private static List<ClientHttpRequestInterceptor> interceptorsOf(RestClient.Builder builder) {
		List<ClientHttpRequestInterceptor> seen = new ArrayList<>();
		builder.requestInterceptors(seen::addAll);
		return seen;
	}

	private static RetryAfterInterceptor newInterceptor() {
		return Interceptors.system(ClientSettingsCatalog.of(RetrySettings.defaults()), RetryListener.NONE);
	}

	private record OrderedInterceptor(int order) implements ClientHttpRequestInterceptor, Ordered {

		@Override
		public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
				throws IOException {
			return execution.execute(request, body);
		}

		@Override
		public int getOrder() {
			return this.order;
		}

	}

}
