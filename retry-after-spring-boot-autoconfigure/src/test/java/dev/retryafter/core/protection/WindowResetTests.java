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
		WindowReset reset = new WindowReset(R + 900 * MS);

		assertThat(reset.see(R + 950 * MS, TWO_SECONDS)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 900 * MS);
		assertThat(reset.see(R + 30 * MS, TWO_SECONDS)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 30 * MS);
		assertThat(reset.see(R + 990 * MS, TWO_SECONDS)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 30 * MS);
	}

	@Test
	void whenAnAnswerNamesAResetASecondOrMoreAwayThenItStartsANewWindow() {
		WindowReset reset = new WindowReset(R);

		assertThat(reset.see(R + TWO_SECONDS + 10 * MS, TWO_SECONDS)).isEqualTo(WindowReset.Seen.NEW);

		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 10 * MS);
	}

	@Test
	void whenTheLastWindowsAnswerComesAfterTheNextOnesThenItIsLateAndChangesNothing() {
		WindowReset reset = new WindowReset(R + 20 * MS);
		reset.see(R + TWO_SECONDS + 15 * MS, TWO_SECONDS);

		// Counted just before the reset, read 25 ms after it: t=1 names a second from then.
		assertThat(reset.see(R + SECOND + 25 * MS, TWO_SECONDS)).isEqualTo(WindowReset.Seen.LATE);
		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 15 * MS);
		// An exact reset (epoch seconds) names the last window's own.
		assertThat(reset.see(R + 20 * MS, 0)).isEqualTo(WindowReset.Seen.LATE);
		assertThat(reset.at()).isEqualTo(R + TWO_SECONDS + 15 * MS);
	}

	@Test
	void whenThisWindowsFirstAnswerCameLateInItThenALaterAnswerOfItIsNotTakenForTheLastWindows() {
		WindowReset reset = new WindowReset(R);
		// A quiet client: its first answer of the window came 900 ms into it, t=2.
		reset.see(R + 2900 * MS, TWO_SECONDS);

		// 1.2 s into the window, t=1: earlier by 0.7 s, but 2.2 s after the last reset.
		assertThat(reset.see(R + 2200 * MS, TWO_SECONDS)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + 2200 * MS);
	}

	@Test
	void whenTheWindowIsUnderTwoSecondsThenNoAnswerIsTakenForLate() {
		WindowReset reset = new WindowReset(R);
		reset.see(R + SECOND + 900 * MS, SECOND);

		assertThat(reset.see(R + SECOND + 10 * MS, SECOND)).isEqualTo(WindowReset.Seen.SAME);
		assertThat(reset.at()).isEqualTo(R + SECOND + 10 * MS);
	}

	@Test
	void whenThereWasNoWindowBeforeThenAnEarlierResetStartsANewWindow() {
		WindowReset reset = new WindowReset(R + 30 * SECOND);

		assertThat(reset.see(R + 10 * SECOND, TWO_SECONDS)).isEqualTo(WindowReset.Seen.NEW);
		assertThat(reset.at()).isEqualTo(R + 10 * SECOND);
	}

}
