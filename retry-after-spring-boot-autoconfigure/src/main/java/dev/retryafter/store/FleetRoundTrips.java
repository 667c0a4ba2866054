package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The bounded round trips a paced first attempt makes to Redis for a slot of the fleet's
 * ({@link FleetQuotaSlots}, {@link FleetLearnedSlots}): one script on a small pool of their
 * own, its answer waited for 50 ms at most, and the time each took kept for the quantiles the
 * benchmarks report.
 * <p>
 * Why a pool: the calling thread must be able to stop waiting, whatever the connection does;
 * a command timeout would hold it for the connection factory's timeout, a second or more.
 */
final class FleetRoundTrips implements AutoCloseable {

	/**
	 * How each slot script starts: {@code now} from Redis's clock in microseconds, and its key
	 * dropped when something that is not a hash was planted under its name.
	 */
	static final String SCRIPT_PREAMBLE = """
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
			local kind = redis.call('TYPE', KEYS[1])['ok']
			if kind ~= 'hash' and kind ~= 'none' then
			  redis.call('DEL', KEYS[1])
			end
			""";

	/** How long a paced request waits for Redis's answer at most. */
	static final Duration ROUND_TRIP_BOUND = Duration.ofMillis(50);

	/**
	 * Room for the error of this instance's estimate of Redis's clock: half the round trip that
	 * read it, which a busy JVM may stretch.
	 */
	private static final long DEADLINE_SLACK_NANOS = 100_000_000;

	private static final int THREADS = 2;

	private static final int QUEUED = 64;

	private static final int ROUND_TRIPS_KEPT = 16_384;

	private final RedisLink link;

	private final BooleanSupplier connected;

	private final long boundNanos;

	private final ThreadPoolExecutor pool;

	private final long[] roundTrips = new long[ROUND_TRIPS_KEPT];

	private long roundTripCount;

	FleetRoundTrips(RedisLink link, BooleanSupplier connected, Duration bound, String threadName) {
		this.link = Objects.requireNonNull(link, "link");
		this.connected = Objects.requireNonNull(connected, "connected");
		this.boundNanos = bound.toNanos();
		this.pool = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED),
				RedisLink.daemon(threadName));
		this.pool.allowCoreThreadTimeOut(true);
	}

	/**
	 * Loads the scripts ({@code SCRIPT LOAD}, no key written) and the pool's thread before a
	 * request needs them, in the background: the first slot then costs one round trip, not a
	 * {@code NOSCRIPT} reply and a second one. Never fails; a Redis that is down only leaves
	 * the first slot slower.
	 */
	void warmUp(List<RedisScript<?>> scripts) {
		try {
			this.pool.execute(() -> {
				for (RedisScript<?> script : scripts) {
					try {
						this.link.redis()
							.execute((RedisCallback<String>) (connection) -> connection.scriptingCommands()
								.scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8)));
					}
					catch (RuntimeException ex) {
						// Down or refusing scripts: the first slot finds out, within its bound.
					}
				}
			});
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	/**
	 * Runs {@code script} on {@code key} and waits for its answer within the bound.
	 * @param script the script, answering a list
	 * @param key its one key
	 * @param args its arguments, given when its caller stops waiting by Redis's clock as this
	 * instance estimates it (microseconds, or {@code "0"} when not known): a script Redis runs
	 * later takes no slot, since nobody would use it
	 * @return the answer, or {@code null} when not connected, slower than the bound, failed,
	 * interrupted (the flag is kept) or too many were waiting
	 */
	@Nullable List<?> call(RedisScript<List> script, String key, Function<String, String[]> args) {
		if (!this.connected.getAsBoolean()) {
			return null;
		}
		long started = System.nanoTime();
		long giveUp = this.link.redisClock().at(started + this.boundNanos + DEADLINE_SLACK_NANOS);
		String deadline = (giveUp != RedisClock.UNKNOWN) ? Long.toString(giveUp * 1000) : "0";
		Object[] argv = args.apply(deadline);
		Future<List> answer;
		try {
			answer = this.pool.submit(() -> this.link.redis().execute(script, List.of(key), argv));
		}
		catch (RejectedExecutionException ex) {
			return null;
		}
		List<?> reply;
		try {
			reply = answer.get(this.boundNanos, TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			answer.cancel(true);
			Thread.currentThread().interrupt();
			return null;
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			answer.cancel(true);
			return null;
		}
		recordRoundTrip(System.nanoTime() - started);
		return reply;
	}

	/**
	 * Runs {@code script} on {@code key} in the background, waited for by nobody: a note for
	 * the fleet that a request's path must not pay for. Not connected, or too many waiting:
	 * not sent; a failure is dropped (the next slot a request takes carries the same note).
	 * @param script the script
	 * @param key its one key
	 * @param args its arguments, made when it runs
	 */
	void send(RedisScript<?> script, String key, Supplier<String[]> args) {
		if (!this.connected.getAsBoolean()) {
			return;
		}
		try {
			this.pool.execute(() -> {
				try {
					this.link.redis().execute(script, List.of(key), (Object[]) args.get());
				}
				catch (RuntimeException ex) {
					// Down or failing: the note is lost, the fleet's next slot carries it.
				}
			});
		}
		catch (RejectedExecutionException ex) {
			// Too many waiting, or closed.
		}
	}

	private synchronized void recordRoundTrip(long nanos) {
		this.roundTrips[(int) (this.roundTripCount++ % ROUND_TRIPS_KEPT)] = nanos;
	}

	/**
	 * A quantile of the round trips waited for (the last 16,384), measured from handing the
	 * script over to reading its answer.
	 * @param quantile between 0 and 1
	 * @return the round trip, or {@link Duration#ZERO} when none was made
	 */
	synchronized Duration quantile(double quantile) {
		int count = (int) Math.min(this.roundTripCount, ROUND_TRIPS_KEPT);
		if (count == 0) {
			return Duration.ZERO;
		}
		long[] sorted = Arrays.copyOf(this.roundTrips, count);
		Arrays.sort(sorted);
		int index = (int) Math.min(count - 1, Math.max(0, Math.ceil(quantile * count) - 1));
		return Duration.ofNanos(sorted[index]);
	}

	@Override
	public void close() {
		this.pool.shutdownNow();
	}

	/** Microseconds, never negative: what the scripts take. */
	static long micros(long nanos) {
		return Math.max(0, nanos / 1000);
	}

}
