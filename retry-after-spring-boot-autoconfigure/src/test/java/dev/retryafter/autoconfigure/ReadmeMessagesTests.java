package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.logging.RetryAfterLoggingAutoConfiguration;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every message the README quotes (its {@code ```text} blocks) is what an application really
 * prints: each block must be found in the output of an application started with the
 * configuration mistakes the README describes, and each of those mistakes must be quoted. In a
 * block, {@code ...} stands for text that depends on where the value came from.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReadmeMessagesTests {

	private static final Path README = Path.of("..", "README.md");

	private static final Path SAMPLE_WALK_THROUGH = Path.of("..", "docs", "SAMPLE-APP.md");

	private static final Pattern TEXT_BLOCK = Pattern.compile("```text\\n(.*?)```", Pattern.DOTALL);

	private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");

	private static final String LISTENER = "dev.retryafter.logging.LoggingRetryListener";

	/** A {@code cooldown held} DEBUG line, up to the end of its line or of its inline quote. */
	private static final Pattern COOLDOWN_HELD = Pattern.compile("cooldown held: [^`\\n]*");

	/** The mistakes the README's section "When a property is wrong" describes. */
	private static final List<List<String>> MISTAKES = List.of(List.of("--retry-after.max-atempts=3"),
			List.of("--retry-after.cooldown.statuses=abc"), List.of("--retry-after.store=reddis"),
			List.of("--retry-after.clients.payments.hosts=pay.example.com", "--retry-after.clients.payments.jitter=2"));

	@Test
	void everyQuotedMessageShouldBePrintedByAnApplication(CapturedOutput output) throws IOException {
		List<String> quoted = quotedMessages();
		assertThat(quoted).as("```text blocks in the README").isNotEmpty();
		List<String> printed = new ArrayList<>();
		for (List<String> mistake : MISTAKES) {
			int start = output.length();
			run(mistake);
			printed.add(normalized(output.toString().substring(start)));
		}
		for (String quote : quoted) {
			assertThat(printed).as("an application printing:%n%s", quote)
				.anySatisfy((text) -> assertThat(pattern(quote).matcher(text).find()).isTrue());
		}
		for (int i = 0; i < MISTAKES.size(); i++) {
			String text = printed.get(i);
			assertThat(quoted).as("a README quote of what %s prints:%n%s", MISTAKES.get(i), text)
				.anySatisfy((quote) -> assertThat(pattern(quote).matcher(text).find()).isTrue());
		}
	}

	/**
	 * Every {@code cooldown held} line the README shows, in a code block or inline, has the
	 * fields, in the order, that {@code LoggingRetryListener} prints for a request a real
	 * cooldown held: its values may differ (times, ports), its keys may not.
	 */
	@Test
	void everyQuotedCooldownHeldLineHasTheFieldsTheApplicationPrints(CapturedOutput output) throws Exception {
		// The README's logging section, and the sample's walk-through it links to.
		String readme = Files.readString(README, StandardCharsets.UTF_8)
				+ Files.readString(SAMPLE_WALK_THROUGH, StandardCharsets.UTF_8);
		List<String> quoted = new ArrayList<>();
		Matcher line = COOLDOWN_HELD.matcher(readme);
		while (line.find()) {
			quoted.add(line.group().strip());
		}
		assertThat(quoted).as("cooldown held lines in the README and docs/SAMPLE-APP.md").hasSizeGreaterThanOrEqualTo(2);
		String printed = printedCooldownHeldLine(output);
		for (String quote : quoted) {
			assertThat(printed).as("what the application prints, against the README's%n%s", quote)
				.matches(fieldsOf(quote));
		}
	}

	/** Runs a request that a real cooldown holds, and returns the line that says so. */
	private static String printedCooldownHeldLine(CapturedOutput output) throws Exception {
		LoggingSystem logging = LoggingSystem.get(ReadmeMessagesTests.class.getClassLoader());
		logging.setLogLevel(LISTENER, LogLevel.DEBUG);
		try (LoopbackHttpServer origin = LoopbackHttpServer.start()) {
			origin.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(200).body("ready"));
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
						RetryAfterRestClientAutoConfiguration.class,
						RetryAfterLoggingAutoConfiguration.class, HttpClientAutoConfiguration.class,
						ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class))
				.withPropertyValues("retry-after.jitter=0")
				.run((context) -> {
					RestClient client = context.getBean(RestClient.Builder.class).build();
					CooldownStore store = context.getBean(CooldownStore.class);
					CompletableFuture<String> first = CompletableFuture
						.supplyAsync(() -> client.get().uri(origin.uri("/report")).retrieve().body(String.class));
					await().until(() -> store.protection().activeCount(System.nanoTime()) > 0);
					assertThat(client.get().uri(origin.uri("/report")).retrieve().body(String.class))
						.isEqualTo("ready");
					assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("ready");
				});
		}
		finally {
			logging.setLogLevel(LISTENER, null);
		}
		Matcher printed = COOLDOWN_HELD.matcher(ANSI.matcher(output.toString()).replaceAll(""));
		assertThat(printed.find()).as("a cooldown held line in the output").isTrue();
		return printed.group().strip();
	}

	/** The quoted line as a pattern: its keys literally, in order, each value any word. */
	private static String fieldsOf(String quote) {
		StringBuilder pattern = new StringBuilder(Pattern.quote("cooldown held:"));
		for (String field : quote.substring("cooldown held:".length()).strip().split(" ")) {
			pattern.append(' ').append(Pattern.quote(field.substring(0, field.indexOf('=') + 1))).append("\\S+");
		}
		return pattern.toString();
	}

	private static void run(List<String> args) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		// Boot would configure Logback for the whole test JVM; its report reaches the output
		// either way, through the logging already in place.
		String loggingSystem = System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		try {
			application.run(args.toArray(String[]::new)).close();
		}
		catch (RuntimeException ex) {
			// A failed start-up: its report has been printed, which is what is compared.
		}
		finally {
			restore(loggingSystem);
		}
	}

	static void restore(String loggingSystem) {
		if (loggingSystem != null) {
			System.setProperty(LoggingSystem.SYSTEM_PROPERTY, loggingSystem);
		}
		else {
			System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
		}
	}

	private static List<String> quotedMessages() throws IOException {
		String readme = Files.readString(README, StandardCharsets.UTF_8);
		List<String> quoted = new ArrayList<>();
		Matcher block = TEXT_BLOCK.matcher(readme);
		while (block.find()) {
			quoted.add(normalized(block.group(1)).strip());
		}
		return quoted;
	}

	/** The quote as a pattern: literal text, with {@code ...} matching anything on one line. */
	private static Pattern pattern(String quote) {
		String[] literals = quote.split("\\.\\.\\.", -1);
		StringBuilder pattern = new StringBuilder();
		for (int i = 0; i < literals.length; i++) {
			if (i > 0) {
				pattern.append("[^\\n]*?");
			}
			pattern.append(Pattern.quote(literals[i]));
		}
		return Pattern.compile(pattern.toString());
	}

	private static String normalized(String text) {
		String plain = ANSI.matcher(text.replace("\r\n", "\n")).replaceAll("");
		StringBuilder lines = new StringBuilder(plain.length());
		for (String line : plain.split("\n", -1)) {
			lines.append(line.stripTrailing()).append('\n');
		}
		return lines.toString();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ RetryAfterAutoConfiguration.class,
			RetryAfterRestClientAutoConfiguration.class, RetryAfterPropertyCheckAutoConfiguration.class })
	static class MinimalApplication {

	}

}
