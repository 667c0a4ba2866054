package dev.retryafter.call;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bytes every call of the application keeps on the heap for a retry, bounded in total:
 * the copy of a response kept while its call waits (so the connection goes back to the pool),
 * and the recorded body of a {@code WebClient} request that a retry sends again. Each is
 * bounded per call already ({@link RetryCall#BODY_COPY_LIMIT}, 256 KiB for a request body);
 * this bounds their sum, so that thousands of calls waiting behind hostile bodies cannot
 * hold hundreds of megabytes.
 * <p>
 * A call {@link #reserve reserves} the bytes before it keeps them and {@link #release releases}
 * them when it no longer needs them, on every path. A body that does not fit is simply not
 * kept: the call goes on as it does when the body is over its own limit (a response copy
 * that cannot stand in for the original, a request body that cannot be sent again), and the
 * refusal is counted. One instance is shared by every adapter of an application.
 *
 * @since 0.1.0
 */
public final class RecordedBytes {

	/** The default total: 32 MiB. */
	public static final long DEFAULT_MAX = 32L * 1024 * 1024;

	private final long max;

	private final AtomicLong held = new AtomicLong();

	private final LongAdder requestsNotRecorded = new LongAdder();

	private final LongAdder responsesNotRecorded = new LongAdder();

	/**
	 * Creates the bound.
	 * @param max the most bytes kept at once, across every call; {@code 0} keeps none
	 * @throws IllegalArgumentException if {@code max} is negative
	 */
	public RecordedBytes(long max) {
		if (max < 0) {
			throw new IllegalArgumentException("max must not be negative: " + max);
		}
		this.max = max;
	}

	/**
	 * Takes {@code bytes} from what is left, if they fit.
	 * @param bytes the bytes about to be kept
	 * @return whether they were taken; if not, nothing was
	 */
	public boolean reserve(long bytes) {
		if (bytes <= 0) {
			return true;
		}
		long now;
		do {
			now = this.held.get();
			if (bytes > this.max - now) {
				return false;
			}
		}
		while (!this.held.compareAndSet(now, now + bytes));
		return true;
	}

	/**
	 * Gives back bytes {@link #reserve reserved} earlier.
	 * @param bytes the bytes no longer kept
	 */
	public void release(long bytes) {
		if (bytes > 0) {
			this.held.addAndGet(-bytes);
		}
	}

	/**
	 * Counts a body that was not kept because the total was reached.
	 * @param request {@code true} for a request body, {@code false} for a response copy
	 */
	public void notRecorded(boolean request) {
		(request ? this.requestsNotRecorded : this.responsesNotRecorded).increment();
	}

	/**
	 * The bytes kept now, across every call.
	 * @return the bytes reserved and not yet released
	 */
	public long held() {
		return this.held.get();
	}

	/**
	 * The most bytes kept at once.
	 * @return the bound
	 */
	public long max() {
		return this.max;
	}

	/**
	 * The bodies not kept because the total was reached, since start-up.
	 * @param request {@code true} for request bodies, {@code false} for response copies
	 * @return the count
	 */
	public long notRecordedCount(boolean request) {
		return (request ? this.requestsNotRecorded : this.responsesNotRecorded).sum();
	}

}
