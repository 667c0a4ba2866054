package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WindowReset}: one window's answers name its reset late by up to a second,
 * the last window's answers may come after the next one's, and the draft's answers, with their
 * round trips, bound how late.
 */
class WindowResetTests {

	private static final long SECOND = 1_000_000_000L;

	private static final long MS = 1_000_000L;

	// Near the end of the long range: every comparison is by difference.
	private static final long R = Long.MAX_VALUE - 2 * SECOND;

	private static final long TWO_SECONDS = 2 * SECOND;

	@Test
	void whenAnswersOfOneWindowNameItsResetWithinASecondThenTheEarliestStands() {
		WindowReset reset = new WindowReset(R + 900 * MS, 10);

		assertThat(reset.see(R + 950 * MS, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 900 * MS);
		assertThat(reset.see(R + 30 * MS, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 30 * MS);
		assertThat(reset.see(R + 990 * MS, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 30 * MS);
	}

	@Test
	void whenAnAnswerNamesAResetASecondOrMoreAwayThenItStartsANewWindow() {
		WindowReset reset = new WindowReset(R, 10);

		assertThat(reset.see(R + TWO_SECONDS + 10 * MS, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.NEW);

		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 10 * MS);
	}

	@Test
	void whenTheLastWindowsAnswerComesAfterTheNextOnesThenItIsLateAndChangesNothing() {
		WindowReset reset = new WindowReset(R + 20 * MS, 10);
		reset.see(R + TWO_SECONDS + 15 * MS, TWO_SECONDS, 9);

		// Counted just before the reset, read 25 ms after it: t=1 names a second from then.
		assertThat(reset.see(R + SECOND + 25 * MS, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.LATE);
		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 15 * MS);
		// An exact reset (epoch seconds) names the last window's own.
		assertThat(reset.see(R + 20 * MS, 0, 9)).isEqualTo(WindowReset.Seen.LATE);
		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 15 * MS);
	}

	@Test
	void whenThisWindowsFirstAnswerCameLateInItThenALaterAnswerOfItIsNotTakenForTheLastWindows() {
		WindowReset reset = new WindowReset(R, 10);
		// A quiet client: its first answer of the window came 900 ms into it, t=2.
		reset.see(R + 2900 * MS, TWO_SECONDS, 9);

		// 1.2 s into the window, t=1: earlier by 0.7 s, but 2.2 s after the last reset.
		assertThat(reset.see(R + 2200 * MS, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 2200 * MS);
	}

	@Test
	void whenTheWindowIsUnderTwoSecondsThenNoAnswerIsTakenForLate() {
		WindowReset reset = new WindowReset(R, 10);
		reset.see(R + SECOND + 900 * MS, SECOND, 9);

		assertThat(reset.see(R + SECOND + 10 * MS, SECOND, 9)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + SECOND + 10 * MS);
	}

	@Test
	void whenThereWasNoWindowBeforeThenAnEarlierResetStartsANewWindow() {
		WindowReset reset = new WindowReset(R + 30 * SECOND, 10);

		assertThat(reset.see(R + 10 * SECOND, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.NEW);
		assertThat(reset.at()).isEqualTo(R + 10 * SECOND);
	}

	@Test
	void whenTheLastWindowsAnswersCameBackSlowlyThenTheNextWindowsAnswerWithMoreLeftIsNew() {
		// Counted 30 ms before the reset, t=1, read 170 ms later: it names the reset at 1.14 s.
		WindowReset reset = new WindowReset(R + 1140 * MS, 8);

		// Counted 1.2 s into the next window, t=1, read at once: 0.95 s later, and more left.
		assertThat(reset.see(R + 2090 * MS, TWO_SECONDS, 13)).isEqualTo(WindowReset.Seen.NEW);
		assertThat(reset.at()).isEqualTo(R + 2090 * MS);
		// The window's answers after it count down from there.
		assertThat(reset.see(R + 2095 * MS, TWO_SECONDS, 12)).isEqualTo(WindowReset.Seen.SAME);
	}

	@Test
	void whenAnAnswerOfOneWindowCameBackOutOfOrderThenItStaysInTheWindow() {
		WindowReset reset = new WindowReset(R + 30 * MS, 10);

		// Counted before the answer that said 10, read after it: more left, a reset just after.
		assertThat(reset.see(R + 45 * MS, TWO_SECONDS, 11)).isEqualTo(WindowReset.Seen.SAME);
		// Less left, a reset 0.95 s later (the whole seconds turned over): the same window.
		assertThat(reset.see(R + 980 * MS, TWO_SECONDS, 9)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 30 * MS);
		// More than the least the window counted, 0.6 s later: the next window's.
		assertThat(reset.see(R + 630 * MS, TWO_SECONDS, 10)).isEqualTo(WindowReset.Seen.NEW);
	}

	@Test
	void whenAnAnswerCountingMoreIsReadBeforeTheWindowsBoundThenItStaysInTheWindow() {
		// The window's first answer, read just after its whole seconds turned: t=2 read 100 ms
		// after the request went, so the reset lies after R - 1.1 s, and names it close.
		WindowReset reset = new WindowReset(R, 10);
		reset.bound(draft(2), 100 * MS, R - 2 * SECOND);

		// A burst's answers 0.6 s later, out of order: more left than the least, a reset named
		// 0.6 s later, read at R - 1.4 s, before the bound. The next window's would be read
		// after this window's reset, so after the bound: this one is this window's.
		assertThat(reset.see(R + 600 * MS, TWO_SECONDS, 11, R - 1400 * MS, false)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R);
		assertThat(reset.lateBy()).isEqualTo(1100 * MS);

		// The same answer read after the bound may be the next window's, as before.
		assertThat(reset.see(R + 600 * MS, TWO_SECONDS, 11, R - 1000 * MS, false)).isEqualTo(WindowReset.Seen.NEW);
	}

	@Test
	void whenNoAnswerBoundsTheWindowThenWhenAnAnswerWasReadDoesNotMatter() {
		WindowReset reset = new WindowReset(R, 10);

		assertThat(reset.see(R + 600 * MS, TWO_SECONDS, 11, R - 1400 * MS, false)).isEqualTo(WindowReset.Seen.NEW);
	}

	@Test
	void whenTheDraftsAnswersBoundTheResetThenItMayBeLateByTheResetLessTheLatestBound() {
		long readAt = R - 2 * SECOND;
		WindowReset reset = new WindowReset(readAt + 2 * SECOND, 10);
		// t=2 read 100 ms after the request went: the server's now was no earlier than that, so
		// the reset lies after the send plus a second.
		reset.bound(draft(2), 100 * MS, readAt);
		assertThat(reset.lateBy()).isEqualTo(1100 * MS);

		// Half a second later t=1 names a reset 0.5 s earlier; its own bound is no later.
		assertThat(reset.see(R - 500 * MS, TWO_SECONDS, 8)).isEqualTo(WindowReset.Seen.SAME);
		reset.bound(draft(1), 50 * MS, R - 1500 * MS);
		assertThat(reset.lateBy()).isEqualTo(600 * MS);

		// t=1 again 0.95 s after the first, 10 ms after its request went: a later bound.
		assertThat(reset.see(R - 50 * MS, TWO_SECONDS, 7)).isEqualTo(WindowReset.Seen.SAME);
		reset.bound(draft(1), 10 * MS, R - 1050 * MS);
		assertThat(reset.lateBy()).isEqualTo(560 * MS);
	}

	@Test
	void whenNoAnswerBoundsTheResetThenHowLateItMayBeIsNotKnown() {
		WindowReset reset = new WindowReset(R, 10);
		assertThat(reset.lateBy()).isEqualTo(-1);
		// The round trip not known, or a dialect naming an instant on the server's wall clock.
		reset.bound(draft(2), -1, R - 2 * SECOND);
		reset.bound(new RateLimitReading("p", 9, Duration.ofSeconds(2), 10, Duration.ofSeconds(2),
				RateLimitFields.GITHUB), 100 * MS, R - 2 * SECOND);

		assertThat(reset.lateBy()).isEqualTo(-1);
	}

	@Test
	void whenTheNextWindowBeginsThenItEndsNoEarlierThanAWindowAfterTheLastOnesBound() {
		WindowReset reset = new WindowReset(R - TWO_SECONDS, 10);
		reset.bound(draft(1), 10 * MS, R - 2200 * MS);
		assertThat(reset.lateBy()).isEqualTo(210 * MS);

		// The next window's first answer names a reset 2.3 s later, and bounds it no closer
		// than the last window's bound plus a window.
		assertThat(reset.see(R + 300 * MS, TWO_SECONDS, 19)).isEqualTo(WindowReset.Seen.NEW);
		reset.bound(draft(2), 10 * MS, R - 1700 * MS);
		assertThat(reset.lateBy()).isEqualTo(510 * MS);
	}

	@Test
	void whenASlowAnswerCountingNoMoreLeftStartsANewWindowThenTheLastBoundIsForgotten() {
		WindowReset reset = new WindowReset(R, 9);
		reset.bound(draft(2), 100 * MS, R - 2 * SECOND);

		// A reset 1.2 s later, with less left: this window's answer that came back slowly.
		assertThat(reset.see(R + 1200 * MS, TWO_SECONDS, 8)).isEqualTo(WindowReset.Seen.NEW);
		assertThat(reset.lateBy()).isEqualTo(-1);
	}

	@Test
	void whenAResetNamedLessThanAWindowLaterStartsANewWindowThenTheLastBoundIsForgotten() {
		WindowReset reset = new WindowReset(R, 9);
		reset.bound(draft(2), 100 * MS, R - 2 * SECOND);
		assertThat(reset.lateBy()).isEqualTo(1100 * MS);

		// More left, 0.6 s later: taken for the next window, though it may be this one's.
		assertThat(reset.see(R + 600 * MS, TWO_SECONDS, 10)).isEqualTo(WindowReset.Seen.NEW);
		assertThat(reset.lateBy()).isEqualTo(-1);
	}

	@Test
	void whenABoundFallsAfterTheResetNamedThenTheyDisagreeAndHowLateIsNotKnown() {
		WindowReset reset = new WindowReset(R, 10);
		// t=2 read 0.5 s before the reset kept: the answers do not describe one window.
		reset.bound(draft(2), 0, R - 500 * MS);

		assertThat(reset.lateBy()).isEqualTo(-1);
	}

	@Test
	void whenTheWindowBeforesAnswerComesAfterThisOnesFirstThenItIsLateThoughNoLastWindowIsKnown() {
		// A first burst that spans a window's end (at R): the next window's answer, t=2 read
		// 260 ms after its request went, comes back first.
		WindowReset reset = new WindowReset(R + TWO_SECONDS + 10 * MS, 15);
		reset.bound(draft(2), 260 * MS, R + 10 * MS);
		long lateBy = reset.lateBy();

		// The window before's, counted 1 ms before R and read 250 ms after it: t=1 names a
		// reset a second before, with more left. This window's, counted after the others, would
		// count fewer.
		assertThat(reset.see(R + 1250 * MS, TWO_SECONDS, 19, R + 250 * MS, false)).isEqualTo(WindowReset.Seen.LATE);
		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 10 * MS);
		assertThat(reset.lateBy()).isEqualTo(lateBy);
		// The window before's next answer counts fewer, and is taken for late by its reset.
		assertThat(reset.see(R + 1100 * MS, TWO_SECONDS, 12, R + 100 * MS, false)).isEqualTo(WindowReset.Seen.LATE);
		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 10 * MS);
		// This window's, counted after its whole seconds turned: the reset it names stands.
		assertThat(reset.see(R + TWO_SECONDS, TWO_SECONDS, 3, R + SECOND, false)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS);
	}

	@Test
	void whenAnAnswerNamingAResetASecondEarlierCountsFewerLeftThenItIsThisWindowsAndItsResetStands() {
		WindowReset reset = new WindowReset(R + 950 * MS, 15);

		// Counted after the whole seconds turned: t one less, and fewer left.
		assertThat(reset.see(R + 20 * MS, TWO_SECONDS, 14, R - 980 * MS, false)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 20 * MS);
	}

	@Test
	void whenTheOriginRefillsThenAnEarlierResetWithMoreLeftIsThisWindows() {
		WindowReset reset = new WindowReset(R + 950 * MS, 15);

		// A bucket counts more as it refills, and its "full again" comes closer.
		assertThat(reset.see(R + 20 * MS, TWO_SECONDS, 17, R - 980 * MS, true)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 20 * MS);
	}

	@Test
	void whenNothingWasLeftThenAnEarlierResetIsThisWindowsWhateverItCounts() {
		// A refusal counts nothing left, and so may any answer after it in the same window.
		WindowReset reset = new WindowReset(R + 950 * MS, 0);

		assertThat(reset.see(R + 20 * MS, TWO_SECONDS, 0, R - 980 * MS, false)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 20 * MS);
	}

	private static RateLimitReading draft(long t) {
		return new RateLimitReading("p", 9, Duration.ofSeconds(t), 10, Duration.ofSeconds(2), RateLimitFields.IETF);
	}

}
