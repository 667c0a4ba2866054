package dev.retryafter.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * What the {@link FailoverMonitor}'s samples say about one failover, in ms after the master
 * was killed ({@code -1} or {@code 0} where nothing was seen, as each method says).
 */
final class FailoverTimeline {

	private final List<FailoverMonitor.Sample> samples;

	private final long killedNanos;

	FailoverTimeline(List<FailoverMonitor.Sample> samples, long killedNanos) {
		this.samples = samples.stream()
			.filter((sample) -> sample.readings().get(0).nanos() - killedNanos >= 0)
			.toList();
		this.killedNanos = killedNanos;
	}

	/** The first sample that found the replica promoted, or -1. */
	long promoted() {
		for (FailoverMonitor.Sample sample : this.samples) {
			if (sample.promoted()) {
				return at(sample.readings().get(0));
			}
		}
		return -1;
	}

	/** The first reading in which the instance said it was not connected, or -1. */
	long firstNotConnected(int instance) {
		for (FailoverMonitor.Sample sample : this.samples) {
			FailoverMonitor.Reading reading = sample.readings().get(instance);
			if (!reading.connected()) {
				return at(reading);
			}
		}
		return -1;
	}

	/**
	 * The first reading of the last stretch in which the instance said it was connected, with
	 * a master, up to the last sample; -1 if it did not say so at the end.
	 */
	long connectedForGood(int instance) {
		long since = -1;
		for (FailoverMonitor.Sample sample : this.samples) {
			FailoverMonitor.Reading reading = sample.readings().get(instance);
			if (!reading.connected() || !sample.promoted()) {
				since = -1;
			}
			else if (since < 0) {
				since = at(reading);
			}
		}
		return since;
	}

	/**
	 * The last reading in which the instance said it was connected while there was no master
	 * (the replica not promoted yet: it is read after the instances), or 0.
	 */
	long lastConnectedWithoutMaster(int instance) {
		long last = 0;
		for (FailoverMonitor.Sample sample : this.samples) {
			FailoverMonitor.Reading reading = sample.readings().get(instance);
			if (reading.connected() && !sample.promoted()) {
				last = at(reading);
			}
		}
		return last;
	}

	/**
	 * The last reading in which the instance said it was connected and a later one said it was
	 * not: it had said so while it did not share (whether there was a master or not), or 0.
	 */
	long lastConnectedBeforeDrop(int instance) {
		long last = 0;
		long connected = -1;
		for (FailoverMonitor.Sample sample : this.samples) {
			FailoverMonitor.Reading reading = sample.readings().get(instance);
			if (reading.connected()) {
				connected = at(reading);
			}
			else if (connected >= 0) {
				last = connected;
			}
		}
		return last;
	}

	private long at(FailoverMonitor.Reading reading) {
		return Duration.ofNanos(reading.nanos() - this.killedNanos).toMillis();
	}

}
