package dev.retryafter.slice;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

import org.springframework.boot.logging.LoggingSystem;

/**
 * Keeps a test class's Spring Boot context from configuring Logback for the whole test JVM
 * (its console pattern would shorten logger names for every test after it, which
 * {@code LoggingRetryListenerTests} reads). The context loads after {@code beforeAll}, so the
 * switch is in place when it starts, and it is put back once the class is done.
 */
final class WithoutBootLogging implements BeforeAllCallback, AfterAllCallback {

	private static final Namespace NAMESPACE = Namespace.create(WithoutBootLogging.class);

	private static final String ABSENT = "";

	@Override
	public void beforeAll(ExtensionContext context) {
		String previous = System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		context.getStore(NAMESPACE).put(LoggingSystem.SYSTEM_PROPERTY, (previous != null) ? previous : ABSENT);
	}

	@Override
	public void afterAll(ExtensionContext context) {
		String previous = context.getStore(NAMESPACE).get(LoggingSystem.SYSTEM_PROPERTY, String.class);
		if (previous == null || previous.equals(ABSENT)) {
			System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
		}
		else {
			System.setProperty(LoggingSystem.SYSTEM_PROPERTY, previous);
		}
	}

}
