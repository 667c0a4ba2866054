package dev.retryafter.autoconfigure.redis;

import java.time.Duration;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.testsupport.RedisServerExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis store turns TCP keepalive on for the application's Lettuce client and changes
 * nothing else the application set.
 */
class LettuceKeepAliveTests {

	@RegisterExtension
	final RedisServerExtension redis = new RedisServerExtension();

	private ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class,
					RetryAfterRedisAutoConfiguration.class, DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + this.redis.server().port());
	}

	@Test
	void whenTheApplicationReplacesTheClientOptionsThenTheyAreKeptAndOnlyKeepAliveIsAdded() {
		contextRunner().withPropertyValues("retry-after.store=redis")
			.withUserConfiguration(ApplicationClientOptions.class)
			.run((context) -> {
				ClientOptions options = clientOptions(context.getBean(LettuceConnectionFactory.class));
				assertThat(options.getDisconnectedBehavior())
					.isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
				assertThat(options.getRequestQueueSize()).isEqualTo(1234);
				SocketOptions socket = options.getSocketOptions();
				assertThat(socket.getConnectTimeout()).isEqualTo(Duration.ofSeconds(7));
				assertThat(socket.isTcpNoDelay()).isFalse();
				assertKeepAlive(socket, Duration.ofSeconds(15), Duration.ofSeconds(5), 3);
			});
	}

	@Test
	void whenTheApplicationCustomizesTheSocketOptionsThenTheyAreKeptAndOnlyKeepAliveIsAdded() {
		contextRunner().withPropertyValues("retry-after.store=redis")
			.withUserConfiguration(ApplicationSocketOptions.class)
			.run((context) -> {
				SocketOptions socket = clientOptions(context.getBean(LettuceConnectionFactory.class)).getSocketOptions();
				assertThat(socket.isTcpNoDelay()).isFalse();
				assertThat(socket.getConnectTimeout()).isEqualTo(Duration.ofSeconds(4));
				assertKeepAlive(socket, Duration.ofSeconds(15), Duration.ofSeconds(5), 3);
			});
	}

	@Test
	void whenTheApplicationTurnedKeepAliveOnItselfThenItsSettingsAreKept() {
		contextRunner().withPropertyValues("retry-after.store=redis")
			.withUserConfiguration(ApplicationKeepAlive.class)
			.run((context) -> assertKeepAlive(
					clientOptions(context.getBean(LettuceConnectionFactory.class)).getSocketOptions(),
					Duration.ofSeconds(60), Duration.ofSeconds(20), 5));
	}

	@Test
	void whenTheStoreIsLocalThenTheApplicationsOptionsAreNotTouched() {
		contextRunner().withUserConfiguration(ApplicationSocketOptions.class).run((context) -> {
			assertThat(context).doesNotHaveBean(RetryAfterRedisAutoConfiguration.LettuceKeepAlive.class);
			SocketOptions socket = clientOptions(context.getBean(LettuceConnectionFactory.class)).getSocketOptions();
			assertThat(socket.getKeepAlive().getIdle()).isEqualTo(SocketOptions.builder().build().getKeepAlive().getIdle());
			assertThat(socket.isTcpNoDelay()).isFalse();
		});
	}

	private static ClientOptions clientOptions(LettuceConnectionFactory factory) {
		return factory.getClientConfiguration().getClientOptions().orElseThrow();
	}

	private static void assertKeepAlive(SocketOptions socket, Duration idle, Duration interval, int count) {
		assertThat(socket.isKeepAlive()).isTrue();
		assertThat(socket.getKeepAlive().getIdle()).isEqualTo(idle);
		assertThat(socket.getKeepAlive().getInterval()).isEqualTo(interval);
		assertThat(socket.getKeepAlive().getCount()).isEqualTo(count);
	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationClientOptions {

		@Bean
		LettuceClientConfigurationBuilderCustomizer applicationClientOptions() {
			return (builder) -> builder.clientOptions(ClientOptions.builder()
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.requestQueueSize(1234)
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(7)).tcpNoDelay(false).build())
				.build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationSocketOptions {

		@Bean
		LettuceClientOptionsBuilderCustomizer applicationSocketOptions() {
			return (builder) -> builder
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(4)).tcpNoDelay(false).build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationKeepAlive {

		@Bean
		LettuceClientOptionsBuilderCustomizer applicationKeepAlive() {
			return (builder) -> builder.socketOptions(SocketOptions.builder()
				.keepAlive(SocketOptions.KeepAliveOptions.builder()
					.enable()
					.idle(Duration.ofSeconds(60))
					.interval(Duration.ofSeconds(20))
					.count(5)
					.build())
				.build());
		}

	}

}
