package dev.retryafter.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Watches the two instances of a {@link FailoverRun} and the replica on a thread of its own,
 * every {@value #INTERVAL_MILLIS} ms: what each instance's {@code /actuator/retryafter} says
 * ({@code store.connected} and the partitions of the origin's cooldowns it holds), and whether
 * the replica is master yet. The instances are read before the replica, so a sample that finds
 * the replica still a replica proves that there was no master when the instances answered.
 */
final class FailoverMonitor implements AutoCloseable {

	private static final long INTERVAL_MILLIS = 50;

	/** What one instance said at one moment. */
	record Reading(long nanos, boolean connected, Set<String> partitions) {
	}

	/** One round: each instance's reading, then whether the replica was master. */
	record Sample(List<Reading> readings, boolean promoted) {
	}

	private final List<SampleAppProcess> instances;

	private final SentinelGroup group;

	private final String origin;

	private final List<Sample> samples = new ArrayList<>();

	private final Thread thread;

	private volatile boolean stopped;

	private volatile String failure;

	FailoverMonitor(List<SampleAppProcess> instances, SentinelGroup group, String origin) {
		this.instances = instances;
		this.group = group;
		this.origin = origin;
		this.thread = new Thread(this::watch, "failover-monitor");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Every sample taken so far.
	 * @return a copy
	 */
	synchronized List<Sample> samples() {
		return List.copyOf(this.samples);
	}

	/**
	 * Waits for a sample that satisfies the condition, taken after {@code sinceNanos}.
	 * @return that sample, or {@code null} if none came within the timeout
	 */
	Sample await(long sinceNanos, Predicate<Sample> condition, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		int next = 0;
		while (System.nanoTime() - deadline < 0) {
			List<Sample> taken = samples();
			for (; next < taken.size(); next++) {
				Sample sample = taken.get(next);
				if (sample.readings().get(0).nanos() - sinceNanos >= 0 && condition.test(sample)) {
					return sample;
				}
			}
			if (this.failure != null) {
				throw new IllegalStateException("The monitor stopped: " + this.failure);
			}
			Thread.sleep(INTERVAL_MILLIS / 2);
		}
		return null;
	}

	/**
	 * Waits until an instance lists a partition, as in {@link #await}.
	 * @return when the first sample that lists it read that instance, or {@code -1}
	 */
	long awaitPartition(int instance, String partition, long sinceNanos, Duration timeout)
			throws InterruptedException {
		Sample seen = await(sinceNanos,
				(sample) -> sample.readings().get(instance).partitions().contains(partition), timeout);
		return (seen != null) ? seen.readings().get(instance).nanos() : -1;
	}

	@Override
	public void close() throws InterruptedException {
		this.stopped = true;
		this.thread.interrupt();
		this.thread.join(10_000);
	}

	// A sentinel closes every normal client of a server it promotes or reconfigures (CLIENT
	// KILL TYPE normal), so that clients find the new master: a ROLE poll that meets it is
	// asked again, not taken for a failed run.
	private boolean promoted() throws InterruptedException {
		IllegalStateException last = null;
		for (int attempt = 0; attempt < 3; attempt++) {
			try {
				return this.group.isMaster(this.group.replica());
			}
			catch (IllegalStateException ex) {
				last = ex;
				Thread.sleep(INTERVAL_MILLIS);
			}
		}
		throw last;
	}

	private void watch() {
		while (!this.stopped) {
			try {
				List<Reading> readings = new ArrayList<>();
				for (SampleAppProcess instance : this.instances) {
					long nanos = System.nanoTime();
					Map<String, Object> endpoint = instance.endpoint();
					readings.add(new Reading(nanos, SampleAppProcess.connected(endpoint),
							SampleAppProcess.partitions(endpoint, this.origin)));
				}
				boolean promoted = promoted();
				synchronized (this) {
					this.samples.add(new Sample(List.copyOf(readings), promoted));
				}
				Thread.sleep(INTERVAL_MILLIS);
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (IOException | RuntimeException ex) {
				if (!this.stopped) {
					this.failure = ex.toString();
				}
				return;
			}
		}
	}

}
