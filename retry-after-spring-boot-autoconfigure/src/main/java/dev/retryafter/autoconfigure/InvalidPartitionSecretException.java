package dev.retryafter.autoconfigure;

/**
 * {@code retry-after.cooldown.partition-secret} is missing where it is required, or too short.
 * Unlike Boot's {@code InvalidConfigurationPropertyValueException}, it never carries the value:
 * the failure report must not print a secret.
 */
final class InvalidPartitionSecretException extends RuntimeException {

	static final String PROPERTY = "retry-after.cooldown.partition-secret";

	private final String reason;

	InvalidPartitionSecretException(String reason) {
		super(PROPERTY + " " + reason);
		this.reason = reason;
	}

	String getReason() {
		return this.reason;
	}

}
