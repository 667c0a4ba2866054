package dev.retryafter.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;

/**
 * Brave's in-memory reporter for tests: keeps every finished span, as a tracer would export
 * it, in the order the spans finished.
 */
public final class InMemorySpans extends SpanHandler {

	private final List<MutableSpan> spans = new ArrayList<>();

	@Override
	public synchronized boolean end(TraceContext context, MutableSpan span, Cause cause) {
		if (cause == Cause.FINISHED) {
			this.spans.add(new MutableSpan(span));
		}
		return true;
	}

	/**
	 * The finished spans.
	 * @return a copy, in the order they finished
	 */
	public synchronized List<MutableSpan> all() {
		return List.copyOf(this.spans);
	}

	/**
	 * The finished spans that match.
	 * @param filter which spans
	 * @return a copy, in the order they started
	 */
	public synchronized List<MutableSpan> where(Predicate<MutableSpan> filter) {
		List<MutableSpan> matching = new ArrayList<>();
		for (MutableSpan span : this.spans) {
			if (filter.test(span)) {
				matching.add(span);
			}
		}
		matching.sort((a, b) -> Long.compare(a.startTimestamp(), b.startTimestamp()));
		return matching;
	}

	/**
	 * The finished spans of a name.
	 * @param name the span name
	 * @return a copy, in the order they started
	 */
	public List<MutableSpan> named(String name) {
		return where((span) -> name.equals(span.name()));
	}

}
