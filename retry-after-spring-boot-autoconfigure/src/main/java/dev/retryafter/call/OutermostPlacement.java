package dev.retryafter.call;

import java.util.List;

/**
 * Puts an adapter's retry element (an interceptor, a filter) first in its client's list,
 * once: the customizers of every client adapter place theirs the same way (public for them,
 * not for applications).
 */
public final class OutermostPlacement {

	private OutermostPlacement() {
	}

	/**
	 * Moves (or adds) {@code element} to the front of {@code elements}. A list that already
	 * holds another element of {@code kind} is left alone: its owner configured retries
	 * explicitly, and retrying at two layers would multiply attempts.
	 * @param <T> the type of the list's elements
	 * @param elements the mutable list, outermost first
	 * @param element the adapter's retry element
	 * @param kind the type of the adapter's retry elements
	 */
	public static <T> void putFirst(List<T> elements, T element, Class<? extends T> kind) {
		for (T candidate : elements) {
			if (kind.isInstance(candidate) && candidate != element) {
				return;
			}
		}
		elements.removeIf((candidate) -> candidate == element);
		elements.add(0, element);
	}

}
