package dev.retryafter.core.protection;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WindowReset}: one window's answers name its reset late by up to a second,
 * and the last window's answers may come after the next one's.
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

}
