package dev.retryafter.autoconfigure;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Boot application with {@code spring.threads.virtual.enabled=true}: 200 calls, each on a
 * virtual thread of the auto-configured task executor, all held by a {@code 429}'s cooldown
 * and then sent. Every call must succeed, and no virtual thread may pin its carrier while it
 * is held or waits for the origin (JFR's {@code jdk.VirtualThreadPinned}, every duration).
 * <p>
 * The same herd runs once, smaller and against another origin, before the recording starts:
 * a JVM's first pass through the code loads classes and initialises the JDK's I/O poller, and
 * a virtual thread that meets a class being loaded or initialised by another one waits for
 * it pinned. That is the JVM warming up, once per class, not the steady state under test.
 * <p>
 * Virtual threads exist from Java 21: on an older JDK the build leaves this class out, and
 * its Java 25 leg runs it.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadHerdTests {

	private static final int CALLERS = 200;

	private static final int WARM_UP_CALLERS = 20;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class))
		.withPropertyValues("spring.threads.virtual.enabled=true");

	@ParameterizedTest
	@ValueSource(strings = { "http-components", "jdk" })
	void whenAHerdOnVirtualThreadsIsHeldByACooldownThenEveryCallSucceedsAndNoCarrierIsPinned(String factory,
			@TempDir Path dir) throws Exception {
		try (LoopbackHttpServer warmUp = cooledDownOrigin(); LoopbackHttpServer origin = cooledDownOrigin()) {
			this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=" + factory)
				.run((context) -> {
					RestClient client = context.getBean(RestClient.Builder.class).build();
					AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
					assertThat(herd(client, executor, warmUp, WARM_UP_CALLERS)).hasSize(WARM_UP_CALLERS);

					List<Call> calls;
					List<RecordedEvent> pinned = new ArrayList<>();
					try (Recording recording = new Recording()) {
						recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
						recording.start();
						calls = herd(client, executor, origin, CALLERS);
						recording.stop();
						Path file = dir.resolve("herd.jfr");
						recording.dump(file);
						for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
							if (event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
								pinned.add(event);
							}
						}
					}

					assertThat(calls).hasSize(CALLERS).allSatisfy((call) -> {
						assertThat(call.status()).isEqualTo(200);
						assertThat(call.onVirtualThread()).isTrue();
						// Held until the 429's instant, 3 s after it was answered: none went out at once.
						assertThat(call.took()).isGreaterThan(Duration.ofSeconds(1));
					});
					assertThat(pinned).as("pinned virtual threads").isEmpty();
					// The call that met the 429, then each of the 200 once.
					assertThat(origin.requests()).hasSize(1 + CALLERS);
				});
		}
	}

	private static LoopbackHttpServer cooledDownOrigin() throws Exception {
		LoopbackHttpServer origin = LoopbackHttpServer.start();
		origin.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		return origin;
	}

	/**
	 * One call, marked not to be retried, meets the 429 and starts the origin's cooldown; then
	 * {@code callers} calls start together on the executor's virtual threads and are held.
	 */
	private static List<Call> herd(RestClient client, AsyncTaskExecutor executor, LoopbackHttpServer origin,
			int callers) throws Exception {
		assertThat(executor.submit(() -> client.get()
			.uri(origin.uri("/report"))
			.attributes(RetryAfterAttributes.notIdempotent())
			.retrieve()
			.onStatus((code) -> true, (request, ignored) -> {
			})
			.toBodilessEntity()
			.getStatusCode()
			.value()).get(10, TimeUnit.SECONDS)).isEqualTo(429);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Call>> futures = new ArrayList<>();
		for (int i = 0; i < callers; i++) {
			futures.add(executor.submit(() -> {
				start.await();
				long began = System.nanoTime();
				int status = client.get()
					.uri(origin.uri("/report"))
					.retrieve()
					.onStatus((code) -> true, (request, ignored) -> {
					})
					.toBodilessEntity()
					.getStatusCode()
					.value();
				return new Call(status, isVirtual(Thread.currentThread()), Duration.ofNanos(System.nanoTime() - began));
			}));
		}
		start.countDown();
		List<Call> calls = new ArrayList<>();
		for (Future<Call> future : futures) {
			calls.add(future.get(30, TimeUnit.SECONDS));
		}
		return calls;
	}

	// Thread.isVirtual() is Java 21 API; the tests compile for Java 17.
	private static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
		Method isVirtual = Thread.class.getMethod("isVirtual");
		return (boolean) isVirtual.invoke(thread);
	}

	private record Call(int status, boolean onVirtualThread, Duration took) {
	}

}
