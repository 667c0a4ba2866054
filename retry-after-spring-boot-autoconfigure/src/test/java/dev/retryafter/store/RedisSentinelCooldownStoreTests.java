package dev.retryafter.store;

import java.time.Duration;

import ch.qos.logback.classic.Level;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.RedisSentinelGroup;
import dev.retryafter.testsupport.RedisServer;
import dev.retryafter.testsupport.RedisTestsSwitch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two stores ("instances") on {@code spring.data.redis.sentinel.*} with a real master, a
 * replica and three sentinels, through a failover: the master is killed, the sentinels
 * promote the replica, and the stores follow it.
 */
@ExtendWith(RedisTestsSwitch.class)
class RedisSentinelCooldownStoreTests {

	private static final CooldownKey BEFORE = CooldownKey.of(Origin.of("http", "before", -1));

	private static final CooldownKey DURING = CooldownKey.of(Origin.of("http", "during", -1));

	private static final CooldownKey AFTER = CooldownKey.of(Origin.of("http", "after", -1));

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private static final PartitionSecret SECRET = PartitionSecret.of("c2VjcmV0LXNoYXJlZC1ieS10aGUtZmxlZXQ=");

	private static final Origin API = Origin.of("https", "api.example.com", 443);

	private static final CooldownKey TENANT_BEFORE = new CooldownKey(API, "0123456789abcdef0123456789abcdef");

	private static final CooldownKey TENANT_DURING = new CooldownKey(API, "1123456789abcdef0123456789abcdef");

	private static final CooldownKey TENANT_AFTER = new CooldownKey(API, "2123456789abcdef0123456789abcdef");

	private static final CooldownKey TENANT_BACK = new CooldownKey(API, "3123456789abcdef0123456789abcdef");

	// Longer than the failover, as Lettuce's default (60 s): commands sent while there is no
	// master wait for the reconnection instead of failing, and only the store's own checks can
	// tell that nothing is shared meanwhile.
	private static final Duration LONG_COMMAND_TIMEOUT = Duration.ofSeconds(20);

	// How long a store may still say connected after its connections closed: the probe
	// timeout, plus one watchdog tick (1 s on the production timings) and 1 s for a busy
	// machine.
	private static final Duration PROBE_BOUND = RedisCooldownStore.PROBE_TIMEOUT.plusSeconds(2);

