package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RateLimitPacing}: slots inside an announced quota, on explicit monotonic
 * readings.
 */
class RateLimitPacingTests {

	static final CooldownKey KEY = CooldownKey.of(Origin.of("https", "api.example.com", 443));

	static final CooldownKey OTHER = CooldownKey.of(Origin.of("https", "other.example.com", 443));

	static final Duration BUDGET = Duration.ofSeconds(10);

	static final Duration RESERVE = Duration.ofMillis(500);

	static final long SECOND = 1_000_000_000L;

	static final long MS = 1_000_000L;

	// Near the end of the long range, so that any comparison that is not a difference fails.
	static final long T0 = Long.MAX_VALUE - 5 * SECOND;

	private final RateLimitPacing pacing = new RateLimitPacing(100);

	@Test
	void whenNoQuotaIsKnownThenNothingIsHeld() {
		assertThat(this.pacing.admit(KEY, T0, Duration.ZERO, BUDGET, RESERVE)).isNull();
		assertThat(this.pacing.isEmpty()).isTrue();
	}

	@Test
	void whenRequestsRemainBeforeTheResetThenTheyAreSpreadOverIt() {
		this.pacing.record(KEY, reading(4, 2, 0, 0), T0);

		// The last one at the reset, and without a policy the ones beyond wait for it too.
		assertThat(waits(T0, 5)).containsExactly(ms(500), ms(1000), ms(1500), ms(2000), ms(2000));
	}

	@Test
	void whenTheResetHasPassedThenRequestsFollowThePolicyALittleUnderIt() {
		this.pacing.record(KEY, reading(2, 1, 10, 1), T0);
		long interval = (long) (1e8 / RateLimitSchedule.SHARE);

		Duration[] waits = waits(T0, 4);

		// Spread over the second left, the last at the reset; then one every tenth of a second, a
		// little under 10 per second.
		assertThat(waits).containsExactly(ms(500), ms(1000), Duration.ofNanos(SECOND + interval),
				Duration.ofNanos(SECOND + 2 * interval));
	}

	@Test
	void whenNothingRemainsThenTheFirstRequestWaitsOneIntervalPastTheReset() {
		this.pacing.record(KEY, reading(0, 0, 50, 1), T0);
		long interval = (long) (2e7 / RateLimitSchedule.SHARE);

		assertThat(waits(T0, 2)).containsExactly(Duration.ofNanos(interval), Duration.ofNanos(2 * interval));
	}

