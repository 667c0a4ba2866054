package dev.retryafter.call;

import java.util.List;
import java.util.Objects;

import org.springframework.core.Ordered;

/**
 * What the customizers of every client adapter share (public for them, not for
 * applications): they put the adapter's retry element (an interceptor, a filter) first in its
 * client's list, once, and run after the application's own customizers
 * ({@link Ordered#LOWEST_PRECEDENCE}), so that it still ends up in front of the elements those
 * add.
 *
 * @param <T> the type of the list's elements
 */
public abstract class OutermostPlacement<T> implements Ordered {

	private final T element;

	private final Class<? extends T> kind;

	/**
	 * Creates a placement of {@code element}.
	 * @param element the adapter's retry element
	 * @param kind the type of the adapter's retry elements
	 */
	protected OutermostPlacement(T element, Class<? extends T> kind) {
		this.element = Objects.requireNonNull(element, "element");
		this.kind = Objects.requireNonNull(kind, "kind");
	}

	/**
	 * Moves (or adds) the element to the front of {@code elements}. A list that already holds
	 * another element of the same kind is left alone: its owner configured retries explicitly,
	 * and retrying at two layers would multiply attempts.
	 * @param elements the mutable list, outermost first
	 */
	protected final void putFirst(List<T> elements) {
		for (T candidate : elements) {
			if (this.kind.isInstance(candidate) && candidate != this.element) {
				return;
			}
		}
		elements.removeIf((candidate) -> candidate == this.element);
		elements.add(0, this.element);
	}

	/**
	 * Runs after the application's customizers.
	 * @return {@link Ordered#LOWEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
