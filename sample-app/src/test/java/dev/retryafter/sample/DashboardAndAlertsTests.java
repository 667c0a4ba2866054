package dev.retryafter.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the Grafana dashboard and the Prometheus alert rules in {@code docs/observability}
 * honest: the sample app runs with the Prometheus registry, relays retries, abandonments
 * (for three reasons, one of them the retry budget) and a cooldown hold against a loopback
 * upstream, and every metric, every label and every literal label value the dashboard's
 * queries and the rules use must then be in {@code /actuator/prometheus}. A renamed meter or
 * tag breaks this test.
 * <p>
 * The retry budget is off here ({@code ratio} and {@code min-per-second} 0), so a retry paced
 * by backoff is refused; a retry paced by {@code Retry-After} spends no budget and still goes.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.jitter=0", "retry-after.max-attempts=2",
				"retry-after.budget.ratio=0", "retry-after.budget.min-per-second=0",
				// One scope for the whole upstream, so that /throttled's cooldown holds /ok.
				"retry-after.cooldown.scopes=/" })
class DashboardAndAlertsTests {

	private static final Path DASHBOARD = Path.of("..", "docs", "observability", "retry-after-dashboard.json");

	private static final Path ALERTS = Path.of("..", "docs", "observability", "retry-after-alerts.yml");

	/** Labels Prometheus adds to every series when it scrapes, and Grafana's variables. */
	private static final Set<String> TARGET_LABELS = Set.of("job", "instance");

	private static final Pattern METRIC = Pattern.compile("\\b(http_client_retry_[a-z_]+)\\b");

	private static final Pattern SELECTOR = Pattern.compile("\\b(http_client_retry_[a-z_]+)\\s*\\{([^}]*)}");

	private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");

	private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");

	private static final Pattern LABEL_VALUES = Pattern
		.compile("label_values\\(\\s*(http_client_retry_[a-z_]+)\\s*,\\s*([a-z_]+)\\s*\\)");

	private static final ScriptedUpstream upstream = ScriptedUpstream.start();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void upstreamUrl(DynamicPropertyRegistry registry) {
		registry.add("sample.upstream-url", upstream::url);
	}

	@AfterAll
	static void stopUpstream() {
		upstream.close();
	}

	@BeforeAll
	static void assetsExist() {
		assertThat(DASHBOARD).isRegularFile();
		assertThat(ALERTS).isRegularFile();
	}

	@Test
	void everyMetricAndLabelTheDashboardAndTheRulesUseIsScraped() throws Exception {
		Scrape scrape = driveAndScrape();
		List<String> expressions = new ArrayList<>();
		expressions.addAll(dashboardQueries());
		expressions.addAll(alertExpressions());
		assertThat(dashboardQueries()).hasSizeGreaterThanOrEqualTo(7);
		assertThat(alertExpressions()).hasSizeGreaterThanOrEqualTo(3);
		Set<String> used = new LinkedHashSet<>();
		for (String expression : expressions) {
			List<String> metrics = metricsIn(expression);
			assertThat(metrics).as(expression).isNotEmpty();
			used.addAll(metrics);
			for (String metric : metrics) {
				assertThat(scrape.names()).as("metric %s of %s", metric, expression).contains(metric);
			}
			for (String label : groupingLabels(expression)) {
				if (!TARGET_LABELS.contains(label)) {
					assertThat(metrics).as("label %s of %s", label, expression)
						.anyMatch((metric) -> scrape.labels(metric).contains(label));
				}
			}
			Matcher selector = SELECTOR.matcher(expression);
			while (selector.find()) {
				checkMatchers(scrape, selector.group(1), selector.group(2), expression);
			}
			Matcher labelValues = LABEL_VALUES.matcher(expression);
			while (labelValues.find()) {
				assertThat(scrape.labels(labelValues.group(1))).as(expression).contains(labelValues.group(2));
			}
		}
		// Every panel and rule the issue lists reads a meter that is in the scrape.
		assertThat(used).contains("http_client_retry_attempts_total", "http_client_retry_abandoned_total",
				"http_client_retry_delay_planned_seconds_sum", "http_client_retry_delay_actual_seconds_sum",
				"http_client_retry_cooldown_held_seconds_sum", "http_client_retry_cooldown_hosts",
				"http_client_retry_store_errors_total", "http_client_retry_store_dropped_total");
	}

	private void checkMatchers(Scrape scrape, String metric, String matchers, String expression) {
		Matcher matcher = MATCHER.matcher(matchers);
		while (matcher.find()) {
			String label = matcher.group(1);
			String value = matcher.group(3);
			assertThat(scrape.labels(metric)).as("label %s of %s in %s", label, metric, expression).contains(label);
			if (value.contains("$")) {
				// A Grafana variable: its values come from label_values, checked above.
				continue;
			}
			for (String alternative : value.split("\\|")) {
				assertThat(scrape.values(metric, label)).as("value %s=%s of %s in %s", label, alternative, metric,
						expression)
					.contains(alternative);
			}
		}
	}

