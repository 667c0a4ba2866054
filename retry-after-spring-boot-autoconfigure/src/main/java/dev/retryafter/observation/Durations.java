package dev.retryafter.observation;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * Durations as key values: ISO-8601 to the millisecond ({@code PT1.096S}), which a trace
 * viewer shows as written and any language parses; nanoseconds of a monotonic reading would
 * only be noise.
 */
final class Durations {

	private Durations() {
	}

	static String text(Duration duration) {
		return duration.truncatedTo(ChronoUnit.MILLIS).toString();
	}

}
