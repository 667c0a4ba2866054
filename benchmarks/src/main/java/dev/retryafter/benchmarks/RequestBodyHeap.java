package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.retryafter.client.BenchmarkInterceptors;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.reactive.RetryAfterExchangeFilter;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.LocalCooldownStore;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The heap a client holds for request bodies while the requests are in flight, with and
 * without the starter, on a loopback origin that reads each body completely and then holds
 * its response until every request has arrived.
 * <ul>
 * <li>{@code --mode=webclient}: {@code --calls} concurrent POSTs without an
 * {@code Idempotency-Key} (never retried on a response), each a streamed body of
 * {@code --size-kb}, through a {@code WebClient} on Reactor Netty, without a filter
 * ({@code none}) and with {@code RetryAfterExchangeFilter} ({@code filter}); variant
 * {@code filter-key} sends each with an {@code Idempotency-Key}, so its body is kept for a
 * retry.</li>
 * <li>{@code --mode=restclient}: one POST of {@code --size-mb} written to the request's output
 * stream, through a {@code RestClient} on HttpClient 5, without an interceptor and with
 * {@code RetryAfterInterceptor}: Spring buffers the whole body of a request to a client that
 * has any interceptor.</li>
 * </ul>
 * Bodies are written from one shared 16 KB array, so the caller itself holds no body. "Held"
 * is the heap in use after a full GC while every request is held by the origin, minus the same
 * before the requests started; "peak" is the most heap in use during the run (garbage
 * included). Run with a heap large enough for the worst variant, e.g. {@code -Xmx2g}.
 */
public final class RequestBodyHeap {

	private static final byte[] CHUNK = new byte[16 * 1024];

