package dev.retryafter.frameworkretry;

import org.jspecify.annotations.Nullable;

import org.springframework.core.task.TaskDecorator;

/**
 * Carries the invocation a Spring Framework retry layer drives (a {@code @Retryable} method,
 * a {@link RetryAfterRetryTemplate}) to the thread a task submitted during one of its
 * attempts runs on, so that an HTTP call made there is one layer with it too: the
 * interceptor sends one attempt and hands the failure back, instead of retrying inside each
 * outer attempt (three times three requests).
 * <p>
 * Spring Boot applies every {@code TaskDecorator} bean to the executors it builds (the
 * {@code applicationTaskExecutor}, and any built with its {@code ThreadPoolTaskExecutorBuilder}
 * or {@code SimpleAsyncTaskExecutorBuilder}), composed with the application's own. An executor
 * built without them (a bare {@code ForkJoinPool.commonPool()}, as
 * {@code CompletableFuture.supplyAsync(supplier)} uses, or {@code Executors.new...}) is not
 * seen: there the client adapter keeps its own retries. A task that starts after the attempt
 * ended is not bound either: no one would retry what it handed back.
 *
 * @since 0.3.0
 */
public class RetriedInvocationTaskDecorator implements TaskDecorator {

	@Override
	public Runnable decorate(Runnable runnable) {
		FrameworkRetryDetector.Binding binding = FrameworkRetryDetector.binding();
		if (binding == null) {
			return runnable;
		}
		return () -> {
			FrameworkRetryDetector.@Nullable Scope scope = binding.carry();
			if (scope == null) {
				runnable.run();
				return;
			}
			try (scope) {
				runnable.run();
			}
		};
	}

}
