package dev.retryafter.test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link VirtualWaitScheduler}: a Reactor timer on virtual time fires at once, on another
 * thread, and moves the time on by its delay.
 */
class VirtualWaitSchedulerTests {

	private final VirtualRetryTime time = new VirtualRetryTime();

	private final Scheduler scheduler = new VirtualWaitScheduler(this.time, Schedulers.parallel());

	@Test
	void aDelayOf30SecondsEndsAtOnceAndTheTimeReads30SecondsLater() {
		AtomicReference<Thread> firedOn = new AtomicReference<>();

		Long tick = Mono.delay(Duration.ofSeconds(30), this.scheduler)
			.doOnNext((ignored) -> firedOn.set(Thread.currentThread()))
			.block(Duration.ofSeconds(10));

		assertThat(tick).isZero();
		assertThat(this.time.elapsed()).isEqualTo(Duration.ofSeconds(30));
		assertThat(firedOn.get()).isNotNull().isNotSameAs(Thread.currentThread());
	}

	@Test
	void aWorkersDelayedTaskMovesTheTimeOnToo() throws InterruptedException {
		Scheduler.Worker worker = this.scheduler.createWorker();
		try {
			CountDownLatch ran = new CountDownLatch(1);
			worker.schedule(ran::countDown, 2, TimeUnit.SECONDS);
			assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(this.time.elapsed()).isEqualTo(Duration.ofSeconds(2));
		}
		finally {
			worker.dispose();
		}
	}

	@Test
	void nowIsTheVirtualWallClock() throws InterruptedException {
		long before = this.scheduler.now(TimeUnit.MILLISECONDS);

		this.time.sleeper().sleep(Duration.ofMinutes(1));

		assertThat(this.scheduler.now(TimeUnit.MILLISECONDS) - before).isEqualTo(60_000);
	}

	@Test
	void periodicTasksAreRefused() {
		assertThatExceptionOfType(RejectedExecutionException.class)
			.isThrownBy(() -> this.scheduler.schedulePeriodically(() -> {
			}, 0, 1, TimeUnit.SECONDS));
	}

	@Test
	void disposingItLeavesTheSharedRunnerRunning() {
		this.scheduler.dispose();

		assertThat(Schedulers.parallel().isDisposed()).isFalse();
	}

}
