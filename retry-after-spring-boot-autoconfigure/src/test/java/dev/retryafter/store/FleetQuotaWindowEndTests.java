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

	@Test
	void whenAnotherInstancesAnswersNamedTheResetCloserThenTheSlotGoesAtThatReset() {
		StringRedisTemplate template = this.redis.fixture().template();
		logFour(template, -1_000_000);
		// Instance a's answers bound the reset to within 200 ms of a second from now.
		assertThat(take(template, 1_000_000, 200_000)).isEqualTo(1_000_000);
		long reset = bound(template, "@rs");

		// Instance b's own answers came later in the window: they name it 1.5 s from now,
		// late by up to 1.9 s. Both bound one reset (they lie within a window of each other
		// and meet), so the fleet keeps the closer, and b's slot goes at it, not at its own.
		List<?> reply = take(template, "instance-b", 0, 0, 1_500_000, 1_900_000, false);
		assertThat(((Number) reply.get(0)).longValue()).isLessThanOrEqualTo(1_000_000L);
		assertThat(bound(template, "@rs")).isEqualTo(reset);
		assertThat(bound(template, "@rl")).isEqualTo(reset - 200_000);
	}

	@Test
	void whenTwoInstancesBoundResetsThatCannotBeOneThenTheFleetKeepsTheOneItHas() {
		StringRedisTemplate template = this.redis.fixture().template();
		take(template, 1_000_000, 200_000);
		long reset = bound(template, "@rs");

		// b's answers bound a reset 3.3-3.5 s from now, within a window of a's: one reset
		// cannot lie in both, so one of them is wrong, and neither moves the fleet's.
		take(template, "instance-b", 0, 0, 3_500_000, 200_000, false);
		assertThat(bound(template, "@rs")).isEqualTo(reset);

		// c's bound one a window and more after a's: the next window's, which the fleet keeps.
		take(template, "instance-c", 0, 0, 5_500_000, 200_000, false);
		assertThat(bound(template, "@rs")).isGreaterThan(reset + 4_000_000);
	}

	@Test
	void whenAnotherInstancesLogPacesAloneThenAnInstancesOwnWaitAndSpreadAreNotTheFleets() {
		StringRedisTemplate template = this.redis.fixture().template();
		// The fleet's last four went 5 s ago, a window and more before this one.
		logFour(template, -5_000_000);
		// Instance a's log has seen a window: its slot, and it says so.
		List<?> first = take(template, "instance-a", 0, 0, 1_000_000, 200_000, true);
		assertThat(first.get(0)).isEqualTo(0L);
		assertThat(first.get(2)).isEqualTo(1L);

		// Instance b's has not: it would wait 500 ms and spread what is left 5 s apart. The
		// fleet's log holds the window, so the log says: now, and the next now too.
		List<?> second = take(template, "instance-b", 500_000, 5_000_000, 10_000_000, 200_000, false);
		List<?> third = take(template, "instance-b", 0, 5_000_000, 10_000_000, 200_000, false);
		assertThat(second.get(0)).isEqualTo(0L);
		assertThat(second.get(2)).isEqualTo(1L);
		assertThat(third.get(0)).isEqualTo(0L);
	}

	@Test
	void whenTheLogPacesAloneButHoldsLessThanAWindowThenTheLocalWaitStandsUpToTheFleetsReset() {
		StringRedisTemplate template = this.redis.fixture().template();
		// a's answers bound the reset to 1 s from now; its log has seen a window, the fleet's
		// holds none of this one (nothing left until the reset, a's local wait says).
		List<?> first = take(template, "instance-a", 1_000_000, 0, 1_000_000, 200_000, true);
		assertThat(first.get(0)).isEqualTo(1_000_000L);

		// b's own reset, from later answers, is 1.5 s away: it waits for the fleet's, no longer.
		List<?> second = take(template, "instance-b", 1_500_000, 0, 1_500_000, 1_900_000, true);
		assertThat(((Number) second.get(0)).longValue()).isLessThanOrEqualTo(1_000_000L);
	}

	@Test
	void whenTheLogHoldsAWindowThenAWaitForTheResetStillStands() {
		StringRedisTemplate template = this.redis.fixture().template();
		// The fleet's log holds a window, long gone; a's answers say nothing is left until the
		// reset a second away (another client may spend the quota): it waits for it.
		logFour(template, -5_000_000);

		List<?> reply = take(template, "instance-a", 1_000_000, 0, 1_000_000, 200_000, true);
		assertThat(reply.get(0)).isEqualTo(1_000_000L);
		assertThat(reply.get(2)).isEqualTo(1L);
	}

	@Test
	void whenNoInstancesLogPacesAloneThenTheLocalWaitAndSpreadStand() {
		StringRedisTemplate template = this.redis.fixture().template();

		List<?> first = take(template, "instance-b", 500_000, 5_000_000, 10_000_000, 200_000, false);
		List<?> second = take(template, "instance-b", 0, 5_000_000, 10_000_000, 200_000, false);
		assertThat(first.get(0)).isEqualTo(500_000L);
		// One spread after the first: 5.5 s from the first's now.
		assertThat(((Number) second.get(0)).longValue()).isGreaterThan(1_000_000L);
		assertThat(second.get(2)).isEqualTo(0L);
	}

	@Test
	void whenTwoInstancesSpreadOneWindowThenTheFleetSpacesByTheWiderSpread() {
		StringRedisTemplate template = this.redis.fixture().template();
		// b's answers count fewer left than a's: its spread, 3 s a slot, is the fleet's.
		take(template, "instance-b", 0, 3_000_000, 20_000_000, 200_000, false);
		take(template, "instance-a", 0, 1_000, 20_000_000, 200_000, false);

		List<?> third = take(template, "instance-a", 0, 1_000, 20_000_000, 200_000, false);
		// Two of b's spreads from the first slot: 6 s from its now, where a's own would be 3 s.
		assertThat(((Number) third.get(0)).longValue()).isGreaterThan(4_000_000L);
	}

	@Test
	void whenTheResetAWiderSpreadWasToldForHasPassedThenAnInstancesOwnSpreadStands() {
		StringRedisTemplate template = this.redis.fixture().template();
		Long now = template.execute((RedisCallback<Long>) (connection) -> connection.serverCommands()
			.time(TimeUnit.MICROSECONDS));
		template.opsForHash().putAll(KEY, Map.of("@b", "3000000", "@bt", Long.toString(now - 1)));
		take(template, "instance-a", 0, 1_000, 20_000_000, 200_000, false);

		List<?> second = take(template, "instance-a", 0, 1_000, 20_000_000, 200_000, false);
		// One of a's spreads after the first: 1 ms, never b's 3 s of a window gone.
		assertThat(((Number) second.get(0)).longValue()).isLessThan(1_000_000L);
	}

	// A bound on the reset the fleet keeps, Redis microseconds.
	private static long bound(StringRedisTemplate template, String field) {
		Object value = template.opsForHash().get(KEY, field);
		assertThat(value).isNotNull();
		return Long.parseLong(value.toString());
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
		List<?> reply = take(template, "instance-a", 0, 0, resetInMicros, lateByMicros, false);
		assertThat(reply.get(2)).isEqualTo(0L);
		return ((Number) reply.get(0)).longValue();
	}

	// A first attempt's slot as an instance asks for it: its local wait and spread, the reset
	// ahead and how late it may be, and whether its own log paces alone. The script's reply.
	static List<?> take(StringRedisTemplate template, String instance, long localWaitMicros, long beforeMicros,
			long resetInMicros, long lateByMicros, boolean alone) {
		return take(template, instance, localWaitMicros, beforeMicros, resetInMicros, lateByMicros, alone, -1, 0);
	}

	// The same, with the fewest left the instance's answers counted before the reset (or -1)
	// and how long ago the request that count answered went.
	static List<?> take(StringRedisTemplate template, String instance, long localWaitMicros, long beforeMicros,
			long resetInMicros, long lateByMicros, boolean alone, long left, long countedAgoMicros) {
		long after = Math.round(WINDOW_MICROS / QUOTA / 0.99);
		List<?> reply = template.execute(FleetQuotaSlots.script(), List.of(KEY), Long.toString(localWaitMicros),
				Long.toString(beforeMicros), "60000000", instance, Long.toString(FleetQuotaSlots.LIVE_MILLIS * 1000),
				Long.toString(FleetQuotaSlots.EXPIRY_SLACK_MILLIS), "0", Long.toString(after),
				Long.toString(resetInMicros), Integer.toString(QUOTA), Long.toString(SPAN_MICROS), "0",
				Long.toString(lateByMicros + FleetQuotaSlots.SLOT_WAY_MICROS), Long.toString(WINDOW_MICROS),
				Long.toString(FleetQuotaSlots.SLOT_WAY_MICROS), alone ? "1" : "0", Long.toString(left),
				Long.toString(countedAgoMicros));
		assertThat(reply).hasSize(3);
		return reply;
	}

}
