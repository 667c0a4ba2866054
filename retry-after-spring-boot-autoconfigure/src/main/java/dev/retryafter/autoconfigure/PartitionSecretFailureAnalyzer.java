package dev.retryafter.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Says which property to set, and how to make a good value, when the partition secret is
 * missing or too short; never shows the value.
 */
final class PartitionSecretFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPartitionSecretException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidPartitionSecretException cause) {
		return new FailureAnalysis(
				"The property '" + InvalidPartitionSecretException.PROPERTY + "' " + cause.getReason() + ".",
				"Set '" + InvalidPartitionSecretException.PROPERTY
						+ "' to the same random value on every instance that shares the cooldown store, "
						+ "e.g. the output of 'openssl rand -base64 32', from a secret store or an environment "
						+ "variable (RETRYAFTER_COOLDOWN_PARTITIONSECRET), not from a file under version control.",
				cause);
	}

}
