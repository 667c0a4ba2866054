package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.SplittableRandom;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitParser;
import dev.retryafter.core.header.RateLimitReading;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the refill rule of {@link RateLimitSchedule}: an origin that refills as it goes (a
 * token bucket whose reset says when it is full again) is paced at its rate, not by a reset
 * that slides forward with every answer; a fixed window still waits for its reset. On a fake
 * monotonic clock.
 */
class QuotaRefillTests {

	private static final CooldownKey KEY = CooldownKey.of(Origin.of("https", "api.example.com", 443));

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private static final Duration RESERVE = Duration.ofMillis(500);

	private static final long SECOND = 1_000_000_000L;

	private static final long MS = 1_000_000L;

	// Near the end of the long range, so that any comparison that is not a difference fails.
	private static final long T0 = Long.MAX_VALUE - 5 * SECOND;

	// 50 per second, a little under.
	private static final long INTERVAL = (long) (2e7 / RateLimitSchedule.SHARE);

	private final RateLimitPacing pacing = new RateLimitPacing(100);

	@Test
	void whenTwoSuccessesReportTheSameCountBeforeTheResetThenTheRateIsFollowedNotTheSlidingReset() {
		// A bucket of 50 per second, burst 50: every answer says r=0 and full again in 1 s.
		this.pacing.record(KEY, bucket(0), true, T0);
		assertThat(holdAt(T0)).isEqualTo(SECOND + INTERVAL);
		this.pacing.record(KEY, bucket(0), true, T0 + 20 * MS);

		// Each answer to a slot says the same, and the next slot is one interval after the last.
		long now = T0 + SECOND + INTERVAL;
		for (int i = 0; i < 5; i++) {
			this.pacing.record(KEY, bucket(0), true, now);
			assertThat(holdAt(now)).isEqualTo(INTERVAL);
			now += INTERVAL;
		}
	}

	@Test
	void whenNoRefillWasSeenThenEachAnswerSayingNothingIsLeftWaitsForItsReset() {
		this.pacing.record(KEY, bucket(0), true, T0);
		assertThat(holdAt(T0)).isEqualTo(SECOND + INTERVAL);

		// Without the rule, the answer to the slot moves the next one past its own reset.
		long now = T0 + SECOND + INTERVAL;
		this.pacing.record(KEY, bucket(0), true, now);
		assertThat(holdAt(now)).isEqualTo(SECOND + INTERVAL);
	}

	@Test
	void whenAFixedWindowCountsDownThenItsResetIsStillWaitedFor() {
		// Four per two seconds, answered one after another: 3, 2, 1, 0 and then a refusal.
		long now = T0;
		for (int left = 3; left >= 0; left--) {
			this.pacing.record(KEY, window(left, 2), true, now);
			now += 100 * MS;
		}
		this.pacing.record(KEY, window(0, 2), false, now);

		assertThat(holdAt(now)).isGreaterThanOrEqualTo(T0 + 2 * SECOND - now);
	}

	@Test
	void whenAnswersComeBackOutOfOrderThenAHigherCountIsNoRefill() {
		this.pacing.record(KEY, window(2, 2), true, T0);
		this.pacing.record(KEY, window(0, 2), true, T0 + 10 * MS);
		this.pacing.record(KEY, window(1, 2), true, T0 + 20 * MS);

		// Nothing left: the request waits for the reset, two seconds after the first answer.
		assertThat(holdAt(T0 + 20 * MS)).isGreaterThanOrEqualTo(2 * SECOND - 20 * MS);
	}

	@Test
	void whenARefusalSaysNothingIsLeftThenTheResetIsWaitedForAgain() {
		this.pacing.record(KEY, bucket(0), true, T0);
		this.pacing.record(KEY, bucket(0), true, T0 + 20 * MS);
		assertThat(holdAt(T0 + 20 * MS)).isEqualTo(SECOND + INTERVAL - 20 * MS);

		long now = T0 + SECOND + INTERVAL;
		this.pacing.record(KEY, bucket(0), false, now);
		assertThat(holdAt(now)).isEqualTo(SECOND + INTERVAL);
	}

	@Test
	void whenTheSameCountComesAfterTheFirstOnesResetThenItIsNoRefill() {
		this.pacing.record(KEY, window(0, 1), true, T0);
		// The same window (its reset moved by less than a second), but past the first's reset.
		this.pacing.record(KEY, new RateLimitReading("p", 0, Duration.ofMillis(500), 4, Duration.ofSeconds(2),
				RateLimitFields.IETF), true, T0 + SECOND + 100 * MS);

		long now = T0 + SECOND + 200 * MS;
		assertThat(holdAt(now)).isGreaterThanOrEqualTo(T0 + SECOND + 600 * MS - now);
	}