	/**
	 * Relays what makes every meter the dashboard reads move: a retry after {@code 429} with
	 * {@code Retry-After} that ends in an abandonment (max-attempts) and leaves a cooldown, a
	 * request held by that cooldown, a success, a {@code Retry-After} too long to honour, and
	 * a retry refused by the retry budget.
	 */
	private Scrape driveAndScrape() throws Exception {
		LoopbackHttp http = new LoopbackHttp(this.port);
		assertThat(http.get("/relay/unavailable").statusCode()).isEqualTo(503);
		assertThat(http.get("/relay/too-long").statusCode()).isEqualTo(503);
		HttpResponse<String> throttled = http.get("/relay/throttled");
		assertThat(throttled.statusCode()).isEqualTo(429);
		// Sent while the origin cools down for the 429's Retry-After (2 s): held, then sent.
		assertThat(http.get("/relay/ok").statusCode()).isEqualTo(200);
		assertThat(upstream.count("/unavailable")).isEqualTo(1);
		assertThat(upstream.count("/too-long")).isEqualTo(1);
		assertThat(upstream.count("/throttled")).isEqualTo(2);
		HttpResponse<String> scrape = http.get("/actuator/prometheus");
		assertThat(scrape.statusCode()).isEqualTo(200);
		Scrape parsed = Scrape.parse(scrape.body());
		assertThat(parsed.values("http_client_retry_abandoned_total", "reason")).contains("max-attempts",
				"retry-after-too-long", "retry-budget");
		assertThat(parsed.names()).contains("http_client_retry_cooldown_held_seconds_count");
		return parsed;
	}

	private static List<String> dashboardQueries() throws IOException {
		JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
		List<String> queries = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			for (JsonNode target : panel.get("targets")) {
				queries.add(target.get("expr").asString());
			}
		}
		for (JsonNode variable : dashboard.get("templating").get("list")) {
			JsonNode query = variable.get("query");
			if (query != null && query.isObject()) {
				queries.add(query.get("query").asString());
			}
		}
		return queries;
	}

	@SuppressWarnings("unchecked")
	private static List<String> alertExpressions() throws IOException {
		Map<String, Object> rules = new Yaml().load(Files.readString(ALERTS));
		List<String> expressions = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				expressions.add(String.valueOf(rule.get("expr")));
			}
		}
		return expressions;
	}

	private static List<String> metricsIn(String expression) {
		List<String> metrics = new ArrayList<>();
		Matcher matcher = METRIC.matcher(expression);
		while (matcher.find()) {
			metrics.add(matcher.group(1));
		}
		return metrics;
	}

	private static List<String> groupingLabels(String expression) {
		List<String> labels = new ArrayList<>();
		Matcher matcher = GROUPING.matcher(expression);
		while (matcher.find()) {
			for (String label : matcher.group(1).split(",")) {
				if (!label.isBlank()) {
					labels.add(label.strip());
				}
			}
		}
		return labels;
	}

	/**
	 * The series of a Prometheus text scrape: for each metric name, the label names and the
	 * values each label takes.
	 */
	private record Scrape(Map<String, Map<String, Set<String>>> series) {

		private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+\\S+.*$");

		private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

		static Scrape parse(String text) {
			Map<String, Map<String, Set<String>>> series = new HashMap<>();
			for (String line : text.split("\n")) {
				if (line.isBlank() || line.startsWith("#")) {
					continue;
				}
				Matcher matcher = LINE.matcher(line);
				assertThat(matcher.matches()).as(line).isTrue();
				Map<String, Set<String>> labels = series.computeIfAbsent(matcher.group(1), (name) -> new HashMap<>());
				if (matcher.group(3) != null) {
					Matcher label = LABEL.matcher(matcher.group(3));
					while (label.find()) {
						labels.computeIfAbsent(label.group(1), (name) -> new LinkedHashSet<>()).add(label.group(2));
					}
				}
			}
			return new Scrape(series);
		}

		Set<String> names() {
			return this.series.keySet();
		}

		Set<String> labels(String metric) {
			return this.series.getOrDefault(metric, Map.of()).keySet();
		}

		Set<String> values(String metric, String label) {
			return this.series.getOrDefault(metric, Map.of()).getOrDefault(label, Set.of());
		}

	}

	/**
	 * A loopback upstream: {@code /unavailable} answers 503 (retried on backoff, which the
	 * budget refuses), {@code /too-long} 503 with {@code Retry-After: 120} (longer than
	 * {@code header.max-wait}), {@code /throttled} 429 with {@code Retry-After: 2} (which
	 * starts the origin's cooldown), anything else 200.
	 */
	private static final class ScriptedUpstream implements AutoCloseable {

		private final HttpServer server;

		private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

		private ScriptedUpstream(HttpServer server) {
			this.server = server;
			server.createContext("/", this::handle);
			server.start();
		}

		static ScriptedUpstream start() {
			try {
				return new ScriptedUpstream(
						HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot start the upstream on loopback", ex);
			}
		}

		String url() {
			return "http://127.0.0.1:" + this.server.getAddress().getPort();
		}

		int count(String path) {
			AtomicInteger count = this.counts.get(path);
			return (count != null) ? count.get() : 0;
		}

		private void handle(HttpExchange exchange) throws IOException {
			String path = exchange.getRequestURI().getPath();
			this.counts.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
			int status = switch (path) {
				case "/unavailable" -> 503;
				case "/too-long" -> {
					exchange.getResponseHeaders().add("Retry-After", "120");
					yield 503;
				}
				case "/throttled" -> {
					exchange.getResponseHeaders().add("Retry-After", "2");
					yield 429;
				}
				default -> 200;
			};
			byte[] body = path.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "text/plain");
			exchange.sendResponseHeaders(status, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		}

		@Override
		public void close() {
			this.server.stop(0);
		}

	}

}
