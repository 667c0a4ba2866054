package dev.retryafter.call;

import java.io.IOException;

import dev.retryafter.core.CauseChain;
import org.jspecify.annotations.Nullable;

/**
 * Remembers, on the calling thread, that the blocking client adapter ended its last call
 * after spending its own retries (or after the planner stopped them for good), so that a
 * retry layer around the client on the same policy does not retry that failure again: a
 * plain {@code new RetryTemplate(retryAfterRetryPolicy)} sees no hook before its first
 * attempt, so without this note its attempts would multiply the interceptor's.
 * <p>
 * A response cannot carry a mark of its own (the client builds its exception from a copy of
 * the status, headers and body), so the note holds the status the call ended with, and, for
 * an I/O failure, the exception itself. Each call through the interceptor clears the note
 * first, and reading it clears it too: a note never outlives the failure it is about.
 *
 * @since 0.3.0
 */
public final class AttemptsSpent {

	private static final ThreadLocal<@Nullable Note> LAST = new ThreadLocal<>();

	private AttemptsSpent() {
	}

	/**
	 * Forgets the previous call's note, as a new call starts on this thread.
	 */
	public static void clear() {
		if (LAST.get() != null) {
			LAST.remove();
		}
	}

	/**
	 * Notes that the call ended with a response of this status, its retries spent.
	 * @param status the status handed to the caller
	 */
	public static void responded(int status) {
		LAST.set(new Note(status, null));
	}

	/**
	 * Notes that the call ended with this failure, its retries spent.
	 * @param failure what the call threw
	 */
	public static void failed(IOException failure) {
		LAST.set(new Note(-1, failure));
	}

	/**
	 * Whether the failure an outer layer caught is the one the last call on this thread
	 * noted; the note is cleared either way.
	 * @param failure what the outer layer caught
	 * @param status the status of the error response in it, or {@code -1} when it holds none
	 * @return {@code true} if the client adapter already spent the retries for it
	 */
	public static boolean take(Throwable failure, int status) {
		Note note = LAST.get();
		if (note == null) {
			return false;
		}
		LAST.remove();
		if (note.failure() == null) {
			return status >= 0 && status == note.status();
		}
		// Throwables are equal only to themselves: this asks whether the note's is in the chain.
		return CauseChain.of(failure).contains(note.failure());
	}

	private record Note(int status, @Nullable IOException failure) {
	}

}
