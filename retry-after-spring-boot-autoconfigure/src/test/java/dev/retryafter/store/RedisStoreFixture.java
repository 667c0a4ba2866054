package dev.retryafter.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.testsupport.LoopbackTcpProxy;
import dev.retryafter.testsupport.RedisServer;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Stores ("instances") on one real Redis (a server, or a cluster), each with its own
 * connection factory as separate processes would have, on short heartbeat timings; captures
 * the store's log lines and closes everything it made.
 */
final class RedisStoreFixture implements AutoCloseable {

	/** Heartbeat every 200 ms, an outage after 1 s without one. */
	static final Duration HEARTBEAT_INTERVAL = Duration.ofMillis(200);

	static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(1);

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	/** Reconnection attempts 200 ms, then 400 ms, ... up to 1 s apart. */
	static final Duration FIRST_RETRY_DELAY = Duration.ofMillis(200);

	static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(1);

	private final RedisConfiguration configuration;

	private final Duration heartbeatInterval;

	private final Duration heartbeatTimeout;

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final ListAppender<ILoggingEvent> log = new ListAppender<>();

	private final Logger storeLogger = (Logger) LoggerFactory.getLogger(RedisCooldownStore.class);

	RedisStoreFixture(RedisServer server) {
		this(new RedisStandaloneConfiguration("127.0.0.1", server.port()));
	}

	RedisStoreFixture(RedisConfiguration configuration) {
		this(configuration, HEARTBEAT_INTERVAL, HEARTBEAT_TIMEOUT);
	}

	/**
	 * Stores on the given heartbeat timings: a cluster or a sentinel takes longer to connect
	 * to than a single server, more so on a busy machine.
	 */
	RedisStoreFixture(RedisConfiguration configuration, Duration heartbeatInterval, Duration heartbeatTimeout) {
		this.configuration = configuration;
		this.heartbeatInterval = heartbeatInterval;
		this.heartbeatTimeout = heartbeatTimeout;
		this.log.start();
		this.storeLogger.addAppender(this.log);
		// The first connection of a JVM loads the client: done here, it cannot make a store
		// miss its first heartbeat (1 s) and count an outage that never was.
		// Its own long timeout: on a busy machine that first handshake may take over 500 ms.
		new StringRedisTemplate(connectionFactory(Duration.ofSeconds(10))).hasKey("warm-up");
	}

	RedisCooldownStore store(OriginProtection cooldowns) {
		return store(cooldowns, RedisCooldownStore.DEFAULT_KEY_PREFIX, Clock.systemUTC());
	}

	RedisCooldownStore store(OriginProtection cooldowns, String prefix, Clock wallClock) {
		RedisCooldownStore store = unstarted(cooldowns, prefix, wallClock);
		store.start();
		return store;
	}

	RedisCooldownStore unstarted(OriginProtection cooldowns, String prefix, Clock wallClock) {
		return unstarted(connectionFactory(), cooldowns, prefix, wallClock, FIRST_RETRY_DELAY, MAX_RETRY_DELAY);
	}

	/**
	 * A store on the given connection factory and reconnection backoff, not started.
	 */
	RedisCooldownStore unstarted(RedisConnectionFactory factory, OriginProtection cooldowns, String prefix,
			Clock wallClock, Duration firstRetryDelay, Duration maxRetryDelay) {
		RedisCooldownStore store = new RedisCooldownStore(factory, cooldowns, prefix, MonotonicClock.SYSTEM, wallClock,
				this.heartbeatInterval, this.heartbeatTimeout, firstRetryDelay, maxRetryDelay);
		this.resources.add(store);
		return store;
	}

	/**
	 * A started store that signs its messages with {@code secret}.
	 */
	RedisCooldownStore store(OriginProtection cooldowns, PartitionSecret secret) {
		RedisCooldownStore store = new RedisCooldownStore(connectionFactory(), cooldowns,
				RedisCooldownStore.DEFAULT_KEY_PREFIX, MonotonicClock.SYSTEM, Clock.systemUTC(), this.heartbeatInterval,
				this.heartbeatTimeout, FIRST_RETRY_DELAY, MAX_RETRY_DELAY, secret);
		this.resources.add(store);
		store.start();
		return store;
	}

