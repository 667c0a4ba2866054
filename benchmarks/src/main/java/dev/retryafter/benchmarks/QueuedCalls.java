package dev.retryafter.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed amount of work from one queue: caller threads take the next call number as each of
 * theirs ends, so a thread held or slowed down takes fewer calls and the others more, as a
 * worker pool in front of a rate-limited API does. A call not finished by the cut-off counts
 * as failed, and so does one that threw (printed on standard error).
 *
 * @param statuses each call's final status, 0 for one never made or never finished
 * @param millis each call's duration, retries and waits included
 * @param seconds the time from start until the last thread ended
 */
record QueuedCalls(int[] statuses, double[] millis, double seconds) {

	/** Makes call number {@code call} on caller thread number {@code thread}. */
	@FunctionalInterface
	interface Call {

		int make(int thread, int call);

	}

	/**
	 * Runs the calls.
	 * @param calls how many calls
	 * @param threads caller threads
	 * @param cutOffMillis how long to wait at most; unfinished threads are interrupted
	 * @param call makes one call and returns its final status
	 * @return the outcome
	 * @throws InterruptedException if interrupted
	 */
	static QueuedCalls run(int calls, int threads, long cutOffMillis, Call call) throws InterruptedException {
		int[] statuses = new int[calls];
		double[] millis = new double[calls];
		AtomicInteger next = new AtomicInteger();
		List<Thread> workers = new ArrayList<>(threads);
		long start = System.nanoTime();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			Thread worker = new Thread(() -> {
				for (int i = next.getAndIncrement(); i < calls
						&& !Thread.currentThread().isInterrupted(); i = next.getAndIncrement()) {
					long began = System.nanoTime();
					try {
						statuses[i] = call.make(thread, i);
					}
					catch (RuntimeException ex) {
						// Failed, and told: a thread that died here hid what failed the call.
						System.err.println("call " + i + " threw " + ex);
					}
					millis[i] = (System.nanoTime() - began) / 1e6;
				}
			}, "worker-" + t);
			worker.setDaemon(true);
			worker.start();
			workers.add(worker);
		}
		long deadline = start + TimeUnit.MILLISECONDS.toNanos(cutOffMillis);
		for (Thread worker : workers) {
			long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
			if (left > 0) {
				worker.join(left);
			}
			worker.interrupt();
		}
		return new QueuedCalls(statuses, millis, (System.nanoTime() - start) / 1e9);
	}

	/**
	 * How many calls ended with a {@code 200}.
	 * @return the count
	 */
	int succeeded() {
		return (int) Arrays.stream(this.statuses).filter((status) -> status == 200).count();
	}

	/**
	 * A percentile of the call durations.
	 * @param p the percentile, 0 to 100
	 * @return milliseconds
	 */
	double percentileMillis(double p) {
		double[] sorted = this.millis.clone();
		Arrays.sort(sorted);
		return Stats.percentile(sorted, p);
	}

	/**
	 * Requests sent per call that succeeded.
	 * @param sent requests the origin received
	 * @param succeeded calls that succeeded
	 * @return the ratio, NaN when none succeeded
	 */
	static double sentPerSuccess(int sent, int succeeded) {
		return (succeeded > 0) ? (double) sent / succeeded : Double.NaN;
	}

}
