package dev.retryafter.sample;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * Shows traces without a tracing backend: Brave hands each finished span here, and when a
 * trace's root span ends (the incoming request), the whole trace is logged as a tree and kept
 * for {@code GET /demo/traces}. Only traces with an outgoing call are shown, so the actuator
 * and this endpoint's own requests stay out of the way. A real application exports spans to
 * Zipkin or an OpenTelemetry collector instead.
 */
@Component
class TraceLog extends SpanHandler {

	private static final Log logger = LogFactory.getLog(TraceLog.class);

	/** Traces kept for the endpoint. */
	private static final int RECENT = 10;

	/** Spans kept while their trace is open; the oldest traces go first beyond it. */
	private static final int MAX_OPEN_SPANS = 2000;

	/** The tags worth reading in a tree: what each attempt got and decided, and each wait. */
	private static final List<String> SHOWN_TAGS = List.of("status", "decision", "http.request.resend_count",
			"retry.after", "retry.delay.planned", "retry.delay.actual", "uri");

	/** The tags whose value is a duration. */
	private static final Set<String> DURATION_TAGS = Set.of("retry.after", "retry.delay.planned",
			"retry.delay.actual");

	private final Map<String, List<MutableSpan>> open = new LinkedHashMap<>();

	private final Deque<String> recent = new ArrayDeque<>();

	private int openSpans;

	@Override
	public boolean end(TraceContext context, MutableSpan span, Cause cause) {
		if (cause != Cause.FINISHED) {
			return true;
		}
		String tree = add(new MutableSpan(span));
		if (tree != null) {
			logger.info("Trace " + span.traceId() + ":\n" + tree);
		}
		return true;
	}

	/**
	 * The most recent traces, newest first.
	 * @return each trace as a tree of spans
	 */
	synchronized List<String> recent() {
		return List.copyOf(this.recent);
	}

	private synchronized String add(MutableSpan span) {
		this.open.computeIfAbsent(span.traceId(), (id) -> new ArrayList<>()).add(span);
		this.openSpans++;
		if (span.parentId() != null) {
			trim();
			return null;
		}
		List<MutableSpan> spans = this.open.remove(span.traceId());
		this.openSpans -= spans.size();
		if (spans.stream().noneMatch((each) -> each.kind() == brave.Span.Kind.CLIENT)) {
			return null;
		}
		String tree = render(spans, span);
		this.recent.addFirst(tree);
		while (this.recent.size() > RECENT) {
			this.recent.removeLast();
		}
		return tree;
	}

	private void trim() {
		var traces = this.open.entrySet().iterator();
		while (this.openSpans > MAX_OPEN_SPANS && traces.hasNext()) {
			this.openSpans -= traces.next().getValue().size();
			traces.remove();
		}
	}

	private static String render(List<MutableSpan> spans, MutableSpan root) {
		StringBuilder out = new StringBuilder();
		render(out, spans, root, "", "", root.startTimestamp());
		return out.toString();
	}

	private static void render(StringBuilder out, List<MutableSpan> spans, MutableSpan span, String indent,
			String branch, long origin) {
		out.append(indent)
			.append(branch)
			.append(span.name())
			.append("  +")
			.append(millis(span.startTimestamp() - origin))
			.append("ms, ")
			.append(millis(span.finishTimestamp() - span.startTimestamp()))
			.append("ms");
		for (String key : SHOWN_TAGS) {
			String value = span.tag(key);
			if (value != null) {
				out.append("  ").append(key).append('=').append(DURATION_TAGS.contains(key) ? millis(value) : value);
			}
		}
		out.append('\n');
		List<MutableSpan> children = spans.stream()
			.filter((child) -> span.id().equals(child.parentId()))
			.sorted(Comparator.comparingLong(MutableSpan::startTimestamp))
			.toList();
		String childIndent = indent + (branch.isEmpty() ? "" : branch.startsWith("└") ? "   " : "│  ");
		for (int i = 0; i < children.size(); i++) {
			render(out, spans, children.get(i), childIndent, (i == children.size() - 1) ? "└─ " : "├─ ", origin);
		}
	}

	private static long millis(long micros) {
		return Math.round(micros / 1000.0);
	}

	/**
	 * A duration tag (ISO-8601 on the span, for tracing backends) as the log lines and the
	 * endpoint write one here: {@code PT1.096S} is {@code 1096ms}. Anything else ({@code invalid})
	 * is shown as it is.
	 */
	private static String millis(String value) {
		try {
			return Duration.parse(value).toMillis() + "ms";
		}
		catch (DateTimeParseException ex) {
			return value;
		}
	}

}
