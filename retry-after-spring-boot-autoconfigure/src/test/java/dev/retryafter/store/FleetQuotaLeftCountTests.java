package dev.retryafter.store;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet's quota script on a real Redis, before a fixed window's reset while its slots are
 * spread (docs/PACING.md, rule 15): the slots that went after the request whose answer counted
 * the fewest left are not in that count, and once they are as many, the next slot waits for
 * the reset; the slots that went before that request are in it, and are not counted twice.
 */
class FleetQuotaLeftCountTests {

	private static final String KEY = "retry-after:quota:{http://127.0.0.1:8080}";

	// The reset 20 s ahead, late by 200 ms at most; slots spread 1 ms apart.
	private static final long RESET_IN = 20_000_000;

	private static final long LATE_BY = 200_000;

	private static final long SPREAD = 1_000;

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenAsManySlotsWentAfterACountAsItLeftThenTheNextGoesAtTheReset() {
		StringRedisTemplate template = this.redis.fixture().template();
		// a's answer counted 2 left, for a request that went a millisecond ago; b knows no count.
		assertThat(wait(take(template, "instance-a", 2, 1_000))).isLessThan(1_000_000L);
		assertThat(wait(take(template, "instance-b", -1, 0))).isLessThan(1_000_000L);

		// The fleet keeps a's count: both slots went after its request, and nothing is left.
		assertThat(wait(take(template, "instance-b", -1, 0))).isGreaterThan(19_000_000L);
	}

	@Test
	void whenSlotsWentBeforeTheRequestACountAnsweredThenTheyAreInItAndNotCountedAgain() {
		StringRedisTemplate template = this.redis.fixture().template();
		// Two slots went a second before the request whose answer counted 2 left.
		logSlots(template, -1_500_000, -1_400_000);

		// Its request went 500 ms ago: those two are in its count, and two more may go.
		assertThat(wait(take(template, "instance-a", 2, 500_000))).isLessThan(1_000_000L);
		assertThat(wait(take(template, "instance-a", 2, 500_000))).isLessThan(1_000_000L);
		assertThat(wait(take(template, "instance-a", 2, 500_000))).isGreaterThan(19_000_000L);
	}

	@Test
	void whenAnotherInstancesCountLeavesFewerThenItHoldsThisInstancesSlots() {
		StringRedisTemplate template = this.redis.fixture().template();
		// b's answer counted 1 left; a's, for an earlier request, counted 5.
		assertThat(wait(take(template, "instance-b", 1, 1_000))).isLessThan(1_000_000L);

		assertThat(wait(take(template, "instance-a", 5, 2_000_000))).isGreaterThan(19_000_000L);
	}

	@Test
	void whenTheResetTheCountWasForHasPassedThenItHoldsNothing() {
		StringRedisTemplate template = this.redis.fixture().template();
		Long now = redisNow(template);
		template.opsForHash()
			.putAll(KEY, Map.of("@mc", "0", "@ms", Long.toString(now - 5_000_000), "@mu", Long.toString(now - 1)));

		assertThat(wait(take(template, "instance-a", -1, 0))).isLessThan(1_000_000L);
	}

	@Test
	void whenNoCountIsToldThenSpreadSlotsGoAsBefore() {
		StringRedisTemplate template = this.redis.fixture().template();
		// As many as the log holds.
		for (int i = 0; i < 4; i++) {
			assertThat(wait(take(template, "instance-a", -1, 0))).isLessThan(1_000_000L);
		}
	}

	@Test
	void whenTheCountIsOfNoneLeftThenTheFirstSlotGoesAtTheReset() {
		StringRedisTemplate template = this.redis.fixture().template();

		assertThat(wait(take(template, "instance-a", 0, 0))).isGreaterThan(19_000_000L);
	}

	// A first attempt's spread slot whose local one is now, with a count told or not.
	private static List<?> take(StringRedisTemplate template, String instance, long left, long countedAgoMicros) {
		return FleetQuotaWindowEndTests.take(template, instance, 0, SPREAD, RESET_IN, LATE_BY, false, left,
				countedAgoMicros);
	}

	private static long wait(List<?> reply) {
		return ((Number) reply.get(0)).longValue();
	}

	// The log as the script keeps it, slots at the given offsets from Redis's now.
	private static void logSlots(StringRedisTemplate template, long firstFromNow, long secondFromNow) {
		Long now = redisNow(template);
		template.opsForHash()
			.putAll(KEY, Map.of("#0", Long.toString(now + firstFromNow), "#1", Long.toString(now + secondFromNow), "#n",
					"2", "#e", "4", "#s", Long.toString(Math.round(4_000_000 / 0.99))));
	}

	private static Long redisNow(StringRedisTemplate template) {
		return template.execute((RedisCallback<Long>) (connection) -> connection.serverCommands()
			.time(TimeUnit.MICROSECONDS));
	}

}
