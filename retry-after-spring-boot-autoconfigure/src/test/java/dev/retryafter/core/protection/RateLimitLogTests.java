package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.header.RateLimitReading;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the window log of {@link RateLimitPacing} ({@link RateLimitPacing#logWindows},
 * on where a fleet's schedule counts every request): at most {@code q} in any {@code w / 0.99},
 * so a fixed window's allowance goes at its reset; spread again after a refusal. On a fake
 * monotonic clock near the end of the long range.
 */
class RateLimitLogTests {

	private static final CooldownKey KEY = RateLimitPacingTests.KEY;

	private static final CooldownKey OTHER = RateLimitPacingTests.OTHER;

	private static final long SECOND = RateLimitPacingTests.SECOND;

	private static final long MS = RateLimitPacingTests.MS;

	private static final long T0 = RateLimitPacingTests.T0;

	private final RateLimitPacing pacing = new RateLimitPacing(100);

	@BeforeEach
	void logWindows() {
		this.pacing.logWindows(true);
	}

	@Test
	void whenAFleetSpreadsSlotsBeforeTheResetThenItGetsTheFewestCountLeftAndHowLongAgoItsRequestWent() {
		this.pacing.record(KEY, reading(9, 2, 20, 2), true, 300 * MS, T0);
		assertCounted(T0 + 100 * MS, 9, 400 * MS);

		// A later answer counting fewer is the fewest; one counting more is not.
		this.pacing.record(KEY, reading(6, 2, 20, 2), true, 200 * MS, T0 + 50 * MS);
		this.pacing.record(KEY, reading(8, 2, 20, 2), true, 10 * MS, T0 + 60 * MS);
		assertCounted(T0 + 100 * MS, 6, 250 * MS);

		// A count whose request's round trip is not known says nothing of the slots it holds:
		// the one before still bounds the window. In the next window, nothing does.
		this.pacing.record(KEY, reading(5, 2, 20, 2), T0 + 70 * MS);
		assertCounted(T0 + 100 * MS, 6, 250 * MS);
		this.pacing.record(KEY, reading(15, 2, 20, 2), T0 + 1500 * MS);
		assertCounted(T0 + 1600 * MS, -1, 0);
	}

	@Test
	void whenAFleetAsksWithAReadingTakenBeforeTheCountsRequestWentThenItWentJustNow() {
		// Another thread's answer came in after this caller read the clock.
		this.pacing.record(KEY, reading(9, 2, 20, 2), true, 10 * MS, T0 + 100 * MS);

		assertCounted(T0, 9, 0);
	}

	@Test
	void whenTheWindowsSlotsAreNotSpreadThenNoCountIsGiven() {
		this.pacing.record(KEY, reading(0, 2, 20, 2), true, 300 * MS, T0);

		assertCounted(T0 + 100 * MS, -1, 0);
	}

	private void assertCounted(long nowNanos, long left, long agoNanos) {
		QuotaSpacing spacing = this.pacing.spacing(KEY, nowNanos);
		assertThat(spacing.leftBeforeReset()).isEqualTo(left);
		assertThat(spacing.leftCountedAgo()).isEqualTo(Duration.ofNanos(agoNanos));
	}

	@Test
	void whenWindowsAreNotLoggedThenTheAllowanceAfterAResetIsSpread() {
		this.pacing.logWindows(false);
		this.pacing.record(KEY, reading(0, 1, 4, 1), T0);
		long interval = (long) (2.5e8 / RateLimitSchedule.SHARE);

		assertThat(waits(T0, 2)).containsExactly(Duration.ofNanos(SECOND + interval),
				Duration.ofNanos(SECOND + 2 * interval));
		assertThat(this.pacing.spacing(KEY, T0).logs()).isFalse();
		assertThat(this.pacing.logsWindows()).isFalse();
	}

	@Test
	void whenAFleetAsksHowToSpaceItsSlotsThenItGetsTheLogToo() {
		this.pacing.record(KEY, reading(2, 4, 10, 1), T0);
		Duration rate = Duration.ofNanos((long) (1e8 / RateLimitSchedule.SHARE));
		Duration span = Duration.ofNanos((long) (1e9 / RateLimitSchedule.SHARE));

		assertThat(this.pacing.spacing(KEY, T0 + SECOND))
			.isEqualTo(new QuotaSpacing(Duration.ofSeconds(2), rate, Duration.ofSeconds(3), 10, span,
					QuotaSpacing.UNBOUNDED, Duration.ofSeconds(1)));
	}

	@Test
	void whenAFixedWindowResetsThenItsAllowanceGoesAtOnceAndTheNextOneSpanAfterTheFirst() {
		// Four per second, nothing left until the reset a second away.
		this.pacing.record(KEY, reading(0, 1, 4, 1), T0);
		long interval = (long) (2.5e8 / RateLimitSchedule.SHARE);
		long span = (long) (1e9 / RateLimitSchedule.SHARE);

		Duration first = Duration.ofNanos(SECOND + interval);
		Duration next = Duration.ofNanos(SECOND + interval + span);
		assertThat(waits(T0, 6)).containsExactly(first, first, first, first, next, next);
	}

	@Test
	void whenTheLogHasSeenAWindowThenANewWindowsCountGoesAtOnceNotSpread() {
		this.pacing.record(KEY, reading(0, 1, 4, 1), T0);
		long interval = (long) (2.5e8 / RateLimitSchedule.SHARE);
		assertThat(waits(T0, 2)).containsOnly(Duration.ofNanos(SECOND + interval));

		// A new window says two remain until its reset a second away: both go now, and the
		// next waits for that reset (the log has room by then).
		long later = T0 + 1300 * MS;
		this.pacing.record(KEY, reading(2, 1, 4, 1), later);

		assertThat(waits(later, 3)).containsExactly(null, null, Duration.ofSeconds(1));
	}

	@Test
	void whenTheLogHasSeenAWindowThenAFleetIsToldItPacesAlone() {
		this.pacing.record(KEY, reading(0, 1, 4, 1), T0);
		// Before a slot past the reset, the count it has is spread (or waited for): not alone.
		assertThat(this.pacing.spacing(KEY, T0).logAlone()).isFalse();
		waits(T0, 2);

		assertThat(this.pacing.spacing(KEY, T0).logAlone()).isTrue();
		// A refusal: spread again, without the log.
		this.pacing.crowded(KEY, T0);
		assertThat(this.pacing.spacing(KEY, T0).logAlone()).isFalse();
	}

	@Test
	void whenTheOriginRefusedARequestThenSlotsAreSpreadForTheQuietPeriodAndThenTheLogPacesAgain() {
		this.pacing.record(KEY, reading(0, 1, 4, 1), T0);
		long interval = (long) (2.5e8 / RateLimitSchedule.SHARE);
		this.pacing.crowded(KEY, T0);

		// Others spend the quota too: one every w / q / 0.99 after the reset, as without a log.
		assertThat(waits(T0, 3)).containsExactly(Duration.ofNanos(SECOND + interval),
				Duration.ofNanos(SECOND + 2 * interval), Duration.ofNanos(SECOND + 3 * interval));
		assertThat(this.pacing.spacing(KEY, T0).logs()).isFalse();

		// Still spread just before the quiet period ends.
		long quiet = T0 + 9 * SECOND;
		this.pacing.record(KEY, reading(0, 1, 4, 1), quiet);
		assertThat(this.pacing.spacing(KEY, quiet).logs()).isFalse();

		// The quiet period on (10 s), without another refusal: the next window's four go together.
		long later = T0 + 11 * SECOND;
		this.pacing.record(KEY, reading(0, 1, 4, 1), later);
		assertThat(waits(later, 4)).containsOnly(Duration.ofNanos(SECOND + interval));
		assertThat(this.pacing.spacing(KEY, later).logs()).isTrue();
	}

	@Test
	void whenAKeyHasNoQuotaThenARefusalUnderItChangesNothing() {
		this.pacing.crowded(OTHER, T0);

		assertThat(this.pacing.spacing(OTHER, T0)).isEqualTo(QuotaSpacing.NONE);
	}

	@Test
	void whenARequestWentOutsideTheSlotsThenTheWindowsCountIsSpreadAgain() {
		this.pacing.record(KEY, reading(0, 1, 100, 1), T0);
		assertThat(waits(T0, 1)).doesNotContainNull();
		// A new window far from spent: a request goes at once, outside the slots (and the
		// fleet's log), so the log no longer holds all this window's requests.
		long later = T0 + 1300 * MS;
		this.pacing.record(KEY, reading(70, 1, 100, 1), later);
		assertThat(waits(later, 1)).containsOnlyNulls();
		this.pacing.record(KEY, reading(10, 1, 100, 1), later);

		// Ten left for a second: one every 100 ms, not all at once.
		assertThat(waits(later, 2)).containsExactly(null, ms(100));
	}

	@Test
	void whenNoWindowWasLoggedYetThenWhatIsLeftIsStillSpreadOverTheReset() {
		// The requests sent before this count may still be arriving: spread, as before.
		this.pacing.record(KEY, reading(2, 1, 4, 1), T0);

		assertThat(waits(T0, 2)).containsExactly(ms(500), ms(1000));
	}


	@Test
	void whenTheWindowBeforesAnswerComesLastThenTheResetAndItsBoundsStayThisWindows() {
		// Logged: a first burst spanning a window's end at T0. The next window's answer (t=2,
		// 15 left) read 260 ms after its request, then the one counted 1 ms before T0 (t=1, 19
		// left) read 255 ms after its own. Taken for one window's, they made the reset 1.25 s
		// after T0, bounded to a bracket 0.25 s wide, and the fleet sent what the next window
		// had left there, a second early.
		this.pacing.record(KEY, reading(15, 2, 20, 2), true, 260 * MS, T0 + 10 * MS);
		this.pacing.record(KEY, reading(19, 1, 20, 2), true, 255 * MS, T0 + 250 * MS);

		QuotaSpacing spacing = this.pacing.spacing(KEY, T0 + 250 * MS);
		assertThat(spacing.resetIn()).isEqualTo(Duration.ofMillis(1760));
		// The reset lies after the next window's request went plus a second.
		assertThat(spacing.resetLateBy()).isEqualTo(Duration.ofMillis(1260));
	}

	private Duration[] waits(long now, int count) {
		return RateLimitPacingTests.waits(this.pacing, now, count);
	}

	private static RateLimitReading reading(long remaining, long resetSeconds, long quota, long windowSeconds) {
		return RateLimitPacingTests.reading(remaining, resetSeconds, quota, windowSeconds);
	}

	private static Duration ms(long millis) {
		return Duration.ofMillis(millis);
	}

}
