package dev.retryafter.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.Sleeper;

/**
 * A {@link Sleeper} that records every requested wait and advances a {@link FakeClock} by it
 * instead of waiting. Honours the interrupt flag as a real sleep would.
 */
public final class RecordingSleeper implements Sleeper {

	private final FakeClock clock;

	private final List<Duration> sleeps = new ArrayList<>();

	/**
	 * Creates a sleeper that advances {@code clock}.
	 * @param clock the clock to advance
	 */
	public RecordingSleeper(FakeClock clock) {
		this.clock = clock;
	}

	@Override
	public synchronized void sleep(Duration duration) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("interrupted before sleeping");
		}
		this.sleeps.add(duration);
		this.clock.advance(duration);
	}

	/**
	 * Every wait requested so far, in order.
	 * @return the waits
	 */
	public synchronized List<Duration> sleeps() {
		return List.copyOf(this.sleeps);
	}

}
