package dev.retryafter.autoconfigure;

import java.util.List;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.core.CooldownPartition;
import dev.retryafter.core.Origin;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.store.PartitionSecret;
import dev.retryafter.store.RedisCooldownStore;
import dev.retryafter.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which secret keys the partition digests ({@code retry-after.cooldown.partition-secret}),
 * and when start-up refuses to go on without one.
 */
class PartitionSecretAutoConfigurationTests {

	private static final String SECRET = "c2VjcmV0LXNoYXJlZC1ieS10aGUtZmxlZXQtb2YtdGVzdHM=";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class, RetryAfterRedisAutoConfiguration.class));

	// Nothing listens there: start-up must fail before the store would ever connect.
	private final ApplicationContextRunner withUnreachableRedis = this.contextRunner
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
		.withPropertyValues("retry-after.store=redis", "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=1");

	@Test
	void whenTheRedisStorePartitionsWithoutASecretThenStartUpFailsNamingTheProperty() {
		this.withUnreachableRedis.withPropertyValues("retry-after.cooldown.partition-headers=Authorization")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				assertThat(failure).rootCause()
					.isInstanceOf(InvalidPartitionSecretException.class)
					.hasMessageStartingWith("retry-after.cooldown.partition-secret must be set when the Redis store "
							+ "partitions cooldowns (retry-after.cooldown.partition-headers is set)");
				FailureAnalysis analysis = new PartitionSecretFailureAnalyzer().analyze(failure);
				assertThat(analysis.getDescription())
					.startsWith("The property 'retry-after.cooldown.partition-secret' must be set");
				assertThat(analysis.getAction()).contains("openssl rand -base64 32")
					.contains("RETRYAFTER_COOLDOWN_PARTITIONSECRET");
			});
	}

	@Test
	void whenStartUpFailsThenBootFindsTheAnalyzer() {
		// Boot's own analyzers need constructor arguments that only Boot supplies: skip them.
		assertThat(SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			})))
			.hasAtLeastOneElementOfType(PartitionSecretFailureAnalyzer.class);
	}

	@Test
	void whenANamedClientPartitionsWithoutASecretThenStartUpFailsNamingItsHeaders() {
		this.withUnreachableRedis
			.withPropertyValues("retry-after.clients.tenants.hosts=api.example.com",
					"retry-after.clients.tenants.cooldown.partition-headers=X-Tenant")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("retry-after.cooldown.partition-secret must be set")
				.hasMessageContaining("retry-after.clients.tenants.cooldown.partition-headers is set"));
	}

	@Test
	void whenTheSecretIsTooShortThenStartUpFailsWithoutShowingIt() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.partition-secret=hunter2-hunter2")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidPartitionSecretException.class)
					.hasMessage("retry-after.cooldown.partition-secret must be at least 32 characters long (it has 15)");
				FailureAnalysis analysis = new PartitionSecretFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getDescription() + analysis.getAction()).doesNotContain("hunter2");
			});
	}

	@Test
	void whenTheStoreIsLocalWithoutASecretThenTheJvmsRandomSecretKeysTheDigests() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.partition-headers=Authorization")
			.run((context) -> {
				CooldownStore store = context.getBean(CooldownStore.class);
				assertThat(store).isInstanceOf(LocalCooldownStore.class);
				assertThat(store.partitionSecret()).isSameAs(PartitionSecret.perJvm());
			});
	}

	@Test
	void whenTheStoreIsLocalWithASecretThenItKeysTheDigests() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.partition-secret=" + SECRET)
			.run((context) -> assertThat(digest(context.getBean(CooldownStore.class).partitionSecret()))
				.isEqualTo(digest(PartitionSecret.of(SECRET))));
	}

	private static String digest(PartitionSecret secret) {
		return CooldownPartition.of(Origin.of("https", "api.example.com", 443), List.of("Authorization"), (name) -> List.of("Bearer tenant-a"),
				secret.partitionHash());
	}

	@Nested
	class WithRedis {

		@RegisterExtension
		final RedisServerExtension redis = new RedisServerExtension();

		private ApplicationContextRunner withRedis() {
			return PartitionSecretAutoConfigurationTests.this.contextRunner
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("retry-after.store=redis", "spring.data.redis.host=127.0.0.1",
						"spring.data.redis.port=" + this.redis.server().port());
		}

		@Test
		void whenTheRedisStorePartitionsWithASecretThenEveryInstanceKeysATenantAlike() {
			withRedis()
				.withPropertyValues("retry-after.cooldown.partition-headers=Authorization",
						"retry-after.cooldown.partition-secret=" + SECRET)
				.run((context) -> {
					CooldownStore store = context.getBean(CooldownStore.class);
					assertThat(store).isInstanceOf(RedisCooldownStore.class);
					assertThat(digest(store.partitionSecret())).isEqualTo(digest(PartitionSecret.of(SECRET)));
				});
		}

		@Test
		void whenTheRedisStoreDoesNotPartitionThenNoSecretIsNeeded() {
			withRedis().run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(CooldownStore.class)).isInstanceOf(RedisCooldownStore.class);
			});
		}

	}

}
