package dev.retryafter.testsupport;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Turns a Redis test class that starts its own servers off only when
 * {@code -Dretryafter.redis.tests=off} says so; a missing Redis program fails its tests
 * instead. Use it with {@code @ExtendWith}.
 */
public final class RedisTestsSwitch implements ExecutionCondition {

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		if ("off".equals(System.getProperty(RedisServer.SWITCH_PROPERTY))) {
			return ConditionEvaluationResult
				.disabled("Redis tests switched off with -D" + RedisServer.SWITCH_PROPERTY + "=off");
		}
		return ConditionEvaluationResult.enabled("Redis tests run against real Redis processes");
	}

}
