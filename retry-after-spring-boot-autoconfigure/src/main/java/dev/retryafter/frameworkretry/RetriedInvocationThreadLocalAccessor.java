package dev.retryafter.frameworkretry;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

/**
 * Lets Micrometer's context propagation carry the invocation a Spring Framework retry layer
 * drives (a {@code @Retryable} method, a {@link RetryAfterRetryTemplate}) across a thread hop
 * it manages: Reactor's automatic context propagation
 * ({@code spring.reactor.context-propagation=auto}, e.g. a blocking call inside
 * {@code subscribeOn}), or an executor wrapped with {@code ContextExecutorService}. Registered
 * through {@code META-INF/services}, so it is loaded only when
 * {@code io.micrometer:context-propagation} is on the class path.
 * <p>
 * Only an attempt still under way is carried: work that runs after the attempt ended is not
 * bound, since no one would retry what it handed back.
 *
 * @since 0.3.0
 */
public class RetriedInvocationThreadLocalAccessor implements ThreadLocalAccessor<Object> {

	/** The key under which the invocation travels in a context snapshot. */
	public static final String KEY = "dev.retryafter.retried-invocation";

	@Override
	public Object key() {
		return KEY;
	}

	@Override
	public @Nullable Object getValue() {
		FrameworkRetryDetector.Binding binding = FrameworkRetryDetector.binding();
		return (binding != null && binding.isOpen()) ? binding : null;
	}

	@Override
	public void setValue(Object value) {
		if (value instanceof FrameworkRetryDetector.Binding binding && binding.isOpen()) {
			FrameworkRetryDetector.set(binding);
		}
	}

	@Override
	public void setValue() {
		FrameworkRetryDetector.set(null);
	}

	@Override
	public void restore(Object previousValue) {
		FrameworkRetryDetector.set((previousValue instanceof FrameworkRetryDetector.Binding binding) ? binding : null);
	}

}
