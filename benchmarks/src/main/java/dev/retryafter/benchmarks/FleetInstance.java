package dev.retryafter.benchmarks;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.metrics.RetryAfterMetrics;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.store.RedisCooldownStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One instance of a fleet, in a JVM of its own, started by {@link FleetBenchmark}: its
 * callers share one interceptor (default settings), one retry budget and one cooldown store,
 * local or on the fleet's Redis, as an application's instance does. It waits until its
 * Redis store is connected and for the fleet's start instant (failing when it is ready only
 * after it), makes its calls, and prints one line the parent reads:
 * {@code FLEET ok=<n> failed=<n> end=<epoch ms> held=<n>}.
 * <p>
 * With {@code --client} set to a peer's key ({@link Contender}: {@code hc5},
 * {@code resilience4j}, {@code spring-retry}) its callers share that peer's own client
 * instead, which keeps nothing of the fleet's; the store is then not used and the line's
 * store figures are 0.
 * <p>
 * Options: {@code --origin=<uri prefix> --callers=4 --calls=40 --client=ours
 * --store=local|redis --redis-port=<port> --start-at=<epoch ms>}.
 */
public final class FleetInstance {

	private static final long RUN_TIMEOUT_MILLIS = 120_000;

	private static final long CONNECT_TIMEOUT_NANOS = 20_000_000_000L;

	private FleetInstance() {
	}

	/**
	 * Runs the instance.
	 * @param args see the class description
	 * @throws Exception if the store cannot be started
	 */
	// The requests held, by what held them, and the seconds they were held: reason:count:seconds,...
	private static String holds(SimpleMeterRegistry registry) {
		java.util.Map<String, double[]> byReason = new java.util.TreeMap<>();
		registry.find(RetryAfterMetrics.COOLDOWN_HELD).timers().forEach((timer) -> {
			double[] sums = byReason.computeIfAbsent(String.valueOf(timer.getId().getTag("reason")),
					(reason) -> new double[2]);
			sums[0] += timer.count();
			sums[1] += timer.totalTime(java.util.concurrent.TimeUnit.SECONDS);
		});
		StringBuilder holds = new StringBuilder();
		byReason.forEach((reason, sums) -> holds.append((holds.length() > 0) ? "," : "")
			.append(reason).append(':').append((long) sums[0]).append(':').append(String.format("%.1f", sums[1])));
		// The calls given up, by why, after the holds: a failed call's reason is what to mend.
		java.util.Map<String, Long> abandoned = new java.util.TreeMap<>();
		registry.find(RetryAfterMetrics.ABANDONED).counters().forEach((counter) -> abandoned
			.merge(String.valueOf(counter.getId().getTag("reason")), (long) counter.count(), Long::sum));
		abandoned.forEach((reason, count) -> holds.append((holds.length() > 0) ? "," : "")
			.append("abandoned-").append(reason).append(':').append(count));
		return (holds.length() > 0) ? holds.toString() : "none";
	}

	// What the paced requests' fleet slots cost (quota and learned-pace slots alike): how many
	// took one, how many fell back to a local share, and the round trip the script added (p50, p99, in microseconds).
	private static String quota(CooldownStore store) {
		if (!(store instanceof RedisCooldownStore shared)) {
			return " slots=0 fallbacks=0 p50us=0 p99us=0";
		}
		return " slots=" + (shared.quotaSlots().takenCount() + shared.learnedSlots().takenCount()) + " fallbacks="
				+ (shared.quotaFallbackCount() + shared.pacingFallbackCount()) + " p50us="
				+ shared.quotaSlots().roundTrip(0.5).toNanos() / 1000 + " p99us="
				+ shared.quotaSlots().roundTrip(0.99).toNanos() / 1000;
	}

	// A fleet's instances have long been connected when a quota runs low; one that is not yet
	// (a cold JVM takes a second or two) paces by its local share, which is not what this
	// measures. The parent's start instant leaves room for it; an instance that cannot connect
	// fails the run instead of measuring local shares.
	private static void awaitConnected(RedisCooldownStore store) throws InterruptedException {
		long started = System.nanoTime();
		while (!store.state().connected()) {
			if (System.nanoTime() - started > CONNECT_TIMEOUT_NANOS) {
				throw new IllegalStateException("The Redis store did not connect within 20 s");
			}
			Thread.sleep(5);
		}
	}

