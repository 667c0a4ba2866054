package dev.retryafter.frameworkretry;

import java.lang.reflect.Method;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.header.RetryAfter;
import org.junit.jupiter.api.Test;

import org.springframework.resilience.annotation.Retryable;
import org.springframework.resilience.retry.MethodRetryPredicate;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link RetryableCoverage} reads from a {@code @Retryable}: which outcomes Spring's
 * retry would retry, so that only those are handed back.
 */
class RetryableCoverageTests {

	private static final AttemptOutcome UNAVAILABLE = new AttemptOutcome.Response(503, RetryAfter.ABSENT);

	private static final AttemptOutcome TOO_MANY = new AttemptOutcome.Response(429, RetryAfter.ABSENT);

	private static final AttemptOutcome RESET = new AttemptOutcome.IoFailure(IoFailureKind.OTHER);

	@Test
	void whenTheAnnotationNamesNoTypesNorPredicateThenEveryOutcomeIsTaken() throws Exception {
		assertThat(RetryableCoverage.of(method("everything"))).isNull();
	}

	@Test
	void whenIncludesNameTheResponseExceptionThenResponsesAreTakenAndIoFailuresAreNot() throws Exception {
		assertThat(blocking("responses")).accepts(UNAVAILABLE, TOO_MANY).rejects(RESET);
	}

	@Test
	void whenIncludesNameOnlyServerErrorsThenA429IsNotTaken() throws Exception {
		assertThat(blocking("serverErrors")).accepts(UNAVAILABLE).rejects(TOO_MANY);
	}

	@Test
	void whenIncludesNameOnlyIoFailuresThenResponsesAreNotTaken() throws Exception {
		assertThat(blocking("ioFailures")).accepts(RESET).rejects(UNAVAILABLE, TOO_MANY);
	}

	@Test
	void whenExcludesNameServerErrorsThenTheyAreNotTaken() throws Exception {
		assertThat(blocking("notServerErrors")).accepts(TOO_MANY, RESET).rejects(UNAVAILABLE);
	}

	@Test
	void whenThePredicateRefusesThenTheOutcomeIsNotTaken() throws Exception {
		assertThat(blocking("only429ByPredicate")).accepts(TOO_MANY).rejects(UNAVAILABLE);
	}

	@Test
	void whenIncludesNameTheWebClientExceptionThenItsResponsesAreTaken() throws Exception {
		BiPredicate<AttemptOutcome, Boolean> coverage = RetryableCoverage.of(method("webClientResponses"));

		assertThat(reactive(coverage)).accepts(UNAVAILABLE).rejects(RESET);
		// The same response from a RestClient is an exception the annotation does not name.
		assertThat(blocking(coverage)).rejects(UNAVAILABLE);
	}

	@Test
	void whenOnlyTheClassIsAnnotatedThenItsAnnotationDecides() throws Exception {
		Method method = OnClass.class.getMethod("call");

		assertThat(blocking(RetryableCoverage.of(method))).accepts(RESET).rejects(UNAVAILABLE);
	}

	private static Predicate<AttemptOutcome> blocking(String name) throws NoSuchMethodException {
		return blocking(RetryableCoverage.of(method(name)));
	}

	private static Predicate<AttemptOutcome> blocking(BiPredicate<AttemptOutcome, Boolean> coverage) {
		return (outcome) -> coverage.test(outcome, false);
	}

	private static Predicate<AttemptOutcome> reactive(BiPredicate<AttemptOutcome, Boolean> coverage) {
		return (outcome) -> coverage.test(outcome, true);
	}

	private static Method method(String name) throws NoSuchMethodException {
		return Annotated.class.getMethod(name);
	}

	static class Annotated {

		@Retryable
		public void everything() {
		}

		@Retryable(includes = RestClientResponseException.class)
		public void responses() {
		}

		@Retryable(HttpServerErrorException.class)
		public void serverErrors() {
		}

		@Retryable(includes = ResourceAccessException.class)
		public void ioFailures() {
		}

		@Retryable(excludes = HttpServerErrorException.class)
		public void notServerErrors() {
		}

		@Retryable(predicate = Only429.class)
		public void only429ByPredicate() {
		}

		@Retryable(includes = WebClientResponseException.class)
		public void webClientResponses() {
		}

	}

	@Retryable(includes = ResourceAccessException.class)
	static class OnClass {

		public void call() {
		}

	}

	static class Only429 implements MethodRetryPredicate {

		@Override
		public boolean shouldRetry(Method method, Throwable throwable) {
			return throwable instanceof RestClientResponseException response
					&& response.getStatusCode().value() == 429;
		}

	}

}
