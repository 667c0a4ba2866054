package dev.retryafter.springretry;

import dev.retryafter.core.RetrySettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.retry.RetryContext;
import org.springframework.retry.context.RetryContextSupport;
import org.springframework.retry.support.RetrySynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BackOffPolicyRetryDetector}: it reads the thread's spring-retry context,
 * marked by {@link RetryAfterBackOffPolicy#start}.
 */
class BackOffPolicyRetryDetectorTests {

	private final BackOffPolicyRetryDetector detector = new BackOffPolicyRetryDetector();

	@AfterEach
	void clearContexts() {
		// Clearing a context restores its parent: one without a parent leaves the thread clean,
		// whatever chain (even a looping one) a test registered.
		RetrySynchronizationManager.register(new RetryContextSupport(null));
		RetrySynchronizationManager.clear();
	}

	@Test
	void whenNoRetryContextIsOnTheThreadThenNoOuterRetry() {
		assertThat(this.detector.isOuterRetryActive()).isFalse();
	}

	@Test
	void whenTheCurrentContextWasStartedByThePolicyThenOuterRetry() {
		RetryContext context = new RetryContextSupport(null);
		new RetryAfterBackOffPolicy(RetrySettings.defaults()).start(context);
		RetrySynchronizationManager.register(context);

		assertThat(context.getAttribute(RetryAfterBackOffPolicy.RETRYING_ATTRIBUTE)).isEqualTo(Boolean.TRUE);
		assertThat(this.detector.isOuterRetryActive()).isTrue();
	}

	@Test
	void whenTheCurrentContextBelongsToAnotherBackOffPolicyThenNoOuterRetry() {
		RetrySynchronizationManager.register(new RetryContextSupport(null));

		assertThat(this.detector.isOuterRetryActive()).isFalse();
	}

	@Test
	void whenAnEnclosingContextWasStartedByThePolicyThenOuterRetry() {
		RetryContext outer = new RetryContextSupport(null);
		new RetryAfterBackOffPolicy(RetrySettings.defaults()).start(outer);
		RetrySynchronizationManager.register(outer);
		RetrySynchronizationManager.register(new RetryContextSupport(new RetryContextSupport(outer)));

		assertThat(this.detector.isOuterRetryActive()).isTrue();
	}

	@Test
	void whenTheMarkedContextIsClearedThenNoOuterRetry() {
		RetryContext context = new RetryContextSupport(null);
		new RetryAfterBackOffPolicy(RetrySettings.defaults()).start(context);
		RetrySynchronizationManager.register(context);
		RetrySynchronizationManager.clear();

		assertThat(this.detector.isOuterRetryActive()).isFalse();
	}

	@Test
	void whenParentsLoopThenTheWalkEndsWithoutOuterRetry() {
		LoopingContext looping = new LoopingContext();
		RetrySynchronizationManager.register(looping);

		assertThat(this.detector.isOuterRetryActive()).isFalse();
		assertThat(looping.parentCalls).isEqualTo(16);
	}

	/**
	 * A context that is its own parent: a broken chain must not hang the caller.
	 */
	private static final class LoopingContext extends RetryContextSupport {

		private int parentCalls;

		LoopingContext() {
			super(null);
		}

		@Override
		public RetryContext getParent() {
			this.parentCalls++;
			return this;
		}

	}

}
