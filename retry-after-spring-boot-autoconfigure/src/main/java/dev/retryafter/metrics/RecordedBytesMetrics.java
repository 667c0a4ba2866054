package dev.retryafter.metrics;

import java.util.Objects;

import dev.retryafter.call.RecordedBytes;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of the bytes kept in memory for retries, read from the application's
 * {@link RecordedBytes} when a registry asks:
 * <ul>
 * <li>{@code http.client.retry.recorded.bytes} (gauge, bytes, no tags): the bytes kept now, by
 * every call across the application (copies of retried responses during their wait, recorded
 * WebClient request bodies);</li>
 * <li>{@code http.client.retry.recorded.overflow} (function counter; {@code body},
 * {@code request} or {@code response}): bodies not kept because that total was reached; a
 * request body not kept is not sent again, a response copy not kept cannot be handed back
 * if the retry is called off.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public class RecordedBytesMetrics implements MeterBinder {

	/** Name of the gauge of bytes kept for retries. */
	public static final String RECORDED_BYTES = "http.client.retry.recorded.bytes";

	/** Name of the counter of bodies not kept because the total was reached. */
	public static final String RECORDED_OVERFLOW = "http.client.retry.recorded.overflow";

	private final RecordedBytes recordedBytes;

	/**
	 * Creates the binder.
	 * @param recordedBytes the application's total of bytes kept for retries
	 */
	public RecordedBytesMetrics(RecordedBytes recordedBytes) {
		this.recordedBytes = Objects.requireNonNull(recordedBytes, "recordedBytes");
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(RECORDED_BYTES, this.recordedBytes, RecordedBytes::held)
			.baseUnit(BaseUnits.BYTES)
			.description("Bytes kept in memory for retries now: response copies during waits, recorded request bodies")
			.strongReference(true)
			.register(registry);
		FunctionCounter.builder(RECORDED_OVERFLOW, this.recordedBytes, (bytes) -> bytes.notRecordedCount(true))
			.tag("body", "request")
			.description("Bodies not kept for a retry because retry-after.max-recorded-bytes was reached")
			.register(registry);
		FunctionCounter.builder(RECORDED_OVERFLOW, this.recordedBytes, (bytes) -> bytes.notRecordedCount(false))
			.tag("body", "response")
			.description("Bodies not kept for a retry because retry-after.max-recorded-bytes was reached")
			.register(registry);
	}

}
