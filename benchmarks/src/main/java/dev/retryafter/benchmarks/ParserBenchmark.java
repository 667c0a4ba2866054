package dev.retryafter.benchmarks;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.header.RetryAfterParser;
import org.apache.hc.client5.http.utils.DateUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import org.springframework.http.HttpHeaders;

/**
 * Parser throughput for delay-seconds and each HTTP-date form: ours against the JDK's
 * {@code RFC_1123_DATE_TIME}, Spring's {@link HttpHeaders} date parsing and HttpClient 5's
 * {@link DateUtils}. A peer is measured only on the forms it accepts (the JDK formatter reads
 * IMF-fixdate only). Ours does more per call (validation of the whole value, the delay against
 * the receive instant) and returns the delay; the peers return an instant.
 *
 * <p>
 * Run: {@code java -jar benchmarks/target/benchmarks.jar ParserBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ParserBenchmark {

	static final String SECONDS = "120";

	static final String IMF = "Mon, 15 Jun 2026 08:49:37 GMT";

	static final String RFC_850 = "Monday, 15-Jun-26 08:49:37 GMT";

	/** Two-digit day, which every asctime parser here reads (the space-padded form is in the correctness table). */
	static final String ASCTIME = "Mon Jun 15 08:49:37 2026";

	private static final Instant RECEIVED_AT = Instant.parse("2026-06-01T00:00:00Z");

	private final List<String> secondsField = List.of(SECONDS);

	private final List<String> imfField = List.of(IMF);

	private final List<String> rfc850Field = List.of(RFC_850);

	private final List<String> asctimeField = List.of(ASCTIME);

	private final HttpHeaders imfHeaders = new HttpHeaders();

	private final HttpHeaders rfc850Headers = new HttpHeaders();

	private final HttpHeaders asctimeHeaders = new HttpHeaders();

	/**
	 * Puts each value in a header set once; Spring parses on every read.
	 */
	@Setup
	public void setUp() {
		this.imfHeaders.set(HttpHeaders.RETRY_AFTER, IMF);
		this.rfc850Headers.set(HttpHeaders.RETRY_AFTER, RFC_850);
		this.asctimeHeaders.set(HttpHeaders.RETRY_AFTER, ASCTIME);
	}

	private RetryAfter ours(List<String> field) {
		return RetryAfterParser.parse(field, RECEIVED_AT, null, DateReference.LOCAL_CLOCK);
	}

	/**
	 * Ours, delay-seconds.
	 * @return the result
	 */
	@Benchmark
	public RetryAfter seconds_ours() {
		return ours(this.secondsField);
	}

	/**
	 * {@code Long.parseLong}, what HttpClient 5's retry strategy does with delay-seconds.
	 * @return the result
	 */
	@Benchmark
	public long seconds_parseLong() {
		return Long.parseLong(SECONDS);
	}

	/**
	 * Ours, IMF-fixdate.
	 * @return the result
	 */
	@Benchmark
	public RetryAfter imf_ours() {
		return ours(this.imfField);
	}

	/**
	 * JDK formatter, IMF-fixdate.
	 * @return the result
	 */
	@Benchmark
	public Instant imf_jdk() {
		return DateTimeFormatter.RFC_1123_DATE_TIME.parse(IMF, Instant::from);
	}

	/**
	 * Spring, IMF-fixdate.
	 * @return the result
	 */
	@Benchmark
	public long imf_spring() {
		return this.imfHeaders.getFirstDate(HttpHeaders.RETRY_AFTER);
	}

	/**
	 * HttpClient 5, IMF-fixdate.
	 * @return the result
	 */
	@Benchmark
	public Instant imf_apache() {
		return DateUtils.parseStandardDate(IMF);
	}

	/**
	 * Ours, RFC 850.
	 * @return the result
	 */
	@Benchmark
	public RetryAfter rfc850_ours() {
		return ours(this.rfc850Field);
	}

	/**
	 * Spring, RFC 850 (its second formatter, after the first one fails).
	 * @return the result
	 */
	@Benchmark
	public long rfc850_spring() {
		return this.rfc850Headers.getFirstDate(HttpHeaders.RETRY_AFTER);
	}

	/**
	 * HttpClient 5, RFC 850.
	 * @return the result
	 */
	@Benchmark
	public Instant rfc850_apache() {
		return DateUtils.parseStandardDate(RFC_850);
	}

	/**
	 * Ours, asctime.
	 * @return the result
	 */
	@Benchmark
	public RetryAfter asctime_ours() {
		return ours(this.asctimeField);
	}

	/**
	 * Spring, asctime (its third formatter).
	 * @return the result
	 */
	@Benchmark
	public long asctime_spring() {
		return this.asctimeHeaders.getFirstDate(HttpHeaders.RETRY_AFTER);
	}

	/**
	 * HttpClient 5, asctime.
	 * @return the result
	 */
	@Benchmark
	public Instant asctime_apache() {
		return DateUtils.parseStandardDate(ASCTIME);
	}

}
