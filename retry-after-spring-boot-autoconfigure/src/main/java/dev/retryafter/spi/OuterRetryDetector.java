package dev.retryafter.spi;

import java.util.List;

import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Tells the HTTP client adapters whether a retry layer outside the HTTP client (one that
 * plans its waits with the same {@code Retry-After} policy) is retrying the current call, so
 * that the interceptor sends a single attempt and leaves the retrying to that layer instead of
 * multiplying attempts.
 * <p>
 * The interceptor asks at most once per call, and only after a first attempt it would
 * otherwise retry, so an implementation costs nothing on a call that succeeds. It runs on the
 * calling thread and must be fast and must not throw.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface OuterRetryDetector {

	/** A detector that never sees an outer retry layer: the interceptor always retries. */
	OuterRetryDetector NEVER = () -> false;

	/**
	 * Whether an outer layer retries the call being made on this thread.
	 * @return {@code true} if the interceptor must send a single attempt
	 */
	boolean isOuterRetryActive();

	/**
	 * The invocation an outer layer drives on this thread, when that layer wants to learn
	 * the {@code Retry-After} instant of each outcome handed back to it (Spring Framework's
	 * retry does). Asked at the same point as {@link #isOuterRetryActive()}.
	 * @return the invocation, or {@code null} (the default) when there is none to tell
	 * @since 0.1.0
	 */
	default @Nullable RetriedInvocation invocation() {
		return null;
	}

	/**
	 * Any detector seeing an outer retry layer is enough; without one (no spring-retry), the
	 * interceptor always retries by itself. Shared by the blocking and the reactive
	 * auto-configurations, which live in packages of their own.
	 * @param detectors the detectors, in order
	 * @return one detector over them all
	 */
	static OuterRetryDetector anyOf(List<OuterRetryDetector> detectors) {
		if (detectors.isEmpty()) {
			return OuterRetryDetector.NEVER;
		}
		if (detectors.size() == 1) {
			return detectors.get(0);
		}
		return new OuterRetryDetector() {

			@Override
			public boolean isOuterRetryActive() {
				return detectors.stream().anyMatch(OuterRetryDetector::isOuterRetryActive);
			}

			@Override
			public @Nullable RetriedInvocation invocation() {
				for (OuterRetryDetector detector : detectors) {
					RetriedInvocation invocation = detector.invocation();
					if (invocation != null) {
						return invocation;
					}
				}
				return null;
			}

		};
	}

}
