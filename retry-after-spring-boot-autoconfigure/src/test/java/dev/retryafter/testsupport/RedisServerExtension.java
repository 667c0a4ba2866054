package dev.retryafter.testsupport;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives each test its own started {@link RedisServer}. Register it with
 * {@code @RegisterExtension}. A test fails (it is never silently skipped) when
 * {@code redis-server} is missing; only {@code -Dretryafter.redis.tests=off} turns the tests
 * off, and says so.
 */
public final class RedisServerExtension implements ExecutionCondition, BeforeEachCallback, AfterEachCallback {

	private RedisServer server;

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		if ("off".equals(System.getProperty(RedisServer.SWITCH_PROPERTY))) {
			return ConditionEvaluationResult
				.disabled("Redis tests switched off with -D" + RedisServer.SWITCH_PROPERTY + "=off");
		}
		return ConditionEvaluationResult.enabled("Redis tests run against a real redis-server");
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.server = RedisServer.onFreePort();
		this.server.start();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (this.server != null) {
			this.server.close();
			this.server = null;
		}
	}

	/**
	 * The current test's server.
	 * @return the server, started
	 */
	public RedisServer server() {
		return this.server;
	}

}
