package dev.retryafter.store;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.retryafter.core.protection.OriginProtection;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Closing a {@link RedisCooldownStore} while it is still connecting to subscribe: no Redis
 * needed, the connection factory and connection are stand-ins that record their calls.
 */
class RedisCooldownStoreCloseTests {

	@Test
	void whenClosedWhileConnectingToSubscribeThenTheConnectionIsClosedAndNotSubscribed() {
		List<String> connectionCalls = new CopyOnWriteArrayList<>();
		RedisConnection connection = stub(RedisConnection.class, (name) -> {
			connectionCalls.add(name);
			return null;
		});
		AtomicReference<RedisCooldownStore> store = new AtomicReference<>();
		RedisConnectionFactory factory = stub(RedisConnectionFactory.class, (name) -> {
			if (name.equals("getConnection")) {
				// The application context closes the store while the connection is being made.
				store.get().close();
				return connection;
			}
			return null;
		});
		store.set(new RedisCooldownStore(factory, new OriginProtection(10), "test:"));
		store.get().start();
		await().atMost(Duration.ofSeconds(10)).until(() -> !connectionCalls.isEmpty());
		assertThat(connectionCalls).containsExactly("close");
		assertThat(store.get().errorCount()).isZero();
	}

	// A stand-in answering every call with what the function returns for the method's name;
	// methods returning a primitive are never called here.
	private static <T> T stub(Class<T> type, Function<String, Object> answer) {
		Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type },
				(self, method, args) -> switch (method.getName()) {
					case "equals" -> self == args[0];
					case "hashCode" -> System.identityHashCode(self);
					case "toString" -> type.getSimpleName() + " stand-in";
					default -> answer.apply(method.getName());
				});
		return type.cast(proxy);
	}

}