	@Test
	void whenTheQuotaNamesNoRateThenTheSameCountTwiceChangesNothing() {
		RateLimitReading noRate = new RateLimitReading("p", 0, Duration.ofSeconds(1), 0, Duration.ZERO,
				RateLimitFields.IETF);
		this.pacing.record(KEY, noRate, true, T0);
		this.pacing.record(KEY, noRate, true, T0 + 20 * MS);

		// The first answer's reset stands: the second names it within the same second.
		assertThat(holdAt(T0 + 20 * MS)).isEqualTo(SECOND - 20 * MS);
	}

	@Test
	void whenTheStatusIsNotKnownThenNoRefillIsSeen() {
		this.pacing.record(KEY, bucket(0), T0);
		// The second answer leaves the first slot an interval past the first one's reset, as
		// without the rule.
		this.pacing.record(KEY, bucket(0), T0 + 20 * MS);
		assertThat(holdAt(T0 + 20 * MS)).isEqualTo(SECOND - 20 * MS + INTERVAL);

		long now = T0 + 20 * MS + SECOND + INTERVAL;
		this.pacing.record(KEY, bucket(0), now);
		assertThat(holdAt(now)).isEqualTo(SECOND + INTERVAL);
	}

	@Test
	void whenARefillingOriginSaysSomeAreSavedThenOneGoesAtOnceBeforeItsReset() {
		this.pacing.record(KEY, bucket(0), true, T0);
		this.pacing.record(KEY, bucket(0), true, T0 + 20 * MS);
		long now = T0 + 2 * SECOND;
		this.pacing.record(KEY, bucket(0), true, now);
		assertThat(holdAt(now)).isEqualTo(INTERVAL);

		// A window old, and the bucket says five are saved: one goes outside the slots.
		this.pacing.record(KEY, bucket(5), true, now);
		assertThat(this.pacing.admit(KEY, now, Duration.ZERO, BUDGET, RESERVE)).isNull();
		assertThat(holdAt(now)).isPositive();
	}

	@Test
	void whenAnswersAreErraticOrHugeThenNothingOverflowsOrThrowsAndNoHoldOutgrowsTheBudget() {
		SplittableRandom random = new SplittableRandom(28);
		long maxReset = RateLimitParser.MAX_RESET.toSeconds();
		long now = T0;
		for (int i = 0; i < 20_000; i++) {
			long remaining = switch (random.nextInt(4)) {
				case 0 -> 0;
				case 1 -> random.nextLong(3);
				case 2 -> random.nextLong(1_000_000);
				default -> random.nextLong(Long.MAX_VALUE);
			};
			long quota = random.nextBoolean() ? random.nextLong(100) : random.nextLong(Long.MAX_VALUE);
			long window = random.nextBoolean() ? random.nextLong(3) : random.nextLong(maxReset + 1);
			long reset = random.nextBoolean() ? random.nextLong(3) : random.nextLong(maxReset + 1);
			this.pacing.record(KEY, new RateLimitReading("p", remaining, Duration.ofSeconds(reset), quota,
					Duration.ofSeconds(window), RateLimitFields.IETF), random.nextBoolean(), now);
			Admission.Wait hold = this.pacing.admit(KEY, now, Duration.ZERO, BUDGET, RESERVE);
			if (hold != null) {
				assertThat(hold.delay()).isPositive().isLessThanOrEqualTo(BUDGET.minus(RESERVE).dividedBy(2));
			}
			// The clock jumps forward by up to a minute, passing the end of the long range.
			now += random.nextBoolean() ? random.nextLong(50 * MS) : random.nextLong(60 * SECOND);
		}
	}

	private long holdAt(long now) {
		Admission.Wait hold = this.pacing.admit(KEY, now, Duration.ZERO, BUDGET, RESERVE);
		return (hold != null) ? hold.delay().toNanos() : 0;
	}

	private static RateLimitReading bucket(long remaining) {
		return new RateLimitReading("bucket", remaining, Duration.ofSeconds(1), 50, Duration.ofSeconds(1),
				RateLimitFields.IETF);
	}

	private static RateLimitReading window(long remaining, long resetSeconds) {
		return new RateLimitReading("window", remaining, Duration.ofSeconds(resetSeconds), 4, Duration.ofSeconds(2),
				RateLimitFields.IETF);
	}

}
