package dev.retryafter.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * Groups of caller threads, each thread making its share of a group's calls one after the
 * other, all groups released together. Records each call's final status and duration; a call
 * not finished by the cut-off counts as failed.
 */
final class Workers {

	private final List<Group> groups = new ArrayList<>();

	/**
	 * Adds a group.
	 * @param threads caller threads of the group
	 * @param callsPerThread calls each thread makes, one after the other
	 * @param call makes call number {@code i} of the group and returns its final status
	 * @return the group, whose results are filled in by {@link #run(long)}
	 */
	Group add(int threads, int callsPerThread, IntUnaryOperator call) {
		Group group = new Group(threads, callsPerThread, call);
		this.groups.add(group);
		return group;
	}

	/**
	 * Releases every group's threads together and waits for them.
	 * @param cutOffMillis how long to wait at most; unfinished threads are interrupted
	 * @return the time from release until the last thread ended, seconds
	 * @throws InterruptedException if interrupted
	 */
	double run(long cutOffMillis) throws InterruptedException {
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (Group group : this.groups) {
			threads.addAll(group.start(go));
		}
		long start = System.nanoTime();
		go.countDown();
		long deadline = start + TimeUnit.MILLISECONDS.toNanos(cutOffMillis);
		for (Thread thread : threads) {
			long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
			if (left > 0) {
				thread.join(left);
			}
			thread.interrupt();
		}
		return (System.nanoTime() - start) / 1e9;
	}

	/**
	 * One group's calls and their outcomes.
	 */
	static final class Group {

		private final int threads;

		private final int callsPerThread;

		private final IntUnaryOperator call;

		private final int[] statuses;

		private final double[] millis;

		private Group(int threads, int callsPerThread, IntUnaryOperator call) {
			this.threads = threads;
			this.callsPerThread = callsPerThread;
			this.call = call;
			this.statuses = new int[threads * callsPerThread];
			this.millis = new double[threads * callsPerThread];
			Arrays.fill(this.statuses, -1);
			Arrays.fill(this.millis, Double.NaN);
		}

		private List<Thread> start(CountDownLatch go) {
			List<Thread> started = new ArrayList<>(this.threads);
			for (int t = 0; t < this.threads; t++) {
				int first = t * this.callsPerThread;
				Thread thread = new Thread(() -> {
					try {
						go.await();
					}
					catch (InterruptedException ex) {
						return;
					}
					int end = first + this.callsPerThread;
					for (int i = first; i < end && !Thread.currentThread().isInterrupted(); i++) {
						long began = System.nanoTime();
						int status = this.call.applyAsInt(i);
						this.millis[i] = (System.nanoTime() - began) / 1e6;
						this.statuses[i] = status;
					}
				}, "worker-" + t);
				thread.setDaemon(true);
				thread.start();
				started.add(thread);
			}
			return started;
		}

		int calls() {
			return this.statuses.length;
		}

		/** Calls that did not end in 200, unfinished ones included. */
		int failed() {
			return (int) Arrays.stream(this.statuses).filter((status) -> status != 200).count();
		}

		/**
		 * Durations of the finished calls that {@code include} accepts, ascending, ms.
		 * @param include which calls, by index
		 * @return the sorted durations
		 */
		double[] sortedMillis(IntPredicate include) {
			List<Double> selected = new ArrayList<>();
			for (int i = 0; i < this.millis.length; i++) {
				if (!Double.isNaN(this.millis[i]) && include.test(i)) {
					selected.add(this.millis[i]);
				}
			}
			return selected.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		}

	}

}
