package dev.retryafter.core.header;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.retryafter.core.RetrySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ServerHints}: the strict millisecond hints, the verdicts, the spent-quota
 * look and how a millisecond hint combines with {@code Retry-After}.
 */
class ServerHintsTests {

	private static final RetrySettings.Header ON = RetrySettings.defaults().header();

	private static final RetrySettings.Header OFF = new RetrySettings.Header(ON.maxWait(), ON.onInvalid(),
			ON.dateReference(), false, false, true);

	private static ServerHints read(RetrySettings.Header header, String... namesAndValues) {
		Map<String, String> headers = new HashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.put(namesAndValues[i], namesAndValues[i + 1]);
		}
		return ServerHints.read(headers::get, header.millisecondHints(), header.serverVerdicts());
	}

	private static RetryAfter.Delay seconds(long seconds) {
		return new RetryAfter.Delay(Duration.ofSeconds(seconds), RetryAfter.Form.SECONDS);
	}

	private static ServerHints millis(long millis) {
		return new ServerHints(Duration.ofMillis(millis), ServerHints.Verdict.NONE, false);
	}

	@Test
	void whenNoHintsThenNone() {
		assertThat(read(ON)).isSameAs(ServerHints.NONE);
	}

	@Test
	void whenRetryAfterMsThenThatManyMilliseconds() {
		assertThat(read(ON, "retry-after-ms", "1500").millis()).isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	void whenOnlyXMsRetryAfterMsThenThatManyMilliseconds() {
		assertThat(read(ON, "x-ms-retry-after-ms", " 1500\t").millis()).isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	void whenMillisecondHintsOffThenNotRead() {
		assertThat(read(OFF, "retry-after-ms", "1500")).isSameAs(ServerHints.NONE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "1.5e3", "-1", "+1", "1.5", "", "  ", "1 5", "15s", "0x10", "\u0663" })
	void whenMalformedMillisecondHintThenIgnored(String value) {
		assertThat(ServerHints.parseMillis(value)).isNull();
		assertThat(read(ON, "retry-after-ms", value)).isSameAs(ServerHints.NONE);
	}

	@Test
	void whenHugeMillisecondHintThenSaturatedWithoutOverflow() {
		assertThat(ServerHints.parseMillis("99999999999999999999")).isEqualTo(RetryAfter.MAX_DELAY);
		assertThat(ServerHints.parseMillis("9".repeat(5000))).isEqualTo(RetryAfter.MAX_DELAY);
		assertThat(ServerHints.parseMillis("0000000000000000000000001")).isEqualTo(RetryAfter.MAX_DELAY);
	}

	@Test
	void whenZeroMillisecondHintThenZero() {
		assertThat(ServerHints.parseMillis("0")).isEqualTo(Duration.ZERO);
	}

	@Test
	void whenVerdictsThenReadCaseInsensitively() {
		assertThat(read(ON, "x-should-retry", "false").verdict()).isEqualTo(ServerHints.Verdict.NO_RETRY);
		assertThat(read(ON, "stripe-should-retry", "True").verdict()).isEqualTo(ServerHints.Verdict.RETRY);
		assertThat(read(ON, "x-should-retry", "maybe")).isSameAs(ServerHints.NONE);
		assertThat(read(OFF, "x-should-retry", "false")).isSameAs(ServerHints.NONE);
	}

	@Test
	void whenRemainingZeroThenQuotaSpent() {
		assertThat(read(ON, "x-ratelimit-remaining", "0").quotaSpent()).isTrue();
		assertThat(read(ON, "ratelimit", "\"default\";r=0;t=30").quotaSpent()).isTrue();
	}

	@Test
	void whenRemainingAboveZeroThenQuotaNotSpent() {
		assertThat(read(ON, "x-ratelimit-remaining", "10")).isSameAs(ServerHints.NONE);
		assertThat(read(ON, "ratelimit", "\"default\";r=05;t=30")).isSameAs(ServerHints.NONE);
		assertThat(read(ON, "ratelimit", "\"default\";r=10;t=30")).isSameAs(ServerHints.NONE);
		assertThat(read(ON, "ratelimit", "\"hr=0\";r=3")).isSameAs(ServerHints.NONE);
		assertThat(read(ON, "ratelimit", "\"default\";r=0.5;t=3")).isSameAs(ServerHints.NONE);
	}

	@Test
	void whenOnlyMillisecondHintThenItIsTheDelay() {
		assertThat(ServerHints.combine(RetryAfter.ABSENT, millis(1500)))
			.isEqualTo(new RetryAfter.Delay(Duration.ofMillis(1500), RetryAfter.Form.MILLIS));
		assertThat(ServerHints.combine(new RetryAfter.Invalid("x"), millis(1500)))
			.isEqualTo(new RetryAfter.Delay(Duration.ofMillis(1500), RetryAfter.Form.MILLIS));
	}

	@Test
	void whenRetryAfterOneAndHint1500ThenTheyAgreeAndTheHintWins() {
		assertThat(ServerHints.combine(seconds(1), millis(1500)))
			.isEqualTo(new RetryAfter.Delay(Duration.ofMillis(1500), RetryAfter.Form.MILLIS));
	}

	@Test
	void whenRetryAfterFiveAndHint100ThenTheyDisagreeAndTheLaterWins() {
		assertThat(ServerHints.combine(seconds(5), millis(100))).isEqualTo(seconds(5));
	}

	@Test
	void whenRetryAfterOneAndHint5000ThenTheLaterHintWins() {
		assertThat(ServerHints.combine(seconds(1), millis(5000)))
			.isEqualTo(new RetryAfter.Delay(Duration.ofMillis(5000), RetryAfter.Form.MILLIS));
	}

	@Test
	void whenNoHintThenRetryAfterUnchanged() {
		RetryAfter.Delay delay = seconds(2);
		assertThat(ServerHints.combine(delay, ServerHints.NONE)).isSameAs(delay);
	}


	@Test
	void whenASpentQuotaResetsLaterThanRetryAfterThenTheResetWins() {
		ServerHints spent = ServerHints.NONE.withSpentQuota(Duration.ofSeconds(3));
		assertThat(ServerHints.combine(seconds(1), spent))
			.isEqualTo(new RetryAfter.Delay(Duration.ofSeconds(3), RetryAfter.Form.QUOTA_RESET));
	}

	@Test
	void whenRetryAfterIsLaterThanTheSpentQuotasResetThenRetryAfterWins() {
		ServerHints spent = ServerHints.NONE.withSpentQuota(Duration.ofSeconds(3));
		RetryAfter.Delay delay = seconds(5);
		assertThat(ServerHints.combine(delay, spent)).isSameAs(delay);
	}

	@Test
	void whenOnlyASpentQuotaThenItsResetIsTheDelay() {
		ServerHints spent = ServerHints.NONE.withSpentQuota(Duration.ofMillis(2500));
		assertThat(spent.quotaSpent()).isTrue();
		assertThat(ServerHints.combine(RetryAfter.ABSENT, spent))
			.isEqualTo(new RetryAfter.Delay(Duration.ofMillis(2500), RetryAfter.Form.QUOTA_RESET));
	}

	@Test
	void whenASpentQuotaResetsBeyondTheLargestDelayThenItIsCappedNotOverflowed() {
		ServerHints spent = ServerHints.NONE.withSpentQuota(Duration.ofDays(40_000));
		assertThat(spent.quotaReset()).isEqualTo(RetryAfter.MAX_DELAY);
	}

}
