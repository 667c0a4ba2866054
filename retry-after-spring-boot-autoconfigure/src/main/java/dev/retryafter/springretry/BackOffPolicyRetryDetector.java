package dev.retryafter.springretry;

import dev.retryafter.spi.OuterRetryDetector;
import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.support.RetrySynchronizationManager;

/**
 * Sees a spring-retry template (or {@code @Retryable} interceptor) that backs off with
 * {@link RetryAfterBackOffPolicy} retrying the call on this thread, so the HTTP client
 * interceptor sends a single attempt per template attempt.
 * <p>
 * It reads the thread's current retry context ({@link RetrySynchronizationManager}) and its
 * parents, which a nested template links: when any of them carries
 * {@link RetryAfterBackOffPolicy#RETRYING_ATTRIBUTE}, that template retries the call. A
 * template with another back-off policy leaves no mark and is not seen.
 *
 * @since 0.1.0
 */
public class BackOffPolicyRetryDetector implements OuterRetryDetector {

	/** Guards against a parent chain that loops; real nesting is a few levels deep. */
	private static final int MAX_DEPTH = 16;

	/**
	 * Whether a template backing off with {@link RetryAfterBackOffPolicy} is retrying on this
	 * thread.
	 * @return {@code true} if the current retry context, or one of its parents, is marked
	 */
	@Override
	public boolean isOuterRetryActive() {
		@Nullable RetryContext context = RetrySynchronizationManager.getContext();
		for (int depth = 0; context != null && depth < MAX_DEPTH; depth++) {
			if (context.hasAttribute(RetryAfterBackOffPolicy.RETRYING_ATTRIBUTE)) {
				return true;
			}
			context = context.getParent();
		}
		return false;
	}

}
