package dev.retryafter.store;

import java.util.function.Consumer;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.event.connection.DisconnectedEvent;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Tells a {@link RedisCooldownStore} at once when one of Lettuce's connections closes (a
 * killed Redis, a reset), so it checks its own connections then rather than at its next
 * heartbeat. Loaded only when Lettuce and Reactor are on the classpath.
 */
final class LettuceDisconnects {

	private LettuceDisconnects() {
	}

	/**
	 * Watches the connection factory's client, if it is Lettuce's.
	 * @param factory the connection factory
	 * @param onDisconnect called on Lettuce's event thread with the remote address; must not
	 * block
	 * @return what stops watching, or {@code null} when there is nothing to watch
	 */
	static @Nullable Runnable watch(RedisConnectionFactory factory, Consumer<String> onDisconnect) {
		if (!(factory instanceof LettuceConnectionFactory lettuce)) {
			return null;
		}
		ClientResources resources = lettuce.getClientResources();
		if (resources == null) {
			AbstractRedisClient client = lettuce.getNativeClient();
			resources = (client != null) ? client.getResources() : null;
		}
		if (resources == null) {
			return null;
		}
		Disposable subscription = resources.eventBus()
			.get()
			.filter(DisconnectedEvent.class::isInstance)
			.subscribe((event) -> onDisconnect.accept(String.valueOf(((DisconnectedEvent) event).remoteAddress())));
		return subscription::dispose;
	}

}
