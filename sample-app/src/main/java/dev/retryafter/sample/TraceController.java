package dev.retryafter.sample;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /demo/traces}: the last traces {@link TraceLog} kept, newest first, as text.
 */
@RestController
class TraceController {

	private final TraceLog traceLog;

	TraceController(TraceLog traceLog) {
		this.traceLog = traceLog;
	}

	@GetMapping(path = "/demo/traces", produces = MediaType.TEXT_PLAIN_VALUE)
	String traces() {
		return String.join("\n", this.traceLog.recent());
	}

}
