package dev.retryafter.frameworkretry;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.StopReason;
import dev.retryafter.spi.RetriedInvocation;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * Advice ordered inside Spring Framework's {@code @Retryable} advice, so it runs once per
 * attempt of a retried method, and makes the method one retry layer with the HTTP client
 * adapters.
 * <p>
 * One {@link RetriedInvocation} spans all attempts of one call of the method: Spring's retry
 * advice runs each attempt on a clone of the method invocation, and the clones share their
 * user attributes, where it is kept. For a blocking method each attempt runs with the
 * invocation bound to the thread ({@link FrameworkRetryDetector}), so the interceptor sends
 * one request and hands a retryable outcome back with its {@code Retry-After} instant. An
 * attempt that Spring's retry starts before that instant (its own delay is shorter) is held
 * here until the instant: its one hold. A hold that does not fit {@code header.max-wait} or
 * {@code total-budget} is not taken: the attempt is not run, the reason is reported, and the
 * previous attempt's failure is thrown again, so the method never sends a request early.
 * Only an outcome whose failure the method's {@code includes}, {@code excludes} and
 * {@code predicate} retry is handed back ({@link RetryableCoverage}); any other keeps the
 * client adapter's own retries.
 * <p>
 * A method returning a reactive type is retried by Spring through Reactor's
 * {@code retryWhen}, which subscribes again to what the method returned once; the advice puts
 * the invocation in that publisher's Reactor context, where the {@code WebClient} filter finds
 * it, steps aside and holds a subscription that comes too early.
 *
 * @since 0.1.0
 */
public class RetriedMethodInterceptor implements MethodInterceptor {

	private static final String INVOCATION_ATTRIBUTE = RetriedMethodInterceptor.class.getName() + ".INVOCATION";

