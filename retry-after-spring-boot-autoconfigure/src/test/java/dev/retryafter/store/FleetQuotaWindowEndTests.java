package dev.retryafter.store;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.protection.QuotaSpacing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet's quota script on a real Redis, at a fixed window's bounds: a window's slots free
 * the next window's as it begins (at the reset the asking instance sees, or at once when that
 * window has begun), not one span after each went, and only when the answers bound the reset
 * close enough to be sure of it.
 */
class FleetQuotaWindowEndTests {

	private static final String KEY = "retry-after:quota:{http://127.0.0.1:8080}";

	// Four per 4 s: the span the log counts in is the window divided by the pacing's share.
	private static final int QUOTA = 4;

	private static final long WINDOW_MICROS = 4_000_000;

	private static final long SPAN_MICROS = Math.round(WINDOW_MICROS / 0.99);

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenAWindowsSlotsWentEarlyInItThenTheNextWindowsFirstGoesAtTheReset() {
		StringRedisTemplate template = this.redis.fixture().template();
		// All four went a second ago; the reset is a second ahead, late by 200 ms at most.
		logFour(template, -1_000_000);

		// A span after them would be 3 s from now.
		assertThat(take(template, 1_000_000, 200_000)).isEqualTo(1_000_000);
	}

	@Test
	void whenAWindowsSlotsWentBeforeTheCurrentWindowBeganThenTheNextGoesNow() {
		StringRedisTemplate template = this.redis.fixture().template();
		// They went 1.5 s ago; the window ends 3.5 s from now, late by 200 ms at most, so it
		// began no earlier than 0.7 s ago, and they reached the origin in the window before.
		logFour(template, -1_500_000);

		// A span after them would be 2.5 s from now.
		assertThat(take(template, 3_500_000, 200_000)).isZero();
	}

	@Test
	void whenTheResetMayNotBeFarEnoughPastTheWindowsSlotsThenTheNextWaitsASpanAfterThem() {
		StringRedisTemplate template = this.redis.fixture().template();
		// They went 100 ms ago and the reset is 1 s ahead, late by up to 1.5 s: they may lie
		// in the window that begins at the true reset.
		logFour(template, -100_000);

		assertThat(take(template, 1_000_000, 1_500_000)).isGreaterThan(1_000_000);
	}

	@Test
	void whenNothingBoundsHowLateTheResetIsThenTheNextWaitsASpanAfterTheWindowsSlots() {
		StringRedisTemplate template = this.redis.fixture().template();
		logFour(template, -1_000_000);

		assertThat(take(template, 1_000_000, QuotaSpacing.UNBOUNDED.toNanos() / 1000)).isGreaterThan(1_000_000);
	}

	@Test
	void whenTheResetHasPassedThenTheNextWaitsASpanAfterTheWindowsSlots() {
		StringRedisTemplate template = this.redis.fixture().template();
		// A reset the instance saw pass says nothing of where the current window ends.
		logFour(template, -1_000_000);

		assertThat(take(template, 0, 0)).isGreaterThan(1_000_000);
	}

	// The log as the script keeps it: four slots at one instant, relative to Redis's now.
	private static void logFour(StringRedisTemplate template, long fromNowMicros) {
		Long now = template.execute((RedisCallback<Long>) (connection) -> connection.serverCommands()
			.time(TimeUnit.MICROSECONDS));
		String at = Long.toString(now + fromNowMicros);
		template.opsForHash()
			.putAll(KEY, Map.of("#0", at, "#1", at, "#2", at, "#3", at, "#n", "4", "#e",
					Integer.toString(QUOTA), "#s", Long.toString(SPAN_MICROS)));
	}

	// A first attempt's slot whose local one is now, after the reset (no spread before it),
	// with the reset ahead and how late it may be as given: the wait the script answers, in
	// microseconds.
	private static long take(StringRedisTemplate template, long resetInMicros, long lateByMicros) {
		long after = Math.round(WINDOW_MICROS / QUOTA / 0.99);
		List<?> reply = template.execute(FleetQuotaSlots.script(), List.of(KEY), "0", "0", "60000000", "instance-a",
				Long.toString(FleetQuotaSlots.LIVE_MILLIS * 1000), Long.toString(FleetQuotaSlots.EXPIRY_SLACK_MILLIS),
				"0", Long.toString(after), Long.toString(resetInMicros), Integer.toString(QUOTA),
				Long.toString(SPAN_MICROS), "0", Long.toString(lateByMicros + FleetQuotaSlots.SLOT_WAY_MICROS),
				Long.toString(WINDOW_MICROS));
		assertThat(reply).hasSize(2);
		return ((Number) reply.get(0)).longValue();
	}

}