	@Test
	void whenALaterResponseInTheSameWindowSaysLessRemainsThenTheLowerCountHolds() {
		this.pacing.record(KEY, reading(10, 10, 0, 0), T0);
		this.pacing.record(KEY, reading(0, 10, 0, 0), T0 + SECOND / 10);
		this.pacing.record(KEY, reading(8, 10, 0, 0), T0 + SECOND / 5);

		// Nothing left since the second response, so the request waits for the reset: the one
		// the first named, since the later ones name it within the same second.
		assertThat(this.pacing.admit(KEY, T0 + SECOND / 5, Duration.ZERO, Duration.ofSeconds(60), RESERVE))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(9_800), HoldReason.QUOTA));
	}

	@Test
	void whenAnswersOfOneWindowNameItsResetWithinASecondThenTheEarliestHoldsTheRequestsBeyondTheCount() {
		this.pacing.record(KEY, reading(10, 2, 0, 0), T0);
		// 900 ms later, t=2 again: a second rounded up names the same reset, later.
		this.pacing.record(KEY, reading(0, 2, 0, 0), T0 + 900 * MS);

		assertThat(this.pacing.admit(KEY, T0 + 900 * MS, Duration.ZERO, Duration.ofSeconds(60), RESERVE))
			.isEqualTo(new Admission.Wait(ms(1100), HoldReason.QUOTA));
	}

	@Test
	void whenTheLastWindowsAnswerComesAfterTheNextOnesThenTheNextWindowsCountStands() {
		this.pacing.record(KEY, reading(0, 1, 20, 2), T0);
		long flip = T0 + 1010 * MS;
		this.pacing.record(KEY, reading(19, 2, 20, 2), flip);
		// Counted by the last window just before its reset, read after the next one's answer.
		long late = T0 + 1030 * MS;
		this.pacing.record(KEY, reading(0, 1, 20, 2), late);

		// The next window's first slot, one interval after the answer that showed it.
		assertThat(this.pacing.admit(KEY, late, Duration.ZERO, BUDGET, RESERVE))
			.isEqualTo(new Admission.Wait(Duration.ofNanos(flip + 2 * SECOND / 19 - late), HoldReason.QUOTA));
	}

	@Test
	void whenAQuotaIsSpreadThenItSpacesEvenASlotThatIsNowAndAFarFromSpentOneDoesNot() {
		assertThat(this.pacing.spaces(KEY, T0)).isFalse();
		this.pacing.record(KEY, reading(1000, 30, 0, 0), T0);
		assertThat(this.pacing.spaces(KEY, T0)).isFalse();

		this.pacing.record(KEY, reading(10, 30, 0, 0), T0);
		assertThat(this.pacing.spaces(KEY, T0)).isTrue();
		// Past the first slot (3 s after the answer): the slot is now, and still a slot.
		long later = T0 + 5 * SECOND;
		assertThat(this.pacing.admit(KEY, later, Duration.ZERO, BUDGET, RESERVE)).isNull();
		assertThat(this.pacing.spaces(KEY, later)).isTrue();
		assertThat(this.pacing.spaces(OTHER, later)).isFalse();
	}

	@Test
	void whenTheOriginSavedSomeThenTheRequestLetGoOutsideTheSlotsIsNotSpacedAndTheNextIs() {
		this.pacing.record(KEY, reading(0, 0, 50, 1), T0);
		long later = T0 + 2 * SECOND;
		this.pacing.record(KEY, reading(3, 0, 50, 1), later);

		assertThat(this.pacing.spaces(KEY, later)).isFalse();
		assertThat(this.pacing.admit(KEY, later, Duration.ZERO, BUDGET, RESERVE)).isNull();
		assertThat(this.pacing.spaces(KEY, later)).isTrue();
	}

	@Test
	void whenNothingIsLeftAndNoRateIsKnownThenNothingIsSpacedOnlyHeldUntilTheReset() {
		this.pacing.record(KEY, reading(0, 1, 0, 0), T0);

		assertThat(this.pacing.spaces(KEY, T0)).isFalse();
		assertThat(this.pacing.spacing(KEY, T0).isNone()).isTrue();
	}

	@Test
	void whenAFleetAsksHowToSpaceItsSlotsThenItGetsBothIntervalsAndTheTimeToTheReset() {
		this.pacing.record(KEY, reading(2, 4, 10, 1), T0);
		Duration rate = Duration.ofNanos((long) (1e8 / RateLimitSchedule.SHARE));

		assertThat(this.pacing.spacing(KEY, T0 + SECOND))
			.isEqualTo(new QuotaSpacing(Duration.ofSeconds(2), rate, Duration.ofSeconds(3), 0, Duration.ZERO,
					QuotaSpacing.UNBOUNDED, Duration.ofSeconds(1)));
		assertThat(this.pacing.spacing(KEY, T0 + 5 * SECOND)).isEqualTo(new QuotaSpacing(Duration.ZERO, rate,
				Duration.ZERO, 0, Duration.ZERO, QuotaSpacing.UNBOUNDED, Duration.ofSeconds(1)));
		assertThat(this.pacing.spacing(OTHER, T0)).isEqualTo(QuotaSpacing.NONE);
	}

	@Test
	void whenAResponseStartsANewWindowThenItsCountHolds() {
		this.pacing.record(KEY, reading(0, 1, 0, 0), T0);
		this.pacing.record(KEY, reading(4, 3, 0, 0), T0 + 2 * SECOND);

		Admission.Wait wait = this.pacing.admit(KEY, T0 + 2 * SECOND, Duration.ZERO, BUDGET, RESERVE);

		assertThat(wait).isEqualTo(new Admission.Wait(ms(750), HoldReason.QUOTA));
	}

	@Test
	void whenAResponseAfterTheResetSaysSomeRemainThenOneRequestGoesAtOnceOutsideTheSlots() {
		long interval = (long) (2e7 / RateLimitSchedule.SHARE);
		this.pacing.record(KEY, reading(0, 0, 50, 1), T0);
		long later = T0 + 2 * SECOND;
		assertThat(this.pacing.admit(KEY, later, Duration.ZERO, BUDGET, RESERVE)).isNull();
		this.pacing.record(KEY, reading(3, 0, 50, 1), later);

		// One at once, then the slots again, one interval apart.
		assertThat(waits(later, 3)).containsExactly(null, Duration.ofNanos(interval), Duration.ofNanos(2 * interval));
	}

	@Test
	void whenRequestsWentOutsideTheSlotsThenTheNextNeedsAnIntervalAndOneMoreRemainingPerRequestInTheLastSecond() {
		long interval = (long) (2e7 / RateLimitSchedule.SHARE);
		this.pacing.record(KEY, reading(0, 0, 50, 1), T0);
		long later = T0 + 2 * SECOND;
		this.pacing.record(KEY, reading(3, 0, 50, 1), later);
		assertThat(this.pacing.admit(KEY, later, Duration.ZERO, BUDGET, RESERVE)).isNull();

		// Within the interval: no second one, whatever the count.
		this.pacing.record(KEY, reading(40, 0, 50, 1), later + interval / 2);
		assertThat(this.pacing.admit(KEY, later + interval / 2, Duration.ZERO, BUDGET, RESERVE)).isNotNull();
		// An interval on, one went out in the last second: 3 + 1 must remain.
		long next = later + interval;
		this.pacing.record(KEY, reading(3, 0, 50, 1), next);
		assertThat(this.pacing.admit(KEY, next, Duration.ZERO, BUDGET, RESERVE)).isNotNull();
		this.pacing.record(KEY, reading(4, 0, 50, 1), next);
		assertThat(this.pacing.admit(KEY, next, Duration.ZERO, BUDGET, RESERVE)).isNull();
	}

	@Test
	void whenTheScheduleIsYoungerThanAWindowThenWhatRemainsIsNotSpentOutsideTheSlots() {
		long interval = (long) (2e7 / RateLimitSchedule.SHARE);
		// The first responses of a burst: the requests still arriving are not in their count.
		this.pacing.record(KEY, reading(49, 0, 50, 1), T0);
		this.pacing.record(KEY, reading(48, 0, 50, 1), T0 + 1000);

		assertThat(waits(T0 + 1000, 1)).containsExactly(Duration.ofNanos(interval - 1000));
	}

	@Test
	void whenFewerThanTheMarginRemainThenNoRequestGoesOutsideTheSlots() {
		this.pacing.record(KEY, reading(0, 0, 50, 1), T0);
		long later = T0 + 2 * SECOND;
		this.pacing.record(KEY, reading(2, 0, 50, 1), later);

		assertThat(waits(later, 1)).containsExactly(Duration.ofNanos((long) (2e7 / RateLimitSchedule.SHARE)));
	}

	@Test
	void whenACooldownHoldsTheKeyThenNoSlotComesBeforeItsEnd() {
		this.pacing.record(KEY, reading(4, 2, 0, 0), T0);

		Admission.Wait wait = this.pacing.admit(KEY, T0, Duration.ofMillis(1200), BUDGET, RESERVE);

		assertThat(wait.delay()).isEqualTo(ms(1200));
	}

	@Test
	void whenASlotDoesNotFitTheBudgetThenItIsNotTaken() {
		this.pacing.record(KEY, reading(0, 30, 10, 60), T0);

		assertThat(this.pacing.admit(KEY, T0, Duration.ZERO, BUDGET, RESERVE)).isNull();
		// Not taken: a request with the budget for it gets the very same slot.
		Duration first = this.pacing.admit(KEY, T0, Duration.ZERO, Duration.ofSeconds(90), RESERVE).delay();
		assertThat(first).isEqualTo(Duration.ofSeconds(30).plusNanos((long) (6e9 / RateLimitSchedule.SHARE)));
	}

	@Test
	void whenKeysDifferThenTheirSlotsAreIndependent() {
		this.pacing.record(KEY, reading(0, 5, 0, 0), T0);

		assertThat(this.pacing.admit(OTHER, T0, Duration.ZERO, BUDGET, RESERVE)).isNull();
	}

	@Test
	void whenTheResetPassedLongAgoAndNothingHappenedThenTheQuotaIsForgotten() {
		this.pacing.record(KEY, reading(0, 1, 10, 1), T0);

		assertThat(this.pacing.admit(KEY, T0 + 12 * SECOND, Duration.ZERO, BUDGET, RESERVE)).isNull();
		assertThat(this.pacing.isEmpty()).isTrue();
	}

	@Test
	void whenTheBoundIsPassedThenRoomIsMadeBelowItSoTheNextKeysDoNotScanAgain() {
		RateLimitPacing bounded = new RateLimitPacing(32);
		for (int i = 0; i <= 32; i++) {
			bounded.record(CooldownKey.of(Origin.of("https", "h" + i + ".example.com", 443)), reading(1, 60, 0, 0),
					T0 + i * SECOND);
		}

		// 33 keys over a bound of 32: the one over and 32 / 16 more, the longest unheard.
		assertThat(bounded.size()).isEqualTo(30);
		assertThat(bounded.snapshot(T0 + 33 * SECOND).keySet()).extracting((key) -> key.origin().host())
			.doesNotContain("h0.example.com", "h1.example.com", "h2.example.com")
			.contains("h3.example.com", "h32.example.com");
	}

	@Test
	void whenMoreKeysArePacedThanTheBoundThenTheLongestUnheardAreForgotten() {
		RateLimitPacing small = new RateLimitPacing(2);
		for (int i = 0; i < 5; i++) {
			small.record(CooldownKey.of(Origin.of("https", "h" + i + ".example.com", 443)), reading(1, 60, 0, 0),
					T0 + i * SECOND);
		}

		assertThat(small.size()).isEqualTo(2);
		assertThat(small.snapshot(T0 + 5 * SECOND).keySet()).extracting((key) -> key.origin().host())
			.containsExactly("h3.example.com", "h4.example.com");
	}

	@Test
	void whenTheEndpointAsksThenTheLastQuotaIsShown() {
		this.pacing.record(KEY, new RateLimitReading("burst", 7, Duration.ofSeconds(30), 10, Duration.ofSeconds(60),
				RateLimitFields.IETF), T0);

		assertThat(this.pacing.snapshot(T0 + SECOND)).containsEntry(KEY,
				new RateLimitState("burst", 7, Duration.ofSeconds(29), Duration.ofSeconds(1), RateLimitFields.IETF));
	}

	@Test
	void whenAnOperatorEndsAnOriginsCooldownsThenItsQuotaIsForgottenToo() {
		OriginProtection cooldowns = new OriginProtection(10);
		cooldowns.quotas().record(KEY, reading(0, 30, 0, 0), T0);
		assertThat(cooldowns.isEmpty()).isFalse();

		cooldowns.endAll(KEY.origin());

		assertThat(cooldowns.isEmpty()).isTrue();
	}

	private Duration[] waits(long now, int count) {
		return waits(this.pacing, now, count);
	}

	// The holds of count first attempts asked for at now, null for one that goes at once.
	static Duration[] waits(RateLimitPacing pacing, long now, int count) {
		Duration[] waits = new Duration[count];
		for (int i = 0; i < count; i++) {
			Admission.Wait wait = pacing.admit(KEY, now, Duration.ZERO, BUDGET, RESERVE);
			if (wait != null) {
				assertThat(wait.reason()).isEqualTo(HoldReason.QUOTA);
			}
			waits[i] = (wait != null) ? wait.delay() : null;
		}
		return waits;
	}

	@Test
	void whenNoKeyOfAHostIsPacedThenARequestToItMayNotBePaced() {
		assertThat(this.pacing.mayPace("api.example.com")).isFalse();
		this.pacing.record(KEY, reading(4, 2, 10, 1), T0);

		assertThat(this.pacing.mayPace("api.example.com")).isTrue();
		assertThat(this.pacing.mayPace("API.Example.COM")).isTrue();
		assertThat(this.pacing.mayPace("other.example.com")).isFalse();
		// Without a host nothing can be told apart: yes, to be safe.
		assertThat(this.pacing.mayPace(null)).isTrue();
	}

	@Test
	void whenAnIpv6OriginIsPacedThenItsHostIsKnownWithOrWithoutBrackets() {
		this.pacing.record(CooldownKey.of(Origin.of("http", "::1", 8080)), reading(4, 2, 10, 1), T0);

		assertThat(this.pacing.mayPace("[::1]")).isTrue();
		assertThat(this.pacing.mayPace("::1")).isTrue();
		assertThat(this.pacing.mayPace("[::2]")).isFalse();
	}

	@Test
	void whenMoreKeysArePacedThanAreScannedThenEveryHostMayBePaced() {
		for (int i = 0; i <= RateLimitPacing.HOSTS_SCANNED; i++) {
			this.pacing.record(CooldownKey.of(Origin.of("https", "api" + i + ".example.com", 443)),
					reading(4, 2, 10, 1), T0);
		}

		assertThat(this.pacing.mayPace("other.example.com")).isTrue();
	}

	@Test
	void whenAQuotaIsFarFromSpentThenNobodyIsDelayed() {
		// GitHub's healthy quota: 5000 an hour, one used, the reset an hour away.
		this.pacing.record(KEY, reading(4999, 3600, 0, 0), T0);

		assertThat(waits(T0, 20)).containsOnlyNulls();
		for (int i = 1; i <= 20; i++) {
			this.pacing.record(KEY, reading(4999 - i, 3600, 0, 0), T0 + i * SECOND / 100);
		}
		assertThat(waits(T0 + SECOND / 2, 20)).containsOnlyNulls();
	}

	@Test
	void whenWhatIsLeftIsDownToTheFloorThenRequestsAreSpreadAgain() {
		// Two above the floor: two go at once, then one a second counted against the floor.
		this.pacing.record(KEY, reading(RateLimitSchedule.FREE_FLOOR + 2, 10, 0, 0), T0);

		Duration[] waits = waits(T0, 3);

		assertThat(waits[0]).isNull();
		assertThat(waits[1]).isNull();
		assertThat(waits[2]).isEqualTo(Duration.ofNanos(10 * SECOND / (RateLimitSchedule.FREE_FLOOR + 2)));
	}

	@Test
	void aRequestLetGoAtOnceWithoutASlotTakesTheShareAnAdmissionWouldHaveTaken() {
		assertThat(this.pacing.takeAtOnce(KEY, T0)).isTrue();
		this.pacing.record(KEY, reading(RateLimitSchedule.FREE_FLOOR + 2, 10, 0, 0), T0);

		// The two above the floor go at once, counted as the admission counts them.
		assertThat(this.pacing.takeAtOnce(KEY, T0)).isTrue();
		assertThat(this.pacing.takeAtOnce(KEY, T0)).isTrue();
		// The next needs a slot: nothing is taken, and the admission spreads it as before.
		assertThat(this.pacing.takeAtOnce(KEY, T0)).isFalse();
		assertThat(this.pacing.takeAtOnce(KEY, T0)).isFalse();
		assertThat(waits(T0, 1)[0]).isEqualTo(Duration.ofNanos(10 * SECOND / (RateLimitSchedule.FREE_FLOOR + 2)));
		assertThat(this.pacing.takeAtOnce(OTHER, T0)).isTrue();
	}

	@Test
	void aQuotaNearlySpentIsNeverLetGoAtOnceButOneWhoseReadingsNameTwoPartitionsIsNotPaced() {
		this.pacing.record(KEY, reading(3, 10, 0, 0), T0);
		assertThat(this.pacing.takeAtOnce(KEY, T0)).isFalse();
		CooldownKey partitioned = new CooldownKey(KEY.origin(), "0123456789abcdef0123456789abcdef");
		this.pacing.record(partitioned, partitioned(3, 10, "aaaaaaaaaaaaaaaa"), T0);
		this.pacing.record(partitioned, partitioned(3, 10, "bbbbbbbbbbbbbbbb"), T0);
		assertThat(this.pacing.takeAtOnce(partitioned, T0)).isTrue();
		assertThat(this.pacing.admit(partitioned, T0, Duration.ZERO, BUDGET, RESERVE)).isNull();
	}

	@Test
	void whenTheFreeRequestsOfTheLastSecondMayNotBeCountedYetThenTheyRaiseTheFloor() {
		this.pacing.record(KEY, reading(RateLimitSchedule.FREE_FLOOR + 10, 10, 0, 0), T0);
		assertThat(waits(T0, 5)).containsOnlyNulls();
		// The server's count has not seen those five yet: it says what it said before.
		this.pacing.record(KEY, reading(RateLimitSchedule.FREE_FLOOR + 10, 10, 0, 0), T0 + 1000);

		// 69 left by our count, and 64 + 5 must be: one more goes, then the floor holds.
		assertThat(waits(T0 + 2000, 2)[0]).isNull();
		assertThat(waits(T0 + 3000, 1)[0]).isNotNull();
	}

	@Test
	void whenASlotWouldLeaveLessThanHalfTheBudgetThenTheRequestGoesAsWithoutFields() {
		// r=0 until 5 s: a 5 s hold would leave a 10 s budget no room to retry a transient 503.
		this.pacing.record(KEY, reading(0, 5, 0, 0), T0);
		assertThat(this.pacing.admit(KEY, T0, Duration.ZERO, BUDGET, RESERVE)).isNull();

		// 4 s leaves 6 s, more than half of what is past the reserve: held.
		this.pacing.record(OTHER, reading(0, 4, 0, 0), T0);
		assertThat(this.pacing.admit(OTHER, T0, Duration.ZERO, BUDGET, RESERVE))
			.isEqualTo(new Admission.Wait(Duration.ofSeconds(4), HoldReason.QUOTA));
	}

	@Test
	void whenTheServerScopesAQuotaByPartitionKeyThenAnUnpartitionedKeyIsNotPacedByIt() {
		this.pacing.record(KEY, partitioned(0, 5, "aaaaaaaaaaaaaaaa"), T0);

		assertThat(this.pacing.isEmpty()).isTrue();
		assertThat(this.pacing.admit(KEY, T0, Duration.ZERO, BUDGET, RESERVE)).isNull();
	}

	@Test
	void whenAPartitionedKeyHearsTwoPartitionKeysThenItIsNotPacedUntilOneIsHeardAloneForTheQuietPeriod() {
		CooldownKey tenant = new CooldownKey(KEY.origin(), "0123456789abcdef0123456789abcdef");
		this.pacing.record(tenant, partitioned(0, 3, "aaaaaaaaaaaaaaaa"), T0);
		assertThat(this.pacing.admit(tenant, T0, Duration.ZERO, BUDGET, RESERVE)).isNotNull();

		this.pacing.record(tenant, partitioned(0, 3, "bbbbbbbbbbbbbbbb"), T0 + 1000);

		assertThat(this.pacing.admit(tenant, T0 + 2000, Duration.ZERO, BUDGET, RESERVE)).isNull();
		long later = T0 + 11 * SECOND;
		this.pacing.record(tenant, partitioned(0, 3, "bbbbbbbbbbbbbbbb"), later);
		assertThat(this.pacing.admit(tenant, later, Duration.ZERO, BUDGET, RESERVE)).isNotNull();
	}

	private static RateLimitReading partitioned(long remaining, long resetSeconds, String partitionKey) {
		return new RateLimitReading("p", remaining, Duration.ofSeconds(resetSeconds), 0, Duration.ZERO,
				RateLimitFields.IETF, partitionKey);
	}

	static RateLimitReading reading(long remaining, long resetSeconds, long quota, long windowSeconds) {
		return new RateLimitReading("p", remaining, Duration.ofSeconds(resetSeconds), quota,
				Duration.ofSeconds(windowSeconds), RateLimitFields.IETF);
	}

	private static Duration ms(long millis) {
		return Duration.ofMillis(millis);
	}

}
