package dev.retryafter.frameworkretry;

import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.spi.RetriedInvocation;
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
 * invocations each see their own and nothing leaks to later calls on the thread. Work the
 * attempt hands to an executor that Boot configures is bound there too, while the attempt
 * runs ({@link RetriedInvocationTaskDecorator}).
 *
 * @since 0.1.0
 */
public final class FrameworkRetryDetector implements OuterRetryDetector {

	private static final ThreadLocal<@Nullable Binding> CURRENT = new ThreadLocal<>();

	@Override
	public boolean isOuterRetryActive() {
		return CURRENT.get() != null;
	}

	@Override
	public @Nullable RetriedInvocation invocation() {
		return current();
	}

	/**
	 * The invocation bound to the calling thread, if any.
	 * @return the invocation, or {@code null}
	 */
	static @Nullable RetriedInvocation current() {
		Binding binding = CURRENT.get();
		return (binding != null) ? binding.invocation : null;
	}

	/**
	 * The binding of the calling thread, for work it hands to another thread
	 * ({@link RetriedInvocationTaskDecorator}).
	 * @return the binding, or {@code null}
	 */
	static @Nullable Binding binding() {
		return CURRENT.get();
	}

	/**
	 * Sets the calling thread's binding, for context propagation
	 * ({@link RetriedInvocationThreadLocalAccessor}), which restores the previous one itself.
	 * @param binding the binding, or {@code null} to clear it
	 */
	static void set(@Nullable Binding binding) {
		if (binding != null) {
			CURRENT.set(binding);
		}
		else {
			CURRENT.remove();
		}
	}

	/**
	 * Binds an invocation to the calling thread until the returned scope is closed.
	 * @param invocation the invocation
	 * @return the scope, which restores the previous binding when closed
	 */
	static Scope bind(RetriedInvocation invocation) {
		Binding binding = new Binding(invocation);
		return new Scope(binding, CURRENT.get(), true);
	}

	/**
	 * One attempt's binding of an invocation: open while the outer layer's attempt runs, so
	 * that work handed to another thread during it is seen, and work that starts after the
	 * attempt ended (nobody would retry what it hands back) is not.
	 */
	static final class Binding {

		private final RetriedInvocation invocation;

		private volatile boolean open = true;

		private Binding(RetriedInvocation invocation) {
			this.invocation = invocation;
		}

		/** Whether the attempt it binds is still under way. */
		boolean isOpen() {
			return this.open;
		}

		/**
		 * Binds this attempt's invocation to the calling thread, another than the one it
		 * was bound on, while the attempt is still under way.
		 * @return the scope to close when the work ends, or {@code null} when the attempt
		 * has ended
		 */
		@Nullable Scope carry() {
			return this.open ? new Scope(this, CURRENT.get(), false) : null;
		}

	}

	/**
	 * A binding of an invocation to the thread; closing it restores the one before.
	 */
	static final class Scope implements AutoCloseable {

		private final Binding binding;

		private final @Nullable Binding previous;

		/** Whether closing ends the attempt: only on the thread the outer layer runs it on. */
		private final boolean owner;

		private Scope(Binding binding, @Nullable Binding previous, boolean owner) {
			this.binding = binding;
			this.previous = previous;
			this.owner = owner;
			CURRENT.set(binding);
		}

		@Override
		public void close() {
			if (this.owner) {
				this.binding.open = false;
			}
			if (this.previous != null) {
				CURRENT.set(this.previous);
			}
			else {
				CURRENT.remove();
			}
		}

	}

}
