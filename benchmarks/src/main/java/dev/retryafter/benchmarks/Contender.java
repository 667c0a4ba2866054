package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

import dev.retryafter.metrics.RetryAfterMetrics;
import io.github.resilience4j.core.IntervalFunction;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

import org.springframework.http.HttpHeaders;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.retry.RetryCallback;
import org.springframework.retry.backoff.ExponentialRandomBackOffPolicy;
import org.springframework.retry.policy.SimpleRetryPolicy;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

/**
 * A retrying client measured by the harnesses, by key. Every contender uses its library as
 * documented, with settings as close to one another as the libraries allow: 3 attempts in
 * total (HttpClient 5's default strategy: 2), a first backoff of 1 s doubling, statuses 429 and
 * 503. All run through a {@link RestClient} on the same transport, a pooled HttpClient 5
 * classic client, so only the retrying differs.
 *
 * @param key the command-line key
 * @param label the name shown in results
 * @param factory opens a caller able to run {@code n} concurrent requests
 */
record Contender(String key, String label, IntFunction<Caller> factory) {

	private static final Set<Integer> RETRYABLE = Set.of(429, 503);

	private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);

	private static final int MAX_ATTEMPTS = 3;

	static final Map<String, Contender> ALL = all();

	private static Map<String, Contender> all() {
		Map<String, Contender> all = new LinkedHashMap<>();
		for (Contender contender : List.of(ours("ours", "retry-after (ours)", Map.of()),
				ours("ours-no-cooldown", "retry-after (ours), cooldown off", Map.of("cooldown.enabled", "false")),
				ours("ours-no-budget", "retry-after (ours), retry budget off", Map.of("budget.enabled", "false")),
				ours("ours-partition", "retry-after (ours), cooldown partitioned by Authorization",
						Map.of("cooldown.partition-headers", "Authorization")),
				new Contender("hc5", "HttpClient 5 default strategy", Contender::httpClient5),
				new Contender("resilience4j", "resilience4j exp. random backoff", Contender::resilience4j),
				new Contender("spring-retry", "spring-retry ExponentialRandomBackOff", Contender::springRetry))) {
			all.put(contender.key(), contender);
		}
		return all;
	}

	static List<Contender> select(List<String> keys) {
		return keys.stream().map((key) -> {
			Contender contender = ALL.get(key);
			if (contender == null) {
				throw new IllegalArgumentException("Unknown client '" + key + "', known: " + ALL.keySet());
			}
			return contender;
		}).toList();
	}

	Caller open(int connections) {
		return this.factory.apply(connections);
	}

	/**
	 * The starter, configured through its properties (names without the {@code retry-after.}
	 * prefix) on top of its defaults.
	 */
	private static Contender ours(String key, String label, Map<String, String> properties) {
		return new Contender(key, label, (connections) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			StarterContext starter = StarterContext.start(properties, registry);
			CloseableHttpClient httpClient = httpClient5(connections, false);
			RestClient client = restClient(httpClient).requestInterceptor(starter.interceptor()).build();
			Caller caller = exchanging(client, httpClient);
			return new Caller() {

				@Override
				public int get(URI uri, String authorization) {
					return caller.get(uri, authorization);
				}

				@Override
				public String abandonments() {
					return registry.find(RetryAfterMetrics.ABANDONED)
						.counters()
						.stream()
						.filter((counter) -> counter.count() > 0)
						.map((counter) -> counter.getId().getTag("reason") + "=" + (long) counter.count())
						.sorted()
						.collect(Collectors.joining(", "));
				}

				@Override
				public int held() {
					return (int) registry.find(RetryAfterMetrics.COOLDOWN_HELD)
						.timers()
						.stream()
						.mapToLong((timer) -> timer.count())
						.sum();
				}

				@Override
				public void close() {
					caller.close();
					starter.close();
				}

			};
		});
	}

	/**
	 * An interceptor built by the caller, on the same transport as every contender.
	 * @param interceptor the retrying interceptor
	 * @param connections the connections to pool
	 * @return the caller
	 */
	static Caller intercepted(ClientHttpRequestInterceptor interceptor, int connections) {
		CloseableHttpClient httpClient = httpClient5(connections, false);
		return exchanging(restClient(httpClient).requestInterceptor(interceptor).build(), httpClient);
	}

	private static Caller httpClient5(int connections) {
		CloseableHttpClient httpClient = httpClient5(connections, true);
		return exchanging(restClient(httpClient).build(), httpClient);
	}

	private static Caller resilience4j(int connections) {
		RetryConfig config = RetryConfig.custom()
			.maxAttempts(MAX_ATTEMPTS)
			.intervalFunction(IntervalFunction.ofExponentialRandomBackoff(FIRST_BACKOFF, 2.0, 0.5))
			.retryOnException(Contender::isRetryable)
			.build();
		Retry retry = Retry.of("benchmark", config);
		CloseableHttpClient httpClient = httpClient5(connections, false);
		return throwing(restClient(httpClient).build(), httpClient, (call) -> retry.executeSupplier(call::getAsInt));
	}

	private static Caller springRetry(int connections) {
		RetryTemplate template = new RetryTemplate();
		template.setRetryPolicy(new SimpleRetryPolicy(MAX_ATTEMPTS,
				Map.of(HttpServerErrorException.ServiceUnavailable.class, true,
						HttpClientErrorException.TooManyRequests.class, true)));
		ExponentialRandomBackOffPolicy backOff = new ExponentialRandomBackOffPolicy();
		backOff.setInitialInterval(FIRST_BACKOFF.toMillis());
		backOff.setMultiplier(2.0);
		backOff.setMaxInterval(8_000);
		template.setBackOffPolicy(backOff);
		CloseableHttpClient httpClient = httpClient5(connections, false);
		return throwing(restClient(httpClient).build(), httpClient,
				(call) -> template.execute((RetryCallback<Integer, RuntimeException>) (context) -> call.getAsInt()));
	}

	private static boolean isRetryable(Throwable ex) {
		return ex instanceof RestClientResponseException response
				&& RETRYABLE.contains(response.getStatusCode().value());
	}

	/**
	 * The transport of every contender: HttpClient 5 classic with a pool as large as the herd.
	 * Its own retry strategy stays on only for the contender that is that strategy; the others
	 * retry above it, as the starter does with Spring Boot's HttpClient 5 factory.
	 */
	private static CloseableHttpClient httpClient5(int connections, boolean ownRetries) {
		HttpClientBuilder builder = HttpClients.custom()
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setMaxConnTotal(connections)
				.setMaxConnPerRoute(connections)
				.build());
		if (!ownRetries) {
			builder.disableAutomaticRetries();
		}
		return builder.build();
	}

	private static RestClient.Builder restClient(CloseableHttpClient httpClient) {
		return RestClient.builder().requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient));
	}

	private static void close(CloseableHttpClient httpClient) {
		try {
			httpClient.close();
		}
		catch (IOException ex) {
			// closing after the run: nothing left to save
		}
	}

	/** A caller whose library retries below the {@link RestClient}: the final status is read as is. */
	private static Caller exchanging(RestClient client, CloseableHttpClient httpClient) {
		return new Caller() {

			@Override
			public int get(URI uri, String authorization) {
				try {
					return withAuthorization(client.get().uri(uri), authorization).exchange((request, response) -> {
						response.getBody().transferTo(OutputStream.nullOutputStream());
						return response.getStatusCode().value();
					});
				}
				catch (ResourceAccessException ex) {
					return IO_ERROR;
				}
			}

			@Override
			public void close() {
				Contender.close(httpClient);
			}

		};
	}

	/** A caller whose library retries around the {@link RestClient}, on its status exceptions. */
	private static Caller throwing(RestClient client, CloseableHttpClient httpClient, Retrying retrying) {
		return new Caller() {

			@Override
			public int get(URI uri, String authorization) {
				try {
					return retrying.run(() -> withAuthorization(client.get().uri(uri), authorization).retrieve()
						.toBodilessEntity()
						.getStatusCode()
						.value());
				}
				catch (RestClientResponseException ex) {
					return ex.getStatusCode().value();
				}
				catch (ResourceAccessException ex) {
					return IO_ERROR;
				}
			}

			@Override
			public void close() {
				Contender.close(httpClient);
			}

		};
	}

	private static RestClient.RequestHeadersSpec<?> withAuthorization(RestClient.RequestHeadersSpec<?> request,
			String authorization) {
		return (authorization != null) ? request.header(HttpHeaders.AUTHORIZATION, authorization) : request;
	}

	@FunctionalInterface
	private interface Retrying {

		int run(IntSupplier call);

	}

}
