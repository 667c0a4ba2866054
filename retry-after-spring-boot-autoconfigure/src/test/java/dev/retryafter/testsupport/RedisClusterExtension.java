package dev.retryafter.testsupport;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link RedisCluster} for a test class (register it on a static field with
 * {@code @RegisterExtension}), with every key deleted before each test. Fails (never skips)
 * when {@code redis-server} or {@code redis-cli} is missing; only
 * {@code -Dretryafter.redis.tests=off} turns the tests off, and says so.
 */
public final class RedisClusterExtension
		implements ExecutionCondition, BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private RedisCluster cluster;

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		if ("off".equals(System.getProperty(RedisServer.SWITCH_PROPERTY))) {
			return ConditionEvaluationResult
				.disabled("Redis tests switched off with -D" + RedisServer.SWITCH_PROPERTY + "=off");
		}
		return ConditionEvaluationResult.enabled("Redis tests run against a real Redis cluster");
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		this.cluster = RedisCluster.start();
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		// A test that failed while a node was down must not fail the others.
		for (RedisServer node : this.cluster.nodes()) {
			if (!node.isRunning()) {
				node.start();
			}
		}
		this.cluster.awaitState("ok");
		this.cluster.flushAll();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (this.cluster != null) {
			this.cluster.close();
			this.cluster = null;
		}
	}

	/**
	 * The test class's cluster.
	 * @return the cluster, every slot served
	 */
	public RedisCluster cluster() {
		return this.cluster;
	}

}
