package dev.retryafter.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownPartition;
import dev.retryafter.core.Origin;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.testsupport.RedisClusterExtension;
import dev.retryafter.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store's tests on a real three-master Redis Cluster ({@code spring.data.redis.cluster.nodes}):
 * a shared hold, the catch-up of many keys spread over every master, ending cooldowns, and a
 * master that dies and comes back.
 */
class RedisClusterCooldownStoreTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final CooldownKey OTHER = CooldownKey.of(Origin.of("https", "api.example.com", -1));

	private static final Duration AWAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	private RedisStoreFixture fixture;

	@BeforeEach
	void createFixture() {
		this.fixture = new RedisStoreFixture(redis.cluster().configuration(), Duration.ofMillis(500),
				Duration.ofSeconds(3));
	}

	@AfterEach
	void closeFixture() throws Exception {
		this.fixture.close();
	}

	@Test
	void whenOneInstanceRecordsThenTheOtherIsHeld() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(remaining(second, ORIGIN)).isBetween(Duration.ofSeconds(25),
					Duration.ofSeconds(30)));
		assertThat(template().getExpire("retry-after:" + ORIGIN)).isBetween(25L, 30L);
		assertThat(first.errorCount() + second.errorCount()).isZero();
	}

	@Test
	void whenInstancesSignTheirMessagesThenEveryCooldownPublishedThroughEveryMasterIsTakenOnce() {
		PartitionSecret secret = PartitionSecret.of("c2VjcmV0LXNoYXJlZC1ieS10aGUtZmxlZXQ=");
		RedisCooldownStore first = this.fixture.store(new OriginProtection(100), secret);
		RedisCooldownStore second = this.fixture.store(new OriginProtection(100), secret);
		awaitConnected(first, second);
		// Keys on every slot: each message is published by the master of its key, and may
		// overtake another on its way to the subscriber's node.
		List<CooldownKey> tenants = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			tenants.add(new CooldownKey(ORIGIN.origin(), digest(i + 1)));
			first.record(tenants.get(i), Duration.ofSeconds(30), System.nanoTime());
		}
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(tenants)
				.allSatisfy((key) -> assertThat(remaining(second, key)).isPositive()));
		for (MessageRejection reason : MessageRejection.values()) {
			assertThat(first.rejectedCount(reason) + second.rejectedCount(reason)).as(reason.tag()).isZero();
		}
		assertThat(first.errorCount() + second.errorCount()).isZero();
	}

	@Test
	void whenAnInstanceStartsWhileManyTenantsAreCoolingDownThenItLearnsEveryOneFromEveryMaster() {
		RedisCooldownStore first = store();
		// Five tenants' cooldowns recorded by a running instance, and 295 more left in Redis:
		// partition keys (partition-headers=Authorization), spread over the slots of all masters.
		List<CooldownKey> tenants = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			tenants.add(new CooldownKey(ORIGIN.origin(), digest(i)));
		}
		await().atMost(AWAIT).until(() -> first.state().connected());
		for (CooldownKey tenant : tenants.subList(0, 5)) {
			first.record(tenant, Duration.ofSeconds(30), System.nanoTime());
		}
		StringRedisTemplate template = template();
		for (CooldownKey tenant : tenants.subList(5, tenants.size())) {
			template.opsForValue().set("retry-after:" + tenant, "1", Duration.ofSeconds(60));
		}
		await().atMost(AWAIT).until(() -> template.hasKey("retry-after:" + tenants.get(4)));
		for (RedisServer node : redis.cluster().nodes()) {
			assertThat(dbSize(node)).as("keys on the master on port " + node.port()).isGreaterThan(50);
		}

		OriginProtection late = new OriginProtection(1000);
		RedisCooldownStore second = this.fixture.store(late);
		await().atMost(AWAIT).until(() -> late.activeCount(System.nanoTime()) == tenants.size());
		assertThat(late.snapshot(System.nanoTime()).keySet()).containsAll(tenants);
		assertThat(first.errorCount() + second.errorCount()).isZero();
		assertThat(this.fixture.messages(Level.WARN)).isEmpty();
	}

	@Test
	void whenOneInstanceEndsCooldownsThenTheirKeysGoFromEveryMasterAndEveryInstanceDropsThem() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);
		List<CooldownKey> partitions = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			partitions.add(new CooldownKey(ORIGIN.origin(), digest(i)));
			first.record(partitions.get(i), Duration.ofSeconds(30), System.nanoTime());
		}
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		first.record(OTHER, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(second.protection().snapshot(System.nanoTime()).keySet()).containsAll(partitions)
				.contains(ORIGIN, OTHER);
			assertThat(template().hasKey("retry-after:" + OTHER)).isTrue();
		});

		assertThat(second.end(ORIGIN.origin())).hasSize(31);
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(first.protection().snapshot(System.nanoTime()).keySet()).containsOnly(OTHER);
			assertThat(keys()).containsOnly("retry-after:" + OTHER);
		});

		second.end(null);
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(first.protection().snapshot(System.nanoTime())).isEmpty();
			assertThat(keys()).isEmpty();
		});
		assertThat(first.errorCount() + second.errorCount()).isZero();
	}

	@Test
	void whenAMasterDiesThenTheOutageIsCountedOnceAndTheCooldownsRecordedMeanwhileArePublishedOnRecovery() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);
		RedisServer master = redis.cluster().nodes().get(0);
		// Counted from here: on a busy machine a heartbeat may have come back late before.
		long firstErrors = first.errorCount();
		long secondErrors = second.errorCount();
		int warnings = this.fixture.messages(Level.WARN).size();
		int recoveries = this.fixture.messages(Level.INFO).size();

		master.kill();
		// The other masters mark the cluster down: every command fails, whichever slot it names.
		await().atMost(AWAIT).until(() -> !first.state().connected() && !second.state().connected());
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		assertThat(remaining(first, ORIGIN)).isBetween(Duration.ofSeconds(25), Duration.ofSeconds(30));

		master.start();
		redis.cluster().awaitState("ok");
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(first.state().connected()).isTrue();
			assertThat(second.state().connected()).isTrue();
			assertThat(remaining(second, ORIGIN)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
		});
		assertThat(template().hasKey("retry-after:" + ORIGIN)).isTrue();
		// One outage each.
		assertThat(first.errorCount()).isEqualTo(firstErrors + 1);
		assertThat(second.errorCount()).isEqualTo(secondErrors + 1);
		assertThat(this.fixture.messages(Level.WARN)).hasSize(warnings + 2);
		assertThat(this.fixture.messages(Level.INFO)).hasSize(recoveries + 2);
	}

	@Test
	void whenTwoInstancesShareAQuotaThenTheScriptTakesTheirSlotsOnTheKeysOwnSlot() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);
		FleetQuotaSlotsTests.assertSlotsInterleave(first, second);
		// The hash tag names the cooldown key, so the script ran on that key's master.
		String key = first.quotaSlots().key(FleetQuotaSlotsTests.KEY);
		assertThat(key).isEqualTo("retry-after:quota:{" + FleetQuotaSlotsTests.KEY + "}");
		assertThat(template().hasKey(key)).isTrue();
		assertThat(template().getExpire(key)).isPositive();
	}

	private RedisCooldownStore store() {
		return this.fixture.store(new OriginProtection(100));
	}

	private StringRedisTemplate template() {
		return this.fixture.template();
	}

	// Every key on every master, as the masters themselves list them.
	private List<String> keys() {
		List<String> keys = new ArrayList<>();
		for (RedisServer node : redis.cluster().nodes()) {
			String listed = redis.cluster().cli(node, "--scan").strip();
			if (!listed.isEmpty()) {
				keys.addAll(List.of(listed.split("\n")));
			}
		}
		keys.removeIf((key) -> key.equals("retry-after:heartbeat"));
		return keys;
	}

	private static long dbSize(RedisServer node) {
		return Long.parseLong(redis.cluster().cli(node, "DBSIZE").strip());
	}

	private static String digest(int i) {
		return String.format("%0" + CooldownPartition.DIGEST_LENGTH + "x", i * 7919L);
	}

	private static void awaitConnected(RedisCooldownStore first, RedisCooldownStore second) {
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
	}

}
