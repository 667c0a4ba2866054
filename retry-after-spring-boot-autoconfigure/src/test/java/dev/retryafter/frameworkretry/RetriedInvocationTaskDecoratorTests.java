package dev.retryafter.frameworkretry;

import java.util.concurrent.atomic.AtomicReference;

import dev.retryafter.spi.RetriedInvocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RetriedInvocationTaskDecorator} binds the invocation for a task submitted during an
 * attempt, and only while that attempt runs.
 */
class RetriedInvocationTaskDecoratorTests {

	private final RetriedInvocationTaskDecorator decorator = new RetriedInvocationTaskDecorator();

	@Test
	void whenATaskIsSubmittedDuringAnAttemptThenItRunsWithTheInvocationBound() throws Exception {
		RetriedInvocation invocation = new RetriedInvocation(0);
		AtomicReference<RetriedInvocation> seen = new AtomicReference<>();
		Runnable task;
		try (FrameworkRetryDetector.Scope scope = FrameworkRetryDetector.bind(invocation)) {
			task = this.decorator.decorate(() -> seen.set(FrameworkRetryDetector.current()));
			runOnAnotherThread(task);
		}

		assertThat(seen.get()).isSameAs(invocation);
	}

	@Test
	void whenTheTaskStartsAfterTheAttemptEndedThenNothingIsBound() throws Exception {
		AtomicReference<Object> seen = new AtomicReference<>("not run");
		Runnable task;
		try (FrameworkRetryDetector.Scope scope = FrameworkRetryDetector.bind(new RetriedInvocation(0))) {
			task = this.decorator.decorate(() -> seen.set(FrameworkRetryDetector.current()));
		}

		runOnAnotherThread(task);

		assertThat(seen.get()).isNull();
	}

	@Test
	void whenNoInvocationIsBoundThenTheTaskIsLeftAsItIs() {
		Runnable task = () -> {
		};

		assertThat(this.decorator.decorate(task)).isSameAs(task);
	}

	@Test
	void whenTheTaskEndsThenTheWorkerThreadHasNothingBound() throws Exception {
		AtomicReference<Object> after = new AtomicReference<>("not run");
		Runnable task;
		try (FrameworkRetryDetector.Scope scope = FrameworkRetryDetector.bind(new RetriedInvocation(0))) {
			task = this.decorator.decorate(() -> {
			});
			Thread worker = new Thread(() -> {
				task.run();
				after.set(FrameworkRetryDetector.current());
			});
			worker.start();
			worker.join();
		}

		assertThat(after.get()).isNull();
	}

	private static void runOnAnotherThread(Runnable task) throws InterruptedException {
		Thread worker = new Thread(task);
		worker.start();
		worker.join();
	}

}
