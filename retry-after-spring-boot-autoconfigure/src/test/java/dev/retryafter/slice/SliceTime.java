package dev.retryafter.slice;

import java.time.Clock;

import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Sleeper;
import dev.retryafter.spi.CallTime;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.RecordingSleeper;

/**
 * The calls' time in the slice tests: a {@link FakeClock} that a {@link RecordingSleeper}
 * moves on by each wait, so a slice test waits for nothing and can say what was waited.
 */
final class SliceTime implements CallTime {

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	@Override
	public MonotonicClock monotonicClock() {
		return this.clock;
	}

	@Override
	public Clock wallClock() {
		return this.clock;
	}

	@Override
	public Sleeper sleeper() {
		return this.sleeper;
	}

	RecordingSleeper recordingSleeper() {
		return this.sleeper;
	}

}
