package dev.retryafter.frameworkretry;

import dev.retryafter.call.OuterRetryDetector;
import dev.retryafter.call.RetriedInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Sees a blocking invocation that Spring Framework's retry drives on this thread (a
 * {@code @Retryable} method under {@link RetriedMethodInterceptor}, or a
 * {@link RetryAfterRetryTemplate}), so that the HTTP client interceptor sends one attempt
 * per invocation attempt and tells the invocation the {@code Retry-After} instant of what it
 * hands back.
 * <p>
 * The invocation is bound to the thread for exactly the time the outer layer runs an
 * attempt ({@link #bind}), and the previous binding is restored afterwards, so nested
 * invocations each see their own and nothing leaks to later calls on the thread.
 *
 * @since 0.1.0
 */
public final class FrameworkRetryDetector implements OuterRetryDetector {

	private static final ThreadLocal<@Nullable RetriedInvocation> CURRENT = new ThreadLocal<>();

	@Override
	public boolean isOuterRetryActive() {
		return CURRENT.get() != null;
	}

	@Override
	public @Nullable RetriedInvocation invocation() {
		return CURRENT.get();
	}

	/**
	 * The invocation bound to the calling thread, if any.
	 * @return the invocation, or {@code null}
	 */
	static @Nullable RetriedInvocation current() {
		return CURRENT.get();
	}

	/**
	 * Binds an invocation to the calling thread until the returned scope is closed.
	 * @param invocation the invocation
	 * @return the scope, which restores the previous binding when closed
	 */
	static Scope bind(RetriedInvocation invocation) {
		RetriedInvocation previous = CURRENT.get();
		CURRENT.set(invocation);
		return new Scope(previous);
	}

	/**
	 * A binding of an invocation to the thread; closing it restores the one before.
	 */
	static final class Scope implements AutoCloseable {

		private final @Nullable RetriedInvocation previous;

		private Scope(@Nullable RetriedInvocation previous) {
			this.previous = previous;
		}

		@Override
		public void close() {
			if (this.previous != null) {
				CURRENT.set(this.previous);
			}
			else {
				CURRENT.remove();
			}
		}

	}

}
