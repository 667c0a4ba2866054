package dev.retryafter.actuate;

import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.convert.DurationStyle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DurationFormat}.
 */
class DurationFormatTests {

	@ParameterizedTest
	@CsvSource({ "PT0S,0s", "PT10S,10s", "PT0.5S,500ms", "PT1.5S,1500ms", "PT1M,60s", "PT90S,90s", "PT2H,7200s",
			"PT24H,86400s", "PT0.000001S,1us", "PT0.000000001S,1ns", "PT1.000000001S,1000000001ns", "PT-1M,-60s",
			"PT-0.5S,-500ms", "PT0.001S,1ms", "PT8S,8s" })
	void shouldWriteWholeSecondsInSecondsAndTheRestInTheLargestExactUnit(String iso, String expected) {
		assertThat(DurationFormat.format(Duration.parse(iso))).isEqualTo(expected);
	}

	@CsvSource({ "PT1.705296074S,1706ms", "PT3.9999S,4s", "PT4S,4s", "PT0.000000001S,1ms", "PT0S,0s",
			"PT0.25S,250ms", "PT-0.0015S,-1ms" })
	@ParameterizedTest
	void shouldRoundAMeasuredTimeUpToTheMillisecond(String iso, String expected) {
		assertThat(DurationFormat.formatMeasured(Duration.parse(iso))).isEqualTo(expected);
	}

	@Test
	void shouldNotOverflowWhenRoundingUpTheLongestMeasuredTime() {
		assertThat(DurationFormat.formatMeasured(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)))
			.isEqualTo(Long.MAX_VALUE + ".999999999s");
	}

	@Test
	void shouldNotOverflowAtTheExtremes() {
		assertThat(DurationFormat.format(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)))
			.isEqualTo(Long.MAX_VALUE + ".999999999s");
		assertThat(DurationFormat.format(Duration.ofSeconds(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE + "s");
		assertThat(DurationFormat.format(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE + "s");
	}

	@Test
	void shouldReadBackWithBootsSimpleStyle() {
		SplittableRandom random = new SplittableRandom(20260908L);
		for (int i = 0; i < 2_000; i++) {
			Duration duration = switch (random.nextInt(4)) {
				case 0 -> Duration.ofNanos(random.nextLong(0, 1_000_000_000_000L));
				case 1 -> Duration.ofMillis(random.nextLong(0, 10_000_000L));
				case 2 -> Duration.ofSeconds(random.nextLong(0, 10_000_000L));
				default -> Duration.ofMinutes(random.nextLong(0, 1_000_000L));
			};
			String text = DurationFormat.format(duration);
			assertThat(DurationStyle.SIMPLE.parse(text)).as(text).isEqualTo(duration);
		}
	}

}