	/**
	 * A started store on its own connection factory with the given command timeout, signing
	 * with {@code secret}, on the fixture's heartbeat timings.
	 */
	RedisCooldownStore store(Duration commandTimeout, OriginProtection cooldowns, PartitionSecret secret) {
		RedisCooldownStore store = new RedisCooldownStore(connectionFactory(commandTimeout), cooldowns,
				RedisCooldownStore.DEFAULT_KEY_PREFIX, MonotonicClock.SYSTEM, Clock.systemUTC(), this.heartbeatInterval,
				this.heartbeatTimeout, FIRST_RETRY_DELAY, MAX_RETRY_DELAY, secret);
		this.resources.add(store);
		store.start();
		return store;
	}

	/**
	 * A store on the production heartbeat timings and Lettuce's default command timeout.
	 */
	RedisCooldownStore storeWithDefaultTimings(OriginProtection cooldowns) {
		RedisCooldownStore store = new RedisCooldownStore(connectionFactory(Duration.ofSeconds(60)), cooldowns,
				RedisCooldownStore.DEFAULT_KEY_PREFIX, MonotonicClock.SYSTEM, Clock.systemUTC(),
				RedisCooldownStore.HEARTBEAT_INTERVAL, RedisCooldownStore.HEARTBEAT_TIMEOUT);
		this.resources.add(store);
		store.start();
		return store;
	}

	/**
	 * A store whose subscription goes through {@code proxy} while its commands go straight to
	 * Redis, so the subscription alone can be dropped.
	 */
	RedisCooldownStore storeSubscribingThrough(LoopbackTcpProxy proxy, OriginProtection cooldowns) {
		return storeSubscribingTo(new RedisStandaloneConfiguration("127.0.0.1", proxy.port()), cooldowns);
	}

	/**
	 * A store whose subscription goes to {@code subscriptions} while its commands go to the
	 * fixture's Redis: one whose subscription cannot hear its writes when that is another
	 * server.
	 */
	RedisCooldownStore storeSubscribingTo(RedisConfiguration subscriptions, OriginProtection cooldowns) {
		RedisConnectionFactory direct = connectionFactory();
		RedisConnectionFactory proxied = connectionFactory(subscriptions, COMMAND_TIMEOUT);
		// The store subscribes on its subscriber thread and sends every command from others.
		RedisConnectionFactory routing = (RedisConnectionFactory) Proxy.newProxyInstance(
				RedisConnectionFactory.class.getClassLoader(), new Class<?>[] { RedisConnectionFactory.class },
				(self, method, args) -> {
					boolean subscribing = Thread.currentThread().getName().equals("retry-after-redis-subscriber");
					try {
						return method.invoke((subscribing && method.getName().equals("getConnection")) ? proxied
								: direct, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
		RedisCooldownStore store = unstarted(routing, cooldowns, RedisCooldownStore.DEFAULT_KEY_PREFIX,
				Clock.systemUTC(), FIRST_RETRY_DELAY, MAX_RETRY_DELAY);
		store.start();
		return store;
	}

	LettuceConnectionFactory connectionFactory() {
		return connectionFactory(COMMAND_TIMEOUT);
	}

	private LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
		return connectionFactory(this.configuration, commandTimeout);
	}

	/**
	 * A started connection factory of its own, on the short command timeout, closed with the
	 * fixture.
	 */
	LettuceConnectionFactory connectionFactory(RedisConfiguration config) {
		return connectionFactory(config, COMMAND_TIMEOUT);
	}

	private LettuceConnectionFactory connectionFactory(RedisConfiguration config, Duration commandTimeout) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(commandTimeout)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(config, client);
		factory.afterPropertiesSet();
		factory.start();
		this.resources.add(factory::destroy);
		return factory;
	}

	StringRedisTemplate template() {
		return new StringRedisTemplate(connectionFactory());
	}

	StringRedisTemplate template(RedisConfiguration config) {
		return new StringRedisTemplate(connectionFactory(config));
	}

	List<String> messages(Level level) {
		return this.log.list.stream()
			.filter((event) -> event.getLevel() == level)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	static Duration remaining(CooldownStore store, CooldownKey key) {
		return store.remaining(key, System.nanoTime());
	}

	static Duration timed(Runnable action) {
		long start = System.nanoTime();
		action.run();
		return Duration.ofNanos(System.nanoTime() - start);
	}

	@Override
	public void close() throws Exception {
		this.storeLogger.detachAppender(this.log);
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

}
