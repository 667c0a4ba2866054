package dev.retryafter.store;

import dev.retryafter.testsupport.RedisServer;
import dev.retryafter.testsupport.RedisServerExtension;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real {@code redis-server} per test, with a {@link RedisStoreFixture} on it: the fixture is
 * made once the server is up and closed (with every store it made) before the server stops.
 */
final class RedisStoreExtension implements ExecutionCondition, BeforeEachCallback, AfterEachCallback {

	private final RedisServerExtension redis = new RedisServerExtension();

	private RedisStoreFixture fixture;

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		return this.redis.evaluateExecutionCondition(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.redis.beforeEach(context);
		this.fixture = new RedisStoreFixture(this.redis.server());
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		try {
			if (this.fixture != null) {
				this.fixture.close();
				this.fixture = null;
			}
		}
		finally {
			this.redis.afterEach(context);
		}
	}

	/**
	 * The current test's server.
	 * @return the server, started
	 */
	RedisServer server() {
		return this.redis.server();
	}

	/**
	 * The current test's fixture.
	 * @return the fixture on {@link #server()}
	 */
	RedisStoreFixture fixture() {
		return this.fixture;
	}

}
