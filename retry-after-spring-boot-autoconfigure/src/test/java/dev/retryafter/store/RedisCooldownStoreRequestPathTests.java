package dev.retryafter.store;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a request asks of a {@link RedisCooldownStore} never reaches Redis: shown with a
 * connection factory that blocks every caller until the end of the test and notes who called
 * it, instead of with timings. No Redis needed.
 */
class RedisCooldownStoreRequestPathTests {

	private static final String REQUEST_THREAD = "request";

	@Test
	void whenRedisBlocksEveryCallThenRequestsNeverCallTheConnectionFactoryAndNeverWait() throws Exception {
		CountDownLatch released = new CountDownLatch(1);
		List<String> callers = new CopyOnWriteArrayList<>();
		RedisConnectionFactory blocking = (RedisConnectionFactory) Proxy.newProxyInstance(
				RedisConnectionFactory.class.getClassLoader(), new Class<?>[] { RedisConnectionFactory.class },
				(self, method, args) -> switch (method.getName()) {
					case "equals" -> self == args[0];
					case "hashCode" -> System.identityHashCode(self);
					case "toString" -> "blocking connection factory";
					default -> {
						callers.add(Thread.currentThread().getName());
						released.await();
						throw new IllegalStateException("released at the end of the test");
					}
				});
		RedisCooldownStore store = new RedisCooldownStore(blocking, new OriginProtection(100), "test:");
		try {
			Thread requests = new Thread(() -> {
				store.start();
				SplittableRandom random = new SplittableRandom(42);
				for (int i = 0; i < 500; i++) {
					CooldownKey key = CooldownKey.of(Origin.of("http", "host" + (i % 50), -1));
					store.record(key, Duration.ofSeconds(30), System.nanoTime());
					store.remaining(key, System.nanoTime());
					store.admit(new AdmissionRequest(key, System.nanoTime(), Duration.ofSeconds(60), Duration.ZERO,
							CooldownMode.FAIL_FAST, 0.5, random, true));
					store.hasCooldowns();
					store.snapshot(System.nanoTime());
					store.state();
					store.errorCount();
					store.droppedCount();
					if (i % 100 == 99) {
						store.end(key.origin());
					}
				}
				store.end(null);
			}, REQUEST_THREAD);
			requests.start();
			// The store's own threads are stuck in the factory meanwhile.
			await().atMost(Duration.ofSeconds(20)).until(() -> !callers.isEmpty());
			requests.join(Duration.ofSeconds(20).toMillis());
			assertThat(requests.isAlive()).as("requests waiting on a blocked Redis").isFalse();
			assertThat(callers).isNotEmpty()
				.doesNotContain(REQUEST_THREAD)
				.allSatisfy((name) -> assertThat(name).startsWith("retry-after-redis"));
			assertThat(store.state().connected()).isFalse();
		}
		finally {
			released.countDown();
			store.close();
		}
	}

}
