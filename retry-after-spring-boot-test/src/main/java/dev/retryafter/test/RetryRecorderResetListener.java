package dev.retryafter.test;

import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Clears the context's {@link RetryRecorder} before each test method, so that a test sees only
 * its own calls even when its context is cached and shared with other tests. Registered in
 * {@code META-INF/spring.factories}; a test without a recorder, or without a context, is left
 * alone.
 */
class RetryRecorderResetListener extends AbstractTestExecutionListener {

	@Override
	public int getOrder() {
		return LOWEST_PRECEDENCE;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		if (testContext.hasApplicationContext()) {
			testContext.getApplicationContext().getBeanProvider(RetryRecorder.class).forEach(RetryRecorder::clear);
		}
	}

}
