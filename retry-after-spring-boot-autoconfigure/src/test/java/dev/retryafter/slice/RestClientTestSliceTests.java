package dev.retryafter.slice;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.test.MockServerRestClientCustomizer;
import org.springframework.boot.restclient.test.MockServerRestTemplateCustomizer;
import org.springframework.boot.restclient.test.autoconfigure.RestClientTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.client.MockRestServiceServer;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.requestTo;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withStatus;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withSuccess;

/**
 * {@code @RestClientTest} sees the retries production does: this jar's
 * {@code AutoConfigureRestClient.imports} adds the auto-configuration to the slice, and the
 * interceptor still runs in front of the {@link MockRestServiceServer} the slice binds to the
 * builders (it replaces their request factory, not their interceptors). The slice's
 * {@code MeterRegistry}, when the test declares one, gets the retry meters.
 */
@ExtendWith(WithoutBootLogging.class)
@RestClientTest(properties = "retry-after.jitter=0")
class RestClientTestSliceTests {

	@Autowired
	private MockServerRestClientCustomizer restClientServers;

	@Autowired
	private MockServerRestTemplateCustomizer restTemplateServers;

	@Autowired
	private ForecastClient client;

	@Autowired
	private SliceTime time;

	@Autowired
	private MeterRegistry meterRegistry;

	@Test
	void aRestClientRetriesA429AfterItsRetryAfterWithoutWaitingForReal() {
		MockRestServiceServer server = this.restClientServers.getServer();
		server.expect(requestTo("https://api.example.com/forecast"))
			.andRespond(withStatus(HttpStatus.TOO_MANY_REQUESTS).header("Retry-After", "1"));
		server.expect(requestTo("https://api.example.com/forecast"))
			.andRespond(withSuccess("sunny", MediaType.TEXT_PLAIN));
		int before = this.time.recordingSleeper().sleeps().size();

		assertThat(this.client.forecast()).isEqualTo("sunny");

		server.verify();
		assertThat(sleepsSince(before)).containsExactly(Duration.ofSeconds(1));
		assertThat(this.meterRegistry.get("http.client.retry.attempts")
			.tags("client", "default", "method", "GET", "status", "429", "outcome", "retried")
			.counter()
			.count()).isEqualTo(1.0);
	}

	/** Another origin than the RestClient's: the context, and its cooldowns, are shared. */
	@Test
	void aRestTemplateFromTheBuilderRetriesToo() {
		MockRestServiceServer server = this.restTemplateServers.getServer();
		server.expect(requestTo("https://weather.example.org/outlook"))
			.andRespond(withStatus(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "2"));
		server.expect(requestTo("https://weather.example.org/outlook")).andRespond(withSuccess("rain", MediaType.TEXT_PLAIN));
		int before = this.time.recordingSleeper().sleeps().size();

		assertThat(this.client.outlook()).isEqualTo("rain");

		server.verify();
		assertThat(sleepsSince(before)).containsExactly(Duration.ofSeconds(2));
	}

	private List<Duration> sleepsSince(int before) {
		List<Duration> sleeps = this.time.recordingSleeper().sleeps();
		return sleeps.subList(before, sleeps.size());
	}

	/**
	 * What a user's slice test brings: the client under test, and here also the time its
	 * calls run on and a registry for the meters.
	 */
	@SpringBootConfiguration
	static class Config {

		@Bean
		SliceTime sliceTime() {
			return new SliceTime();
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		ForecastClient forecastClient(RestClient.Builder restClientBuilder, RestTemplateBuilder restTemplateBuilder) {
			return new ForecastClient(restClientBuilder.baseUrl("https://api.example.com").build(),
					restTemplateBuilder.build());
		}

	}

	/** A client such as an application writes, on the builders Boot gives it. */
	static class ForecastClient {

		private final RestClient restClient;

		private final RestTemplate restTemplate;

		ForecastClient(RestClient restClient, RestTemplate restTemplate) {
			this.restClient = restClient;
			this.restTemplate = restTemplate;
		}

		String forecast() {
			return this.restClient.get().uri("/forecast").retrieve().body(String.class);
		}

		String outlook() {
			return this.restTemplate.getForObject("https://weather.example.org/outlook", String.class);
		}

	}

}
