package dev.retryafter.sample;

import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.List;

import dev.retryafter.api.RetryRefusedException;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/**
 * Forwards {@code /relay/**} through a {@link RestClient}, {@code /relay-template/**} through a
 * {@link RestTemplate} and {@code /relay-webclient/**} through a {@link WebClient}, all built
 * from the builders Spring Boot auto-configures, so they retry exactly as a user's clients
 * would. The {@code WebClient} relay answers asynchronously: while it waits for a retry no
 * servlet thread is held. The upstream's final status, body,
 * {@code Content-Type} and {@code Retry-After} are passed back unchanged (a final 429 stays a
 * 429); an I/O failure answers 502 with a JSON body naming the reason. An incoming
 * {@code Authorization} header is forwarded unchanged, so a multi-tenant relay can be tried
 * with {@code retry-after.cooldown.partition-headers=Authorization}.
 */
@RestController
class RelayController {

	private static final String RELAY = "/relay";

	private static final String RELAY_TEMPLATE = "/relay-template";

	private static final String RELAY_WEBCLIENT = "/relay-webclient";

	private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/** Response headers passed back: the ones that tell the caller what the upstream said. */
	private static final List<String> MIRRORED_HEADERS = List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.RETRY_AFTER);

	private final RestClient restClient;

	private final RestTemplate restTemplate;

	private final WebClient webClient;

	private final SampleProperties properties;

	private final Environment environment;

	RelayController(RestClient.Builder restClientBuilder, RestTemplateBuilder restTemplateBuilder,
			WebClient.Builder webClientBuilder, SampleProperties properties, Environment environment) {
		this.restClient = restClientBuilder.build();
		// The relay mirrors error statuses instead of turning them into exceptions.
		this.restTemplate = restTemplateBuilder.errorHandler(new NoOpResponseErrorHandler()).build();
		this.webClient = webClientBuilder.build();
		this.properties = properties;
		this.environment = environment;
	}

	@GetMapping(RELAY + "/{*path}")
	ResponseEntity<byte[]> get(HttpServletRequest request) {
		return this.restClient.get()
			.uri(target(request, RELAY))
			.headers((headers) -> forwardAuthorization(request, headers))
			.exchange((clientRequest, response) -> mirror(response));
	}

	@PostMapping(RELAY + "/{*path}")
	ResponseEntity<byte[]> post(HttpServletRequest request, @RequestBody(required = false) byte @Nullable [] body,
			@RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) @Nullable MediaType contentType,
			@RequestHeader(name = IDEMPOTENCY_KEY, required = false) @Nullable String idempotencyKey) {
		RestClient.RequestBodySpec spec = this.restClient.post()
			.uri(target(request, RELAY))
			.headers((headers) -> forwardAuthorization(request, headers));
		if (contentType != null) {
			spec.contentType(contentType);
		}
		if (idempotencyKey != null) {
			spec.header(IDEMPOTENCY_KEY, idempotencyKey);
		}
		if (body != null) {
			spec.body(body);
		}
		return spec.exchange((clientRequest, response) -> mirror(response));
	}

	@GetMapping(RELAY_TEMPLATE + "/{*path}")
	@Nullable ResponseEntity<byte[]> getWithTemplate(HttpServletRequest request) {
		return this.restTemplate.execute(target(request, RELAY_TEMPLATE), HttpMethod.GET,
				(clientRequest) -> forwardAuthorization(request, clientRequest.getHeaders()), this::mirror);
	}

	@GetMapping(RELAY_WEBCLIENT + "/{*path}")
	Mono<ResponseEntity<byte[]>> getWithWebClient(HttpServletRequest request) {
		return this.webClient.get()
			.uri(target(request, RELAY_WEBCLIENT))
			.headers((headers) -> forwardAuthorization(request, headers))
			.exchangeToMono((response) -> response.bodyToMono(byte[].class)
				.defaultIfEmpty(new byte[0])
				.map((body) -> ResponseEntity.status(response.statusCode())
					.headers(mirrored(response.headers().asHttpHeaders()))
					.body(body)));
	}

	@ExceptionHandler(ResourceAccessException.class)
	ResponseEntity<RelayFailure> ioFailure(ResourceAccessException ex) {
		return ResponseEntity.status(502).contentType(MediaType.APPLICATION_JSON).body(RelayFailure.of(ex));
	}

	/** Every value, in order, exactly as received: the relay neither reads nor rewrites them. */
	private static void forwardAuthorization(HttpServletRequest request, HttpHeaders headers) {
		List<String> values = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION));
		if (!values.isEmpty()) {
			headers.put(HttpHeaders.AUTHORIZATION, values);
		}
	}

	/**
	 * The {@code WebClient} relay's I/O failures: a transport failure arrives wrapped in a
	 * {@link WebClientRequestException}, a request the starter refused (an origin cooling
	 * down) as the {@link RetryRefusedException} itself.
	 */
	@ExceptionHandler({ WebClientRequestException.class, RetryRefusedException.class })
	ResponseEntity<RelayFailure> webClientIoFailure(Exception ex) {
		Throwable failure = (ex instanceof WebClientRequestException && ex.getCause() != null) ? ex.getCause() : ex;
		return ResponseEntity.status(502)
			.contentType(MediaType.APPLICATION_JSON)
			.body(RelayFailure.ofFailure(failure));
	}

	private ResponseEntity<byte[]> mirror(ClientHttpResponse response) throws IOException {
		return ResponseEntity.status(response.getStatusCode())
			.headers(mirrored(response.getHeaders()))
			.body(response.getBody().readAllBytes());
	}

	private static HttpHeaders mirrored(HttpHeaders upstream) {
		HttpHeaders headers = new HttpHeaders();
		for (String name : MIRRORED_HEADERS) {
			List<String> values = upstream.get(name);
			if (values != null) {
				headers.put(name, values);
			}
		}
		return headers;
	}

	/**
	 * The upstream URI: the root, then the path after the relay prefix exactly as received
	 * (still percent-encoded), then the raw query string.
	 */
	private URI target(HttpServletRequest request, String prefix) {
		String path = request.getRequestURI().substring(request.getContextPath().length() + prefix.length());
		String query = request.getQueryString();
		return URI.create(upstreamRoot() + path + ((query != null) ? "?" + query : ""));
	}

	private String upstreamRoot() {
		URI configured = this.properties.getUpstreamUrl();
		if (configured != null) {
			String root = configured.toString();
			return root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
		}
		// Resolved per request: with server.port=0 the real port is only known once the
		// server has started (Boot publishes it as local.server.port).
		String port = this.environment.getProperty("local.server.port",
				this.environment.getProperty("server.port", "8080"));
		return "http://localhost:" + port;
	}

}
