package dev.retryafter.test;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;

/**
 * The WebClient filter's timers on virtual time: a delayed task moves the time on by its delay
 * and runs at once on the real scheduler underneath, so a wait of 30 seconds takes none and the
 * calls' clocks read 30 seconds later when it ends. Still asynchronous, as a real timer is: the
 * task never runs on the thread that scheduled it.
 */
final class VirtualWaitScheduler implements Scheduler {

	private final VirtualRetryTime time;

	private final Scheduler runner;

	/**
	 * Creates the scheduler.
	 * @param time the time each delay moves on
	 * @param runner where the tasks run, without delay; never disposed by this scheduler
	 */
	VirtualWaitScheduler(VirtualRetryTime time, Scheduler runner) {
		this.time = time;
		this.runner = runner;
	}

	@Override
	public Disposable schedule(Runnable task) {
		return this.runner.schedule(task);
	}

	@Override
	public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
		this.time.advance(Duration.ofNanos(Math.max(0, unit.toNanos(delay))));
		return this.runner.schedule(task);
	}

	/** The filter schedules no periodic task; one here would run without end at no cost. */
	@Override
	public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
		throw new RejectedExecutionException("Virtual time runs no periodic tasks");
	}

	@Override
	public long now(TimeUnit unit) {
		return unit.convert(this.time.wallClock().millis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public Worker createWorker() {
		return new VirtualWorker(this.runner.createWorker());
	}

	/** The runner is shared: disposing this scheduler leaves it running. */
	@Override
	public void dispose() {
	}

	/** A worker of the runner's, whose delayed tasks move the time on as the scheduler's do. */
	private final class VirtualWorker implements Worker {

		private final Worker worker;

		VirtualWorker(Worker worker) {
			this.worker = worker;
		}

		@Override
		public Disposable schedule(Runnable task) {
			return this.worker.schedule(task);
		}

		@Override
		public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
			VirtualWaitScheduler.this.time.advance(Duration.ofNanos(Math.max(0, unit.toNanos(delay))));
			return this.worker.schedule(task);
		}

		@Override
		public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
			throw new RejectedExecutionException("Virtual time runs no periodic tasks");
		}

		@Override
		public void dispose() {
			this.worker.dispose();
		}

		@Override
		public boolean isDisposed() {
			return this.worker.isDisposed();
		}

	}

}
