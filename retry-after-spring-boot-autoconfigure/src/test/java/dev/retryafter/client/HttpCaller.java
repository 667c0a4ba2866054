package dev.retryafter.client;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * A {@code RestClient} or {@code RestTemplate} on a JDK or {@code HttpURLConnection} request
 * factory, with the retry interceptor added by its customizer after the given downstream
 * interceptors. Error statuses come back as results, never as exceptions, so tests can assert
 * that the caller gets the last response unchanged.
 */
interface HttpCaller {

	/**
	 * Sends one request.
	 * @param method the method
	 * @param uri the URI
	 * @param headers headers to add
	 * @param body the body, empty for none
	 * @param attributes request attributes to set (a {@code RestTemplate} has none)
	 * @return the status, headers and body the caller received
	 */
	Result call(HttpMethod method, URI uri, HttpHeaders headers, byte[] body, Consumer<Map<String, Object>> attributes);

	default Result get(URI uri) {
		return call(HttpMethod.GET, uri, new HttpHeaders(), new byte[0], (attributes) -> {
		});
	}

	/**
	 * What the caller received.
	 *
	 * @param status the status code
	 * @param headers the response headers
	 * @param body the body as UTF-8 text
	 */
	record Result(int status, HttpHeaders headers, String body) {

		static Result of(ClientHttpResponse response) throws IOException {
			return new Result(response.getStatusCode().value(), HttpHeaders.copyOf(response.getHeaders()),
					new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8));
		}

	}

	/** The two transports under test. */
	enum Transport {

		JDK, SIMPLE;

		ClientHttpRequestFactory factory() {
			return (this == JDK) ? new JdkClientHttpRequestFactory() : new SimpleClientHttpRequestFactory();
		}

	}

	/** The four client set-ups under test. */
	enum Kind {

		REST_CLIENT_JDK(true, Transport.JDK), REST_CLIENT_SIMPLE(true, Transport.SIMPLE),
		REST_TEMPLATE_JDK(false, Transport.JDK), REST_TEMPLATE_SIMPLE(false, Transport.SIMPLE);

		private final boolean restClient;

		private final Transport transport;

		Kind(boolean restClient, Transport transport) {
			this.restClient = restClient;
			this.transport = transport;
		}

		Transport transport() {
			return this.transport;
		}

		HttpCaller create(RetryAfterInterceptor interceptor, ClientHttpRequestInterceptor... downstream) {
			return create(interceptor, this.transport.factory(), downstream);
		}

		HttpCaller create(RetryAfterInterceptor interceptor, ClientHttpRequestFactory factory,
				ClientHttpRequestInterceptor... downstream) {
			return this.restClient ? restClient(interceptor, factory, downstream)
					: restTemplate(interceptor, factory, downstream);
		}

		HttpCaller create(RetryAfterInterceptor interceptor, UnaryOperator<ClientHttpRequestFactory> wrapper,
				ClientHttpRequestInterceptor... downstream) {
			return create(interceptor, wrapper.apply(this.transport.factory()), downstream);
		}

		private static HttpCaller restClient(RetryAfterInterceptor interceptor, ClientHttpRequestFactory factory,
				ClientHttpRequestInterceptor... downstream) {
			RestClient.Builder builder = RestClient.builder()
				.requestFactory(factory)
				.requestInterceptors((interceptors) -> interceptors.addAll(List.of(downstream)));
			new RetryAfterRestClientCustomizer(interceptor).customize(builder);
			RestClient client = builder.build();
			return (method, uri, headers, body, attributes) -> {
				RestClient.RequestBodySpec spec = client.method(method)
					.uri(uri)
					.headers((target) -> target.addAll(headers))
					.attributes(attributes);
				if (body.length > 0) {
					spec.body(body);
				}
				return spec.exchange((request, response) -> Result.of(response));
			};
		}

		private static HttpCaller restTemplate(RetryAfterInterceptor interceptor, ClientHttpRequestFactory factory,
				ClientHttpRequestInterceptor... downstream) {
			RestTemplate template = new RestTemplate(factory);
			template.setErrorHandler(new NoOpResponseErrorHandler());
			template.getInterceptors().addAll(List.of(downstream));
			new RetryAfterRestTemplateCustomizer(interceptor).customize(template);
			return (method, uri, headers, body, attributes) -> template.execute(uri, method, (request) -> {
				request.getHeaders().addAll(headers);
				attributes.accept(request.getAttributes());
				if (body.length > 0) {
					request.getBody().write(body);
				}
			}, Result::of);
		}

	}

}