	private static final String FAILURE_ATTRIBUTE = RetriedMethodInterceptor.class.getName() + ".FAILURE";

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			RetriedMethodInterceptor.class.getClassLoader());

	private final Supplier<FrameworkRetryContext> retries;

	private final Sleeper sleeper;

	/** What each method's {@code @Retryable} retries, read once per method. */
	private final Map<Method, Optional<BiPredicate<AttemptOutcome, Boolean>>> coverage = new ConcurrentHashMap<>();

	/**
	 * Creates the advice, holding on the calling thread.
	 * @param retries supplies the shared collaborators on first use (the advice is built with
	 * the post-processors, before the beans it needs)
	 */
	public RetriedMethodInterceptor(Supplier<FrameworkRetryContext> retries) {
		// A hold is bounded by header.max-wait and total-budget, so its nanoseconds fit a long.
		this(retries, (duration) -> TimeUnit.NANOSECONDS.sleep(duration.toNanos()));
	}

	/**
	 * Creates the advice.
	 * @param retries supplies the shared collaborators on first use (the advice is built with
	 * the post-processors, before the beans it needs)
	 * @param sleeper waits out a hold
	 */
	RetriedMethodInterceptor(Supplier<FrameworkRetryContext> retries, Sleeper sleeper) {
		this.retries = Objects.requireNonNull(retries, "retries");
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		FrameworkRetryContext retries = this.retries.get();
		Method method = invocation.getMethod();
		if (REACTOR_PRESENT && !Future.class.isAssignableFrom(method.getReturnType())) {
			ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(method.getReturnType());
			if (adapter != null) {
				Object result = invocation.proceed();
				return (result != null) ? ReactorContext.withInvocation(result, adapter,
						newInvocation(invocation, retries)) : null;
			}
		}
		RetriedInvocation retried = invocationOf(invocation, retries);
		holdBeforeAttempt(invocation, retried, retries);
		try (FrameworkRetryDetector.Scope scope = FrameworkRetryDetector.bind(retried)) {
			return invocation.proceed();
		}
		catch (Throwable failure) {
			remember(invocation, failure);
			throw failure;
		}
	}

	private void holdBeforeAttempt(MethodInvocation invocation, RetriedInvocation retried, FrameworkRetryContext retries)
			throws Throwable {
		RetryDecision before = retries.beforeNextAttempt(retried);
		if (before == null) {
			return;
		}
		Throwable previous = previousFailure(invocation);
		RetriedInvocation.Handback handback = Objects.requireNonNull(retried.last());
		if (before instanceof RetryDecision.Retry hold) {
			long since = retries.monotonicClock().nanoTime();
			try {
				this.sleeper.sleep(hold.delay());
			}
			catch (InterruptedException ex) {
				// Spring's retry sees the flag at its next back-off and stops.
				Thread.currentThread().interrupt();
				retries.listener().stoppedWithoutAttempt(handback.client(), handback.method(), StopReason.INTERRUPTED);
				throw (previous != null) ? previous : ex;
			}
			retries.waited(handback.client(), hold.delay(), since);
			return;
		}
		// The attempt is not run: the last failure stands, and no request ever goes out early.
		StopReason reason = ((RetryDecision.Stop) before).reason();
		throw (previous != null) ? previous
				: new IllegalStateException("Attempt not run, reason " + reason.tagValue()
						+ ": the server's Retry-After does not fit header.max-wait or total-budget");
	}

	private RetriedInvocation invocationOf(MethodInvocation invocation, FrameworkRetryContext retries) {
		if (invocation instanceof ProxyMethodInvocation proxied) {
			Object existing = proxied.getUserAttribute(INVOCATION_ATTRIBUTE);
			if (existing instanceof RetriedInvocation retried) {
				return retried;
			}
			RetriedInvocation retried = newInvocation(invocation, retries);
			proxied.setUserAttribute(INVOCATION_ATTRIBUTE, retried);
			return retried;
		}
		return newInvocation(invocation, retries);
	}

	/**
	 * An invocation that is handed back only what the method's {@code @Retryable} retries:
	 * a failure its {@code includes}, {@code excludes} or {@code predicate} leave out keeps
	 * the client adapter's own retries.
	 */
	private RetriedInvocation newInvocation(MethodInvocation invocation, FrameworkRetryContext retries) {
		Object target = invocation.getThis();
		Method method = (target != null)
				? AopUtils.getMostSpecificMethod(invocation.getMethod(), AopUtils.getTargetClass(target))
				: invocation.getMethod();
		Optional<BiPredicate<AttemptOutcome, Boolean>> coverage = this.coverage.computeIfAbsent(method,
				(key) -> Optional.ofNullable(RetryableCoverage.of(key)));
		long start = retries.monotonicClock().nanoTime();
		return coverage.map((takes) -> new RetriedInvocation(start, takes)).orElseGet(() -> new RetriedInvocation(start));
	}

	private static void remember(MethodInvocation invocation, Throwable failure) {
		if (invocation instanceof ProxyMethodInvocation proxied) {
			proxied.setUserAttribute(FAILURE_ATTRIBUTE, failure);
		}
	}

	private static @Nullable Throwable previousFailure(MethodInvocation invocation) {
		return (invocation instanceof ProxyMethodInvocation proxied
				&& proxied.getUserAttribute(FAILURE_ATTRIBUTE) instanceof Throwable failure) ? failure : null;
	}

	/**
	 * Kept apart so that Reactor is loaded only for a method that returns a reactive type.
	 */
	private static final class ReactorContext {

		static Object withInvocation(Object result, ReactiveAdapter adapter, RetriedInvocation retried) {
			org.reactivestreams.Publisher<?> publisher = adapter.toPublisher(result);
			org.reactivestreams.Publisher<?> marked = adapter.isMultiValue()
					? reactor.core.publisher.Flux.from(publisher)
						.contextWrite((context) -> context.put(RetriedInvocation.class, retried))
					: reactor.core.publisher.Mono.from(publisher)
						.contextWrite((context) -> context.put(RetriedInvocation.class, retried));
			return adapter.fromPublisher(marked);
		}

	}

}
