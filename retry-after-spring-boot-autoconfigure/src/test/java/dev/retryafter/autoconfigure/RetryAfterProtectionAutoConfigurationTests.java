package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import dev.retryafter.actuate.RetryAfterEndpoint;
import dev.retryafter.actuate.RetryAfterEndpoint.BudgetDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.StoreDescriptor;
import dev.retryafter.autoconfigure.actuate.RetryAfterEndpointAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.store.RedisCooldownStore;
import dev.retryafter.testsupport.RedisServerExtension;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the origin-protection beans of {@link RetryAfterAutoConfiguration} and
 * {@link RetryAfterRedisAutoConfiguration}.
 */
@ExtendWith(OutputCaptureExtension.class)
class RetryAfterProtectionAutoConfigurationTests {

	private static final String REDIS_MISSING = "needs Spring Data Redis and a RedisConnectionFactory bean "
			+ "(spring-boot-starter-data-redis and spring.data.redis.*), and none is present; set "
			+ "retry-after.store to local to keep cooldowns in this instance";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class, RetryAfterRedisAutoConfiguration.class));

	@Test
	void shouldProvideALocalCooldownStoreAndBudgetsByDefault(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(CooldownStore.class).hasSingleBean(RetryBudgets.class);
			CooldownStore store = context.getBean(CooldownStore.class);
			assertThat(store).isInstanceOf(LocalCooldownStore.class);
			assertThat(store.protection().maxHosts()).isEqualTo(10_000);
			assertThat(store.protection().maxDuration()).isEqualTo(Duration.ofSeconds(60));
			assertThat(context.getBean(RetryBudgets.class).snapshots())
				.containsExactly(entry("default", new RetryBudget.Snapshot(0, 0, 100, Duration.ofSeconds(10))));
		});
		assertThat(output).doesNotContain("retry-after.store");
	}

	@Test
	void whenMaxHostsIsSetThenTheMapIsBoundedByIt() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.max-hosts=5")
			.run((context) -> assertThat(context.getBean(CooldownStore.class).protection().maxHosts()).isEqualTo(5));
	}

	@Test
	void whenMaxDurationIsSetThenEveryCooldownIsCappedByIt() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.max-duration=15s").run((context) -> {
			CooldownStore store = context.getBean(CooldownStore.class);
			assertThat(store.protection().maxDuration()).isEqualTo(Duration.ofSeconds(15));
			CooldownKey key = CooldownKey.of(Origin.of("https", "api.example.com", -1));
			store.record(key, Duration.ofHours(3), 1_000L);
			assertThat(store.remaining(key, 1_000L)).isEqualTo(Duration.ofSeconds(15));
		});
	}

	@Test
	void whenMaxHostsIsInvalidThenStartUpFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.max-hosts=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("retry-after.cooldown.max-hosts"));
	}

	@Test
	void whenNamedClientsHaveBudgetsThenEachHasItsOwn() {
		this.contextRunner
			.withPropertyValues("retry-after.clients.billing.hosts=billing.example",
					"retry-after.clients.billing.budget.min-per-second=1",
					"retry-after.clients.free.hosts=free.example", "retry-after.clients.free.budget.enabled=false")
			.run((context) -> assertThat(context.getBean(RetryBudgets.class).snapshots()).containsExactly(
					entry("default", new RetryBudget.Snapshot(0, 0, 100, Duration.ofSeconds(10))),
					entry("billing", new RetryBudget.Snapshot(0, 0, 10, Duration.ofSeconds(10)))));
	}

	@Test
	void shouldBackOffIfTheUserDefinesACooldownStore() {
		LocalCooldownStore own = new LocalCooldownStore(new OriginProtection(3));
		this.contextRunner.withBean(CooldownStore.class, () -> own)
			.run((context) -> assertThat(context.getBean(CooldownStore.class)).isSameAs(own));
	}

	@Test
	void whenStoreIsRedisButSpringDataRedisIsMissingThenStartUpFailsSayingWhatIsNeeded() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
			.withPropertyValues("retry-after.store=redis")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property retry-after.store with value 'redis' is invalid: " + REDIS_MISSING));
	}

	@Test
	void whenStoreIsRedisButNoConnectionFactoryThenStartUpFailsSayingWhatIsNeeded() {
		this.contextRunner.withPropertyValues("retry-after.store=redis")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property retry-after.store with value 'redis' is invalid: " + REDIS_MISSING));
	}

	@Test
	void whenTheEndpointIsExposedThenItShowsTheCooldownsAndBudgets() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RetryAfterEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
			.run((context) -> {
				context.getBean(CooldownStore.class)
					.record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofMinutes(5),
							System.nanoTime());
				RetryAfterEndpoint.RetryAfterDescriptor described = context.getBean(RetryAfterEndpoint.class)
					.retryAfter();
				assertThat(described.cooldowns()).singleElement().satisfies((cooldown) -> {
					assertThat(cooldown.client()).isEqualTo("default");
					assertThat(cooldown.origin()).isEqualTo("http://127.0.0.1:8080");
				});
				assertThat(described.budgets()).containsExactly(entry("default", new BudgetDescriptor(0, 0, 100)));
			});
	}

	@Test
	void whenDisabledThenNoProtectionBeans() {
		this.contextRunner.withPropertyValues("retry-after.enabled=false", "retry-after.store=redis")
			.run((context) -> assertThat(context).doesNotHaveBean(CooldownStore.class)
				.doesNotHaveBean(RetryBudgets.class));
	}

	@Nested
	class WithRedis {

		@RegisterExtension
		final RedisServerExtension redis = new RedisServerExtension();

		private ApplicationContextRunner withRedis() {
			return RetryAfterProtectionAutoConfigurationTests.this.contextRunner
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1",
						"spring.data.redis.port=" + this.redis.server().port());
		}

		@Test
		void whenStoreIsLocalThenRedisIsNotUsed() {
			withRedis().run((context) -> {
				assertThat(context).hasSingleBean(RedisConnectionFactory.class);
				assertThat(context.getBean(CooldownStore.class)).isInstanceOf(LocalCooldownStore.class);
			});
		}

		@Test
		void whenStoreIsRedisThenCooldownsAreWrittenUnderTheKeyPrefix() {
			withRedis()
				.withPropertyValues("retry-after.store=redis", "retry-after.redis.key-prefix=shop:cooldown:",
						"retry-after.cooldown.max-hosts=7", "retry-after.cooldown.max-duration=45s")
				.run((context) -> {
					CooldownStore store = context.getBean(CooldownStore.class);
					assertThat(store).isInstanceOf(RedisCooldownStore.class);
					assertThat(store.name()).isEqualTo("redis");
					assertThat(store.protection().maxHosts()).isEqualTo(7);
					assertThat(store.protection().maxDuration()).isEqualTo(Duration.ofSeconds(45));
					assertThat(cooldownKeyWritten(context, store)).startsWith("shop:cooldown:");
				});
		}

		@Test
		void whenTheApplicationHasANameThenTheDefaultKeyPrefixCarriesIt() {
			withRedis().withPropertyValues("retry-after.store=redis", "spring.application.name=orders")
				.run((context) -> assertThat(cooldownKeyWritten(context, context.getBean(CooldownStore.class)))
					.isEqualTo("retry-after:orders:https://api.example.com:443"));
		}

		@Test
		void whenTheApplicationHasNoNameThenTheDefaultKeyPrefixIsRetryAfter() {
			withRedis().withPropertyValues("retry-after.store=redis")
				.run((context) -> assertThat(cooldownKeyWritten(context, context.getBean(CooldownStore.class)))
					.isEqualTo("retry-after:https://api.example.com:443"));
		}

		@Test
		void whenTheKeyPrefixIsBlankThenStartUpFailsNamingIt() {
			withRedis().withPropertyValues("retry-after.store=redis", "retry-after.redis.key-prefix= ")
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.rootCause()
					.hasMessageContaining("retry-after.redis.key-prefix"));
		}

		@Test
		void whenStoreIsRedisThenLettuceConnectionsUseTcpKeepAlive() {
			withRedis().withPropertyValues("retry-after.store=redis", "spring.data.redis.connect-timeout=3s")
				.run((context) -> {
					LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
					SocketOptions socket = factory.getClientConfiguration().getClientOptions().orElseThrow()
						.getSocketOptions();
					assertThat(socket.isKeepAlive()).isTrue();
					assertThat(socket.getKeepAlive().getIdle()).isEqualTo(Duration.ofSeconds(15));
					assertThat(socket.getKeepAlive().getInterval()).isEqualTo(Duration.ofSeconds(5));
					assertThat(socket.getKeepAlive().getCount()).isEqualTo(3);
					assertThat(socket.getConnectTimeout()).isEqualTo(Duration.ofSeconds(3));
				});
		}

		@Test
		void whenStoreIsRedisThenTheEndpointShowsItsStateAndItsDeleteReachesRedis() {
			withRedis().withConfiguration(AutoConfigurations.of(RetryAfterEndpointAutoConfiguration.class))
				.withPropertyValues("retry-after.store=redis", "management.endpoints.web.exposure.include=retryafter")
				.run((context) -> {
					RetryAfterEndpoint endpoint = context.getBean(RetryAfterEndpoint.class);
					await().atMost(Duration.ofSeconds(20)).until(() -> endpoint.retryAfter().store().connected());
					StoreDescriptor store = endpoint.retryAfter().store();
					assertThat(store.type()).isEqualTo("redis");
					assertThat(store.errors()).isZero();
					assertThat(Instant.parse(store.since())).isBefore(Instant.now());
					String key = cooldownKeyWritten(context, context.getBean(CooldownStore.class));
					assertThat(endpoint.end("https://api.example.com").ended())
						.containsExactly("https://api.example.com:443");
					StringRedisTemplate redis = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
					await().atMost(Duration.ofSeconds(20)).until(() -> !redis.hasKey(key));
				});
		}

		// Records a 30 s cooldown for https://api.example.com and returns the key it lands under.
		private String cooldownKeyWritten(ApplicationContext context, CooldownStore store) {
			// Connected first, so the time left below measures the write, not a cold start.
			await().atMost(Duration.ofSeconds(20)).until(() -> store.state().connected());
			store.record(CooldownKey.of(Origin.of("https", "api.example.com", -1)), Duration.ofSeconds(30),
					System.nanoTime());
			StringRedisTemplate redis = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
			await().atMost(Duration.ofSeconds(20)).until(() -> !redis.keys("*api.example.com*").isEmpty());
			Set<String> keys = redis.keys("*api.example.com*");
			assertThat(keys).hasSize(1);
			String key = keys.iterator().next();
			assertThat(redis.getExpire(key)).isBetween(25L, 30L);
			return key;
		}

	}

}
