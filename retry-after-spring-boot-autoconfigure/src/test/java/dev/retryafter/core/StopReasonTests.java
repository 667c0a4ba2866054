package dev.retryafter.core;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StopReason}: tag values are the documented meter tag strings.
 */
class StopReasonTests {

	@ParameterizedTest
	@CsvSource({ "SUCCESS, success, false", "NOT_RETRYABLE, not-retryable, false",
			"NON_IDEMPOTENT, non-idempotent, true", "MAX_ATTEMPTS, max-attempts, true",
			"RETRY_BUDGET, retry-budget, true", "INVALID_RETRY_AFTER, invalid-retry-after, true",
			"RETRY_AFTER_TOO_LONG, retry-after-too-long, true",
			"RETRY_AFTER_EXCEEDS_BUDGET, retry-after-exceeds-budget, true",
			"BUDGET_EXHAUSTED, budget-exhausted, true", "INTERRUPTED, interrupted, true", "COOLDOWN, cooldown, true",
			"CANCELLED, cancelled, true", "SERVER_SAID_NO_RETRY, server-said-no-retry, true",
			"OUTER_RETRY, outer-retry, false" })
	void whenReasonThenTagValueAndAbandonmentAreThoseOfSpec(StopReason reason, String tagValue, boolean abandonment) {
		assertThat(reason.tagValue()).isEqualTo(tagValue);
		assertThat(reason.isAbandonment()).isEqualTo(abandonment);
	}

	@Test
	void whenAbandonmentsThenTheyAreExactlyTheReasonTagsOfTheAbandonedMeter() {
		assertThat(Arrays.stream(StopReason.values()).filter(StopReason::isAbandonment).map(StopReason::tagValue))
			.containsExactlyInAnyOrder("max-attempts", "budget-exhausted", "retry-after-exceeds-budget",
					"retry-after-too-long", "invalid-retry-after", "non-idempotent", "retry-budget", "interrupted",
					"cooldown", "cancelled", "server-said-no-retry");
	}

	@Test
	void whenNormalEndsThenTheyAreTheOutcomeTagsSuccessAndNotRetryableAndTheHandOverToAnOuterRetry() {
		assertThat(Arrays.stream(StopReason.values()).filter((reason) -> !reason.isAbandonment())
			.map(StopReason::tagValue)).containsExactlyInAnyOrder("success", "not-retryable", "outer-retry");
	}

}