	private RequestBodyHeap() {
	}

	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		String mode = options.string("mode", "webclient");
		StringBuilder table = new StringBuilder();
		table.append("| client | variant | requests | body | held while in flight | held per request | peak heap | calls failed |\n");
		table.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
		if (mode.equals("webclient") || mode.equals("both")) {
			int calls = options.integer("calls", 1000);
			int sizeKb = options.integer("size-kb", 256);
			for (String variant : options.list("variants", "none,filter")) {
				table.append(webClient(variant, calls, sizeKb * 1024)).append('\n');
			}
		}
		if (mode.equals("restclient") || mode.equals("both")) {
			int sizeMb = options.integer("size-mb", 100);
			for (String variant : options.list("variants", "none,interceptor")) {
				table.append(restClient(variant, (long) sizeMb * 1024 * 1024)).append('\n');
			}
		}
		String result = table + "\n" + ResultFiles.environment() + "; max heap: "
				+ Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB\n";
		System.out.print(result);
		String out = options.string("out", "");
		if (!out.isEmpty()) {
			ResultFiles.write(Path.of(out), result);
		}
	}

	private static String webClient(String variant, int calls, int size) throws Exception {
		CountDownLatch arrived = new CountDownLatch(calls);
		CountDownLatch release = new CountDownLatch(1);
		try (LoopbackServer origin = new LoopbackServer(holding(arrived, release))) {
			ConnectionProvider connections = ConnectionProvider.builder("body-heap")
				.maxConnections(calls)
				.pendingAcquireMaxCount(-1)
				.pendingAcquireTimeout(Duration.ofSeconds(60))
				.build();
			WebClient.Builder builder = WebClient.builder()
				.clientConnector(new ReactorClientHttpConnector(HttpClient.create(connections)));
			if (variant.equals("filter") || variant.equals("filter-key")) {
				ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
				builder.filter(new RetryAfterExchangeFilter(clients, RetryListener.NONE,
						new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS)),
						new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER));
			}
			else if (!variant.equals("none")) {
				throw new IllegalArgumentException("Unknown webclient variant " + variant);
			}
			WebClient client = builder.build();
			URI uri = origin.uri("/upload");
			// Warm-up: classes loaded and the pool's first connections made before measuring.
			boolean key = variant.equals("filter-key");
			post(client, uri, size, key).block(Duration.ofSeconds(30));
			long before = usedAfterGc();
			resetPeaks();
			AtomicInteger failed = new AtomicInteger();
			CompletableFuture<Void> all = Flux.range(0, calls)
				.flatMap((i) -> post(client, uri, size, key).onErrorResume((ex) -> Mono.just(-1)).doOnNext((status) -> {
					if (status != 200) {
						failed.incrementAndGet();
					}
				}), calls)
				.then()
				.toFuture();
			boolean allArrived = arrived.await(120, TimeUnit.SECONDS);
			long held = usedAfterGc() - before;
			release.countDown();
			all.get(120, TimeUnit.SECONDS);
			long peak = peakUsed();
			connections.disposeLater().block(Duration.ofSeconds(10));
			int failures = failed.get() + (allArrived ? 0 : 1);
			return row("WebClient", variant, calls, size, held, peak, failures);
		}
	}

	private static Mono<Integer> post(WebClient client, URI uri, int size, boolean idempotencyKey) {
		Flux<DataBuffer> body = Flux.range(0, size / CHUNK.length)
			.map((i) -> DefaultDataBufferFactory.sharedInstance.wrap(CHUNK));
		return client.post()
			.uri(uri)
			.headers((headers) -> {
				if (idempotencyKey) {
					headers.set("Idempotency-Key", UUID.randomUUID().toString());
				}
			})
			.body(BodyInserters.fromDataBuffers(body))
			.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()));
	}

	private static String restClient(String variant, long size) throws Exception {
		CountDownLatch arrived = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory();
		try (LoopbackServer origin = new LoopbackServer(holding(arrived, release))) {
			RestClient.Builder builder = RestClient.builder().requestFactory(factory);
			if (variant.equals("interceptor")) {
				builder.requestInterceptor(
						BenchmarkInterceptors.standalone(ClientSettingsCatalog.of(RetrySettings.defaults()), RetryListener.NONE));
			}
			else if (!variant.equals("none")) {
				throw new IllegalArgumentException("Unknown restclient variant " + variant);
			}
			RestClient client = builder.build();
			URI uri = origin.uri("/upload");
			upload(client, uri, CHUNK.length);
			long before = usedAfterGc();
			resetPeaks();
			CompletableFuture<Integer> call = CompletableFuture.supplyAsync(() -> upload(client, uri, size));
			boolean allArrived = arrived.await(120, TimeUnit.SECONDS);
			long held = usedAfterGc() - before;
			release.countDown();
			int status = call.get(120, TimeUnit.SECONDS);
			long peak = peakUsed();
			int failures = (status != 200 || !allArrived) ? 1 : 0;
			return row("RestClient", variant, 1, size, held, peak, failures);
		}
		finally {
			factory.destroy();
		}
	}

	private static int upload(RestClient client, URI uri, long size) {
		try {
			return client.post().uri(uri).body((OutputStream out) -> {
				for (long written = 0; written < size; written += CHUNK.length) {
					out.write(CHUNK);
				}
			}).retrieve().toBodilessEntity().getStatusCode().value();
		}
		catch (RuntimeException ex) {
			return -1;
		}
	}

	/** Reads each body completely, then answers 200 once every expected request arrived. */
	private static com.sun.net.httpserver.HttpHandler holding(CountDownLatch arrived, CountDownLatch release) {
		AtomicInteger warmUps = new AtomicInteger();
		return (exchange) -> {
			try (exchange; InputStream in = exchange.getRequestBody()) {
				in.transferTo(OutputStream.nullOutputStream());
				// The first request is the warm-up: answered at once.
				if (warmUps.getAndIncrement() > 0) {
					arrived.countDown();
					release.await(180, TimeUnit.SECONDS);
				}
				exchange.sendResponseHeaders(200, -1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (IOException ex) {
				// The client went away: it counts the failure.
			}
		};
	}

	private static long usedAfterGc() throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(200);
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	private static void resetPeaks() {
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP) {
				pool.resetPeakUsage();
			}
		}
	}

	private static long peakUsed() {
		long peak = 0;
		List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
		for (MemoryPoolMXBean pool : pools) {
			if (pool.getType() == MemoryType.HEAP) {
				peak += pool.getPeakUsage().getUsed();
			}
		}
		return peak;
	}

	private static String row(String client, String variant, int requests, long size, long held, long peak,
			int failed) {
		return String.format(Locale.ROOT, "| %s | %s | %d | %s | %.1f MB | %.1f KB | %.0f MB | %d |", client, variant,
				requests, (size >= 1024 * 1024) ? (size / (1024 * 1024)) + " MB" : (size / 1024) + " KB",
				held / (1024.0 * 1024), held / 1024.0 / requests, peak / (1024.0 * 1024), failed);
	}

}
