package dev.retryafter.sample;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A flaky demo upstream: {@code GET /demo/report} answers {@code 429} with
 * {@code Retry-After: 1} to its first two calls, then {@code 200}. {@code POST /demo/reset}
 * starts the count again.
 */
@RestController
class DemoController {

	/** Calls answered 429 before the report is ready. */
	private static final int BUSY_CALLS = 2;

	private final AtomicInteger calls = new AtomicInteger();

	@GetMapping("/demo/report")
	ResponseEntity<Report> report() {
		int attempt = this.calls.incrementAndGet();
		if (attempt <= BUSY_CALLS) {
			return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
				.header(HttpHeaders.RETRY_AFTER, "1")
				.contentType(MediaType.APPLICATION_JSON)
				.body(new Report("busy", attempt));
		}
		return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(new Report("ready", attempt));
	}

	@PostMapping("/demo/reset")
	ResponseEntity<Void> reset() {
		this.calls.set(0);
		return ResponseEntity.noContent().build();
	}

	/**
	 * The demo's answer.
	 *
	 * @param status {@code busy} or {@code ready}
	 * @param attempt how many calls the report has seen since the last reset
	 */
	record Report(String status, int attempt) {
	}

}
