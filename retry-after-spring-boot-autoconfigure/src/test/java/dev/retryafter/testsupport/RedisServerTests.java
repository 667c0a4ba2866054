package dev.retryafter.testsupport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class RedisServerTests {

	@Test
	void whenRedisServerIsNotOnThePathThenTheTestFailsWithAClearMessage() {
		assertThatIllegalStateException().isThrownBy(() -> RedisServer.onFreePort("/nonexistent"))
			.withMessage("redis-server is not on the PATH, so the Redis tests cannot run. Install it "
					+ "(apt-get install -y redis-server) or switch these tests off with -Dretryafter.redis.tests=off");
	}

	@Test
	void whenRedisCliIsNotOnThePathThenTheTestFailsNamingItsPackage() {
		assertThatIllegalStateException()
			.isThrownBy(() -> RedisServer.executable("redis-cli", "redis-tools", "/nonexistent"))
			.withMessage("redis-cli is not on the PATH, so the Redis tests cannot run. Install it "
					+ "(apt-get install -y redis-tools) or switch these tests off with -Dretryafter.redis.tests=off");
	}

}
