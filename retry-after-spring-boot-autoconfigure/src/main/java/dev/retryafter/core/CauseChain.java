package dev.retryafter.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * A failure and its causes, outermost first: the one walk of a cause chain that every adapter
 * and the store use to find what a failure wraps (an error response, an I/O failure, a
 * refusal). Bounded and cycle-safe: a chain that loops back on itself, or one deeper than
 * {@value #MAX_DEPTH} (real wrapping is a few levels), ends the walk instead of hanging it.
 *
 * @since 0.2.0
 */
public final class CauseChain {

	/** The most throwables a walk visits. */
	public static final int MAX_DEPTH = 16;

	private CauseChain() {
	}

	/**
	 * The failure and its causes, outermost first, each once.
	 * @param failure the outermost throwable, or {@code null}
	 * @return at most {@value #MAX_DEPTH} throwables; empty for {@code null}
	 */
	public static List<Throwable> of(@Nullable Throwable failure) {
		return of(failure, MAX_DEPTH);
	}

	/**
	 * The failure and its causes, outermost first, each once, at most {@code maxDepth} of them.
	 * @param failure the outermost throwable, or {@code null}
	 * @param maxDepth the most throwables to visit, at least 1
	 * @return at most {@code maxDepth} throwables; empty for {@code null}
	 */
	public static List<Throwable> of(@Nullable Throwable failure, int maxDepth) {
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		List<Throwable> chain = new ArrayList<>(4);
		for (Throwable current = failure; current != null && chain.size() < maxDepth
				&& seen.add(current); current = current.getCause()) {
			chain.add(current);
		}
		return chain;
	}

	/**
	 * The outermost throwable of the chain that is a {@code type}.
	 * @param <T> the type looked for
	 * @param failure the outermost throwable, or {@code null}
	 * @param type the type looked for
	 * @return the throwable, or {@code null} when none is
	 */
	public static <T extends Throwable> @Nullable T find(@Nullable Throwable failure, Class<T> type) {
		for (Throwable candidate : of(failure)) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
		}
		return null;
	}

	/**
	 * The innermost throwable of the chain: what the failure is at its root.
	 * @param failure the outermost throwable
	 * @return the last throwable the walk reaches
	 */
	public static Throwable root(Throwable failure) {
		List<Throwable> chain = of(failure);
		return chain.get(chain.size() - 1);
	}

}
