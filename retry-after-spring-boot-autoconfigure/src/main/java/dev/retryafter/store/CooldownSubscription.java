package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.retryafter.core.CooldownKey;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * The subscription of a {@link RedisCooldownStore} to its channel, on a connection of its
 * own: made at start and again, on a new connection, at each reconnection attempt of an
 * outage (the old one may be dead without knowing it). Applies what the other instances
 * publish to the local map, once checked ({@link MessageSignature}), and tells the
 * {@link ConnectionHealth} when its own heartbeat comes back.
 */
final class CooldownSubscription {

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

	private final RedisLink link;

	private final ConnectionHealth health;

	// SUBSCRIBE (and closing a subscription) gets its own thread: it may block until the
	// command timeout when Redis hangs.
	private final ScheduledExecutorService subscriber = Executors
		.newSingleThreadScheduledExecutor(RedisLink.daemon("retry-after-redis-subscriber"));

	// One per subscription: only the current one's heartbeats count, so a heartbeat heard on a
	// connection being replaced (e.g. still on the old master) cannot say the new one works.
	private volatile Listener listener = new Listener();

	private final AtomicBoolean resubscribing = new AtomicBoolean();

	private volatile @Nullable RedisConnection connection;

	private volatile boolean closed;

	CooldownSubscription(RedisLink link, ConnectionHealth health) {
		this.link = link;
		this.health = health;
	}

	/**
	 * Subscribes on a new connection in the background, unless that is under way already.
	 */
	void request() {
		if (this.resubscribing.compareAndSet(false, true)) {
			RedisLink.schedule(this.subscriber, this::subscribe, Duration.ZERO);
		}
	}

	void close() {
		this.closed = true;
		this.subscriber.shutdownNow();
		RedisConnection current = this.connection;
		this.connection = null;
		if (current != null) {
			closeQuietly(current);
		}
	}

	private void subscribe() {
		if (this.closed) {
			return;
		}
		RedisConnection previous = this.connection;
		this.connection = null;
		if (previous != null) {
			// The old subscription may be dead without knowing it: a new one replaces it.
			closeQuietly(previous);
		}
		RedisConnection made = null;
		try {
			made = this.link.connectionFactory().getConnection();
			this.connection = made;
			if (this.closed) {
				// close() may have looked for the subscription before it was set: the
				// connection would then never be closed.
				this.connection = null;
				closeQuietly(made);
				return;
			}
			if (this.link.signature().signs()) {
				// Before the first message can arrive: how old a message is is judged by
				// Redis's time.
				this.link.readRedisTime(made);
			}
			Listener current = new Listener();
			this.listener = current;
			// Lettuce returns once subscribed.
			made.subscribe(current, this.link.channel().getBytes(StandardCharsets.UTF_8));
			this.resubscribing.set(false);
		}
		catch (RuntimeException ex) {
			this.connection = null;
			if (made != null) {
				closeQuietly(made);
			}
			this.resubscribing.set(false);
			if (!this.closed) {
				// The connection health's next attempt subscribes again.
				this.health.failed("subscribe", ConnectionHealth.describe(ex));
			}
		}
	}

	private static void closeQuietly(RedisConnection connection) {
		try {
			connection.close();
		}
		catch (RuntimeException ex) {
			logger.debug("Closing the Redis subscription failed", ex);
		}
	}

	private final class Listener implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte @Nullable [] pattern) {
			String text = new String(message.getBody(), StandardCharsets.UTF_8);
			MessageSignature signature = CooldownSubscription.this.link.signature();
			MessageSignature.Signed signed = signature.verified(text);
			if (signed != null) {
				CooldownMessage.decode(signed.message())
					.filter(this::applies)
					.filter((decoded) -> signature.fresh(decoded.instance(), signed))
					.ifPresent(this::apply);
			}
		}

		// Only what changes something here is checked for freshness (and counted when stale):
		// this store's own heartbeat, and the others' cooldowns and ends.
		private boolean applies(CooldownMessage message) {
			boolean own = message.instance().equals(CooldownSubscription.this.link.instance());
			return own == (message.kind() == CooldownMessage.Kind.HEARTBEAT);
		}

		private boolean current() {
			return CooldownSubscription.this.listener == this;
		}

		private void apply(CooldownMessage message) {
			CooldownKey key = message.key();
			switch (message.kind()) {
				case HEARTBEAT -> {
					if (current()) {
						CooldownSubscription.this.health.heard();
					}
				}
				case COOLDOWN -> {
					if (key != null) {
						CooldownSubscription.this.link.learn(key, message.remainingMillis());
					}
				}
				case END -> end(key);
			}
		}

		private void end(@Nullable CooldownKey key) {
			if (key == null) {
				CooldownSubscription.this.link.protection().endAll(null);
			}
			else if (key.partition() == null) {
				CooldownSubscription.this.link.protection().endAll(key.origin());
			}
			else {
				CooldownSubscription.this.link.protection().end(key);
			}
		}

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			// Also called when the client re-subscribes after a reconnect, perhaps to another
			// master: what was published meanwhile was missed, so check at once and catch up.
			if (current()) {
				CooldownSubscription.this.health.subscribed();
			}
		}

	}

}