	@Test
	void whenTheMasterIsKilledThenBothInstancesFollowThePromotedReplicaAndRepublishWhatTheyRecordedMeanwhile()
			throws Exception {
		try (RedisSentinelGroup group = RedisSentinelGroup.start();
				RedisStoreFixture fixture = new RedisStoreFixture(group.configuration(), Duration.ofMillis(500),
						Duration.ofSeconds(3))) {
			RedisCooldownStore first = fixture.store(new OriginProtection(100));
			RedisCooldownStore second = fixture.store(new OriginProtection(100));
			await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
			first.record(BEFORE, Duration.ofSeconds(60), System.nanoTime());
			await().atMost(AWAIT).until(() -> !remaining(second, BEFORE).isZero());

			// Counted from here: on a busy machine a heartbeat may have come back late before.
			long firstErrors = first.errorCount();
			long secondErrors = second.errorCount();
			int warnings = fixture.messages(Level.WARN).size();
			int recoveries = fixture.messages(Level.INFO).size();
			long killedAt = System.nanoTime();
			group.master().kill();
			// A 429 while the sentinels fail over: kept here, and published once the store is
			// connected to the promoted master.
			first.record(DURING, Duration.ofSeconds(60), System.nanoTime());
			await().atMost(AWAIT).until(() -> !first.state().connected() && !second.state().connected());
			// Connected again only once commands and the subscription both work, which needs a
			// master: the promoted replica.
			boolean[] seen = new boolean[2];
			await().atMost(AWAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
				RedisCooldownStore[] stores = { first, second };
				for (int i = 0; i < stores.length; i++) {
					if (!seen[i] && stores[i].state().connected()) {
						seen[i] = true;
						assertThat(role(group, group.replica())).as("the replica's role when instance " + i
								+ " says it is connected").startsWith("master");
					}
				}
				return seen[0] && seen[1];
			});
			await().atMost(AWAIT).until(() -> !remaining(second, DURING).isZero());
			Duration sharingAgain = Duration.ofNanos(System.nanoTime() - killedAt);
			System.out.println("Redis Sentinel failover: sharing again " + sharingAgain.toMillis()
					+ " ms after the master was killed");

			assertThat(group.masterPort()).isEqualTo(group.replica().port());
			assertThat(group.cli(group.replica(), "PTTL", "retry-after:" + DURING).strip()).satisfies(
					(left) -> assertThat(Long.parseLong(left)).isBetween(1L, 60_000L));
			// A new 429 on either instance holds the other.
			second.record(AFTER, Duration.ofSeconds(30), System.nanoTime());
			await().atMost(AWAIT).until(() -> !remaining(first, AFTER).isZero());
			assertThat(remaining(second, BEFORE)).isPositive();
			// One outage each.
			assertThat(first.errorCount()).isEqualTo(firstErrors + 1);
			assertThat(second.errorCount()).isEqualTo(secondErrors + 1);
			assertThat(fixture.messages(Level.WARN)).hasSize(warnings + 2);
			assertThat(fixture.messages(Level.INFO)).hasSize(recoveries + 2);
		}
	}

	/**
	 * As an application on Spring Boot's defaults sees it: production heartbeat timings,
	 * commands that wait for a reconnection, signed messages and partitioned cooldowns. The
	 * sentinels take 5 s to call the master down, so the failover outlasts the probe.
	 */
	@Test
	void whenTheMasterIsKilledThenNoInstanceSaysConnectedWithoutAMasterAndSharingResumesBothWays() throws Exception {
		try (RedisSentinelGroup group = RedisSentinelGroup.startWithDownAfter(Duration.ofSeconds(5));
				RedisStoreFixture fixture = new RedisStoreFixture(group.configuration(),
						RedisCooldownStore.HEARTBEAT_INTERVAL, RedisCooldownStore.HEARTBEAT_TIMEOUT)) {
			RedisCooldownStore first = fixture.store(LONG_COMMAND_TIMEOUT, new OriginProtection(100), SECRET);
			RedisCooldownStore second = fixture.store(LONG_COMMAND_TIMEOUT, new OriginProtection(100), SECRET);
			await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
			first.record(TENANT_BEFORE, Duration.ofSeconds(60), System.nanoTime());
			await().atMost(AWAIT).until(() -> !remaining(second, TENANT_BEFORE).isZero());

			group.master().kill();
			long killedAt = System.nanoTime();
			first.record(TENANT_DURING, Duration.ofSeconds(60), System.nanoTime());
			RedisCooldownStore[] stores = { first, second };
			// The last time each store was seen connected while no server was master.
			long[] connectedWithoutMaster = new long[stores.length];
			await().atMost(AWAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
				boolean[] connected = { first.state().connected(), second.state().connected() };
				boolean promoted = role(group, group.replica()).startsWith("master");
				for (int i = 0; i < stores.length; i++) {
					if (connected[i] && !promoted) {
						connectedWithoutMaster[i] = System.nanoTime();
					}
				}
				return promoted && connected[0] && connected[1];
			});
			for (int i = 0; i < stores.length; i++) {
				assertThat(Duration.ofNanos(Math.max(0, connectedWithoutMaster[i] - killedAt)))
					.as("how long instance " + i + " said connected with no master")
					.isLessThanOrEqualTo(PROBE_BOUND);
			}
			// Connected means both ways: what either records now holds the other.
			second.record(TENANT_AFTER, Duration.ofSeconds(30), System.nanoTime());
			first.record(TENANT_BACK, Duration.ofSeconds(30), System.nanoTime());
			await().atMost(AWAIT).until(() -> !remaining(first, TENANT_AFTER).isZero());
			await().atMost(AWAIT).until(() -> !remaining(second, TENANT_BACK).isZero());
			// Nothing recorded during the failover is lost.
			await().atMost(AWAIT).until(() -> !remaining(second, TENANT_DURING).isZero());
			assertThat(group.cli(group.replica(), "PTTL", "retry-after:" + TENANT_DURING).strip())
				.satisfies((left) -> assertThat(Long.parseLong(left)).isBetween(1L, 60_000L));
			assertThat(remaining(second, TENANT_BEFORE)).isPositive();
			assertThat(first.rejectedMessages() + second.rejectedMessages()).isZero();
			System.out.println("Redis Sentinel failover (down-after 5 s): sharing both ways again "
					+ Duration.ofNanos(System.nanoTime() - killedAt).toMillis() + " ms after the master was killed");
		}
	}

	private static String role(RedisSentinelGroup group, RedisServer server) {
		return group.cli(server, "ROLE").strip();
	}

}