	// A store on Redis through the factory, started and connected, or a local one without it.
	private static CooldownStore store(LettuceConnectionFactory factory, String prefix) throws InterruptedException {
		if (factory == null) {
			return new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS));
		}
		RedisCooldownStore shared = new RedisCooldownStore(factory,
				new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS), prefix);
		shared.start();
		awaitConnected(shared);
		return shared;
	}

	private static RetryAfterInterceptor interceptor(ClientSettingsCatalog clients, SimpleMeterRegistry registry,
			CooldownStore store) {
		return new RetryAfterInterceptor(clients, new RetryAfterMetrics(registry), store,
				new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER);
	}

	// A fleet's instances have made calls long before a quota runs low. A cold JVM's first
	// calls here take some 550 ms more (class loading, the first compilations): slots of the
	// first window that a running fleet would not lose. The warm-up calls an origin of its
	// own, a fixed window of two requests per caller a second in the draft's form, so the
	// paced path and its round trips to Redis run too.
	private static void warmUp(Caller caller, int callers, long millis) throws Exception {
		try (DialectOrigin origin = new DialectOrigin(DialectOrigin.Dialect.IETF, 2 * callers, 1)) {
			String prefix = FleetBenchmark.prefix(origin.uri(0));
			QueuedCalls.run(callers * 1000, callers, millis, (thread, call) -> caller.get(URI.create(prefix + call)));
		}
	}

	// Every instance, ours or a peer's, starts at the fleet's instant and is cut off alike;
	// a call not finished by then counts as failed.
	private static QueuedCalls fromStart(Caller caller, String origin, int callers, int calls, long startAt)
			throws InterruptedException {
		long wait = startAt - System.currentTimeMillis();
		if (wait <= 0) {
			// Late: the run would measure a fleet that does not start together.
			throw new IllegalStateException("Ready " + -wait + " ms after the fleet's start instant");
		}
		Thread.sleep(wait);
		return QueuedCalls.run(calls, callers, RUN_TIMEOUT_MILLIS,
				(thread, call) -> caller.get(URI.create(origin + call)));
	}

	private static String line(QueuedCalls done, int calls, long end, long held) {
		return "FLEET ok=" + done.succeeded() + " failed=" + (calls - done.succeeded()) + " end=" + end + " held="
				+ held;
	}

	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		String origin = options.string("origin", "");
		int callers = options.integer("callers", 4);
		int calls = options.integer("calls", 40);
		String storeName = options.string("store", "local");
		long startAt = Long.parseLong(options.string("start-at", "0"));
		String client = options.string("client", "ours");
		long warmUpMillis = options.integer("warm-up-ms", 0);
		if (!client.equals("ours")) {
			Contender peer = Contender.select(List.of(client)).get(0);
			if (warmUpMillis > 0) {
				try (Caller warm = peer.open(callers)) {
					warmUp(warm, callers, warmUpMillis);
				}
			}
			try (Caller caller = peer.open(callers)) {
				QueuedCalls done = fromStart(caller, origin, callers, calls, startAt);
				long end = System.currentTimeMillis();
				// A peer keeps no store: nothing held by it, no fleet slots.
				System.out.println(line(done, calls, end, 0) + quota(null) + " holds=none");
			}
			return;
		}
		LettuceConnectionFactory factory = null;
		if (storeName.equals("redis")) {
			factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", options.integer("redis-port", 6379)),
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
			factory.afterPropertiesSet();
			factory.start();
		}
		CooldownStore store = store(factory, "retry-after:fleet:");
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		if (warmUpMillis > 0) {
			// A store, meters and client of their own: the run's counts are the run's alone.
			CooldownStore warmStore = store(factory, "retry-after:fleet-warm-up:");
			try (Caller warm = Contender.intercepted(interceptor(clients, new SimpleMeterRegistry(), warmStore),
					callers)) {
				warmUp(warm, callers, warmUpMillis);
			}
			finally {
				if (warmStore instanceof RedisCooldownStore shared) {
					shared.close();
				}
			}
		}
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (Caller caller = Contender.intercepted(interceptor(clients, registry, store), callers)) {
			QueuedCalls done = fromStart(caller, origin, callers, calls, startAt);
			long end = System.currentTimeMillis();
			long held = registry.find(RetryAfterMetrics.COOLDOWN_HELD)
				.timers()
				.stream()
				.mapToLong((timer) -> timer.count())
				.sum();
			System.out.println(line(done, calls, end, held) + quota(store) + " holds=" + holds(registry));
		}
		finally {
			if (store instanceof RedisCooldownStore shared) {
				shared.close();
			}
			if (factory != null) {
				factory.destroy();
			}
		}
	}

}
