package dev.retryafter.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.reactive.RetryAfterExchangeFilter;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.LocalCooldownStore;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A herd of N concurrent calls through one {@code WebClient} (the starter's
 * {@code RetryAfterExchangeFilter} on Reactor Netty) against an origin that first answers
 * every caller at the same moment with {@code 503} or {@code 429} and {@code Retry-After}, then
 * {@code 200}; and the same herd through a {@code RestClient} with the starter's interceptor
 * (one platform thread per call, as blocking calls need), side by side.
 * <p>
 * Reports the calls that ended {@code 200}, the retries that reached the origin before the
 * instant the server named, the most retries in any 10 ms, the JVM's live threads before the
 * herd and while every call waits (sampled 300 ms after the last first answer left the
 * origin; the origin's own threads, in the same JVM, not counted), and the heap the waiting
 * herd holds (used heap after a GC at that moment, minus the same before the herd). Usage, from the repository root after building the shaded jar:
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.ReactiveHerdBenchmark \
 *     --callers=1000 --statuses=503,429 --retry-after=1 --repeat=3 --out=benchmarks/results
 * </pre>
 */
public final class ReactiveHerdBenchmark {

	private static final long BUCKET_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long RUN_TIMEOUT_MILLIS = 60_000;

	private static final double MB = 1024 * 1024;

	private ReactiveHerdBenchmark() {
	}

	/**
	 * What one client did in one herd.
	 *
	 * @param client the client
	 * @param status the origin's first answer
	 * @param callers the herd size
	 * @param succeeded calls that ended 200
	 * @param retries retries received by the origin
	 * @param early retries that arrived before the instant the server named
	 * @param peak10ms most retries in any 10 ms
	 * @param threadsBefore live threads before the herd
	 * @param threadsWaiting live threads while the herd waits
	 * @param poolThreads of those, the connector's event loops and the timers' threads
	 * @param heapWaitingMb heap held by the waiting herd, MB (after GC, minus the same before)
	 * @param seconds time from the start to the last call's end
	 * @param gaveUp why calls gave up
	 */
	record Result(String client, int status, int callers, int succeeded, int retries, int early, int peak10ms,
			int threadsBefore, int threadsWaiting, int poolThreads, double heapWaitingMb, double seconds,
			String gaveUp) {
	}

	/**
	 * Runs the herds.
	 * @param args {@code --callers}, {@code --statuses}, {@code --retry-after},
	 * {@code --clients} ({@code webclient,restclient}), {@code --repeat}, {@code --out}
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		Options options = Options.parse(args);
		int callers = options.integer("callers", 1000);
		int retryAfter = options.integer("retry-after", 1);
		List<Integer> statuses = options.integers("statuses", "503,429");
		List<String> clients = options.list("clients", "webclient,restclient");
		int repeat = options.integer("repeat", 3);
		Path out = Path.of(options.string("out", "benchmarks/results"));
		System.out.println(ResultFiles.environment());
		// Warm-up: class loading, JIT, and the connector's and timers' fixed pools started.
		for (String client : clients) {
			run(client, 20, 503, retryAfter);
		}
		List<Result> results = new ArrayList<>();
		for (int status : statuses) {
			for (int rep = 0; rep < repeat; rep++) {
				for (String client : clients) {
					Result result = run(client, callers, status, retryAfter);
					results.add(result);
					System.out.printf(
							"%-10s %d N=%d ok=%d retries=%d early=%d peak/10ms=%d threads %d -> %d (pools %d) "
									+ "heap held %.1f MB in %.2f s %s%n",
							result.client(), status, callers, result.succeeded(), result.retries(), result.early(),
							result.peak10ms(), result.threadsBefore(), result.threadsWaiting(), result.poolThreads(),
							result.heapWaitingMb(), result.seconds(), result.gaveUp());
				}
			}
		}
		ResultFiles.write(out.resolve("reactive-herd.md"), markdown(results, retryAfter));
	}

	static Result run(String client, int callers, int status, int retryAfterSeconds) throws InterruptedException {
		try (HerdOrigin origin = new HerdOrigin(callers, status, retryAfterSeconds, HerdOrigin.Arrival.UNSYNCHRONISED,
				RUN_TIMEOUT_MILLIS / 3);
				Herd herd = client.equals("webclient") ? new WebClientHerd(callers) : new RestClientHerd(callers)) {
			long heapBefore = usedHeapAfterGc();
			int threadsBefore = clientThreads();
			long started = System.nanoTime();
			CompletableFuture<int[]> statuses = herd.start(origin, callers);
			awaitFirstAnswers(origin, callers);
			Thread.sleep(300);
			int threadsWaiting = clientThreads();
			int poolThreads = poolThreads();
			long heapWaiting = usedHeapAfterGc();
			int[] ended = statuses.join();
			double seconds = (System.nanoTime() - started) / 1e9;
			return measure(client, status, callers, origin, ended, threadsBefore, threadsWaiting, poolThreads,
					(heapWaiting - heapBefore) / MB, seconds, herd.gaveUp());
		}
	}

	private static void awaitFirstAnswers(HerdOrigin origin, int callers) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_TIMEOUT_MILLIS / 2);
		while (System.nanoTime() < deadline
				&& Arrays.stream(origin.rejectedAt()).filter((sent) -> sent != 0).count() < callers) {
			Thread.sleep(5);
		}
	}

	private static long usedHeapAfterGc() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		System.gc();
		return memory.getHeapMemoryUsage().getUsed();
	}

	/**
	 * The JVM's live threads but the origin's: it shares this JVM, and holds every first
	 * request on a thread of its own until the whole herd is in.
	 */
	private static int clientThreads() {
		return countThreads((name) -> !name.startsWith("origin-") && !name.startsWith("HTTP-Dispatcher"));
	}

	/** Reactor Netty's event loops and Reactor's parallel (timer) scheduler: fixed sizes. */
	private static int poolThreads() {
		return countThreads((name) -> name.startsWith("reactor-http-") || name.startsWith("parallel-"));
	}

	private static int countThreads(Predicate<String> names) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		int count = 0;
		for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
			if (info != null && names.test(info.getThreadName())) {
				count++;
			}
		}
		return count;
	}

	private static Result measure(String client, int status, int callers, HerdOrigin origin, int[] ended,
			int threadsBefore, int threadsWaiting, int poolThreads, double heapWaitingMb, double seconds,
			String gaveUp) {
		long[] rejectedAt = origin.rejectedAt();
		long[][] retries = origin.retries();
		long after = TimeUnit.SECONDS.toNanos(origin.retryAfterSeconds());
		long[] arrivals = new long[retries.length];
		int early = 0;
		for (int i = 0; i < retries.length; i++) {
			int caller = (int) retries[i][0];
			arrivals[i] = retries[i][1];
			if (rejectedAt[caller] != 0 && arrivals[i] < rejectedAt[caller] + after) {
				early++;
			}
		}
		int succeeded = (int) Arrays.stream(ended).filter((code) -> code == 200).count();
		return new Result(client, status, callers, succeeded, retries.length, early,
				Stats.peakInWindow(arrivals, BUCKET_NANOS), threadsBefore, threadsWaiting, poolThreads, heapWaitingMb,
				seconds, gaveUp);
	}

	static String markdown(List<Result> results, int retryAfter) {
		StringBuilder md = new StringBuilder();
		md.append("Each of N callers gets `503` or `429` with `Retry-After: ").append(retryAfter)
			.append("` at the same moment, then `200`. One line per run. Early = retries that reached the ")
			.append("origin before the instant the server named. Threads: the JVM's live threads (but the ")
			.append("origin's, which shares the JVM) before the herd and 300 ms after the last first answer ")
			.append("left the origin (every call waiting); pools = of those, Reactor Netty's event loops and ")
			.append("Reactor's parallel (timer) threads. Heap held = used heap after a GC while the herd waits, ")
			.append("minus the same before the herd (the origin's connections, in the same JVM, included). ")
			.append(ResultFiles.environment())
			.append(".\n\n");
		md.append("| client | origin answers | N | ended 200 | retries | early | peak / 10 ms | threads before | ")
			.append("threads while waiting | of which pools | heap held MB | finished s | why calls gave up |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
		for (Result r : results) {
			md.append(String.format("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.1f | %.2f | %s |%n",
					label(r.client()), r.status(), r.callers(), r.succeeded(), r.retries(), r.early(), r.peak10ms(),
					r.threadsBefore(), r.threadsWaiting(), r.poolThreads(), r.heapWaitingMb(), r.seconds(),
					r.gaveUp()));
		}
		return md.toString();
	}

	private static String label(String client) {
		return client.equals("webclient") ? "WebClient (Reactor Netty)"
				: "RestClient (HttpClient 5, a thread per call)";
	}

	/** One client able to run the whole herd at once. */
	private interface Herd extends AutoCloseable {

		CompletableFuture<int[]> start(HerdOrigin origin, int callers);

		String gaveUp();

		@Override
		void close();

	}

	/** The starter's filter on one {@code WebClient}, its connection pool as large as the herd. */
	private static final class WebClientHerd implements Herd {

		private final ConnectionProvider connections;

		private final WebClient webClient;

		private final Abandonments abandonments = new Abandonments();

		WebClientHerd(int callers) {
			ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
			RetryAfterExchangeFilter filter = new RetryAfterExchangeFilter(clients, this.abandonments,
					new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS)),
					new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER);
			this.connections = ConnectionProvider.builder("herd")
				.maxConnections(callers)
				.pendingAcquireMaxCount(-1)
				.pendingAcquireTimeout(Duration.ofSeconds(30))
				.build();
			this.webClient = WebClient.builder()
				.clientConnector(new ReactorClientHttpConnector(HttpClient.create(this.connections)))
				.filter(filter)
				.build();
		}

		@Override
		public CompletableFuture<int[]> start(HerdOrigin origin, int callers) {
			int[] statuses = new int[callers];
			return Flux.range(0, callers)
				.flatMap((caller) -> this.webClient.get()
					.uri(origin.uri(caller))
					.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()))
					.onErrorResume((ex) -> Mono.just(Caller.IO_ERROR))
					.doOnNext((status) -> statuses[caller] = status), callers)
				.then(Mono.fromSupplier(() -> statuses))
				.toFuture();
		}

		@Override
		public String gaveUp() {
			return this.abandonments.toString();
		}

		@Override
		public void close() {
			this.connections.disposeLater().block(Duration.ofSeconds(10));
		}

	}

	/** The starter's interceptor on a {@code RestClient}: one platform thread per call. */
	private static final class RestClientHerd implements Herd {

		private final Caller caller;

		RestClientHerd(int callers) {
			this.caller = Contender.select(List.of("ours")).get(0).open(callers);
		}

		@Override
		public CompletableFuture<int[]> start(HerdOrigin origin, int callers) {
			int[] statuses = new int[callers];
			CountDownLatch done = new CountDownLatch(callers);
			AtomicInteger names = new AtomicInteger();
			for (int i = 0; i < callers; i++) {
				int index = i;
				URI uri = origin.uri(index);
				Thread thread = new Thread(null, () -> {
					try {
						statuses[index] = this.caller.get(uri);
					}
					finally {
						done.countDown();
					}
				}, "caller-" + names.incrementAndGet(), 512 * 1024);
				thread.setDaemon(true);
				thread.start();
			}
			return CompletableFuture.supplyAsync(() -> {
				try {
					done.await(RUN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				synchronized (statuses) {
					return statuses;
				}
			});
		}

		@Override
		public String gaveUp() {
			return this.caller.abandonments();
		}

		@Override
		public void close() {
			this.caller.close();
		}

	}

	/** Counts why calls gave up, by reason. */
	private static final class Abandonments implements RetryListener {

		private final Map<String, LongAdder> reasons = new ConcurrentHashMap<>();

		@Override
		public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
				RetryDecision decision) {
			if (decision instanceof RetryDecision.Stop stop && stop.reason().isAbandonment()) {
				count(stop.reason());
			}
		}

		@Override
		public void stoppedWithoutAttempt(String client, String method, StopReason reason) {
			count(reason);
		}

		private void count(StopReason reason) {
			this.reasons.computeIfAbsent(reason.tagValue(), (key) -> new LongAdder()).increment();
		}

		@Override
		public String toString() {
			StringBuilder text = new StringBuilder();
			new TreeMap<>(this.reasons).forEach((reason, count) -> text.append((text.length() > 0) ? ", " : "")
				.append(reason)
				.append('=')
				.append(count.sum()));
			return text.toString();
		}

	}

}
