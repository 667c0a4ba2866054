package dev.retryafter.frameworkretry;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.List;
import java.util.function.BiPredicate;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CauseChain;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.resilience.retry.MethodRetryPredicate;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientResponseException;

/**
 * Which outcomes a {@code @Retryable} method's own retry takes: those whose failure (the
 * exception a {@code RestClient} or {@code WebClient} throws for it) its {@code includes},
 * {@code excludes} and {@code predicate} accept, as Spring Framework's retry advice matches
 * them (the failure or any of its causes against the types; then the predicate). An outcome
 * it would not retry is not handed back: the client adapter keeps its own retries for it,
 * instead of the call getting none.
 * <p>
 * The failure is not known before the attempt, so a sample of it is asked: an
 * {@code HttpServerErrorException} or {@code HttpClientErrorException} of the outcome's
 * status, or a {@code ResourceAccessException} around an {@code IOException}, and the
 * {@code WebClient} counterparts for an outcome of the {@code WebClient} filter.
 */
final class RetryableCoverage implements BiPredicate<AttemptOutcome, Boolean> {

	private static final boolean WEBFLUX_PRESENT = ClassUtils.isPresent(
			"org.springframework.web.reactive.function.client.WebClientResponseException",
			RetryableCoverage.class.getClassLoader());

	private final Method method;

	private final List<Class<? extends Throwable>> includes;

	private final List<Class<? extends Throwable>> excludes;

	private final @Nullable MethodRetryPredicate predicate;

	private RetryableCoverage(Method method, Retryable retryable, @Nullable MethodRetryPredicate predicate) {
		this.method = method;
		this.includes = List.of(retryable.includes());
		this.excludes = List.of(retryable.excludes());
		this.predicate = predicate;
	}

	/**
	 * The coverage of a method's {@code @Retryable} (on the method, else on its class).
	 * @param method the most specific method
	 * @return the coverage, or {@code null} when it takes every outcome (no types, no
	 * predicate) or the annotation is not found
	 */
	static @Nullable BiPredicate<AttemptOutcome, Boolean> of(Method method) {
		Retryable retryable = AnnotatedElementUtils.findMergedAnnotation(method, Retryable.class);
		if (retryable == null) {
			retryable = AnnotatedElementUtils.findMergedAnnotation(method.getDeclaringClass(), Retryable.class);
		}
		if (retryable == null) {
			return null;
		}
		MethodRetryPredicate predicate = predicate(retryable.predicate());
		if (retryable.includes().length == 0 && retryable.excludes().length == 0 && predicate == null) {
			return null;
		}
		return new RetryableCoverage(method, retryable, predicate);
	}

	/**
	 * The method's predicate, made as Spring makes it when it has a no-argument constructor;
	 * {@code null} for the default (retry everything). A predicate that cannot be made here
	 * (it needs injection) is left out: its types still decide.
	 */
	private static @Nullable MethodRetryPredicate predicate(Class<? extends MethodRetryPredicate> type) {
		if (type == MethodRetryPredicate.class) {
			return null;
		}
		try {
			return org.springframework.beans.BeanUtils.instantiateClass(type);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	@Override
	public boolean test(AttemptOutcome outcome, Boolean reactive) {
		if (reactive) {
			return !WEBFLUX_PRESENT || retries(WebFluxSamples.of(outcome));
		}
		return retries(blockingSample(outcome));
	}

	private boolean retries(Throwable failure) {
		if (!this.includes.isEmpty() && !matches(failure, this.includes)) {
			return false;
		}
		if (matches(failure, this.excludes)) {
			return false;
		}
		return this.predicate == null || this.predicate.shouldRetry(this.method, failure);
	}

	private static boolean matches(Throwable failure, List<Class<? extends Throwable>> types) {
		for (Throwable candidate : CauseChain.of(failure)) {
			for (Class<? extends Throwable> type : types) {
				if (type.isInstance(candidate)) {
					return true;
				}
			}
		}
		return false;
	}

	private static Throwable blockingSample(AttemptOutcome outcome) {
		if (outcome instanceof AttemptOutcome.Response response) {
			HttpStatusCode status = HttpStatusCode.valueOf(response.status());
			if (status.is5xxServerError()) {
				return HttpServerErrorException.create(status, "", HttpHeaders.EMPTY, new byte[0], null);
			}
			if (status.is4xxClientError()) {
				return HttpClientErrorException.create(status, "", HttpHeaders.EMPTY, new byte[0], null);
			}
			return new RestClientResponseException("", status, "", HttpHeaders.EMPTY, new byte[0], null);
		}
		return new ResourceAccessException("I/O error", new IOException("I/O error"));
	}

	/**
	 * Kept apart so that WebFlux's exceptions are loaded only when it is present.
	 */
	private static final class WebFluxSamples {

		static Throwable of(AttemptOutcome outcome) {
			if (outcome instanceof AttemptOutcome.Response response) {
				return org.springframework.web.reactive.function.client.WebClientResponseException
					.create(HttpStatusCode.valueOf(response.status()), "", HttpHeaders.EMPTY, new byte[0], null, null);
			}
			return new org.springframework.web.reactive.function.client.WebClientRequestException(
					new IOException("I/O error"), HttpMethod.GET, URI.create("http://localhost/"), HttpHeaders.EMPTY);
		}

	}

}
