package dev.retryafter.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;

/**
 * Reports a {@code retry-after.*} value that cannot be bound at all (a word where a number
 * is expected, an unknown enum value) with what the property accepts, in the form a user
 * writes it: {@code must be HTTP status codes from 100 to 599} rather than
 * {@code failed to convert java.lang.String to java.lang.Integer}, and {@code local, redis}
 * rather than {@code LOCAL, REDIS}. It runs before Spring Boot's own analyzer of binding
 * failures and leaves every other property to it. A value that binds but is out of range is
 * reported by Spring Boot's analyzer of {@code InvalidConfigurationPropertyValueException},
 * whose reason already says what is allowed.
 *
 * @since 0.1.0
 */
public class RetryAfterFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

	/**
	 * Creates the analyzer; Spring Boot does, from {@code META-INF/spring.factories}.
	 */
	public RetryAfterFailureAnalyzer() {
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		String name = cause.getName().toString();
		if (!name.startsWith(RetryAfterSettingsMapper.PREFIX + ".")) {
			return null;
		}
		String allowed = AllowedValues.of(name, cause.getTarget().getType());
		if (allowed == null) {
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		Object value = (property != null) ? property.getValue() : null;
		StringBuilder description = new StringBuilder("Invalid value '").append(value)
			.append("' for configuration property '")
			.append(name)
			.append("'");
		Origin origin = (property != null) ? property.getOrigin() : null;
		if (origin != null) {
			description.append(" (originating from '").append(origin).append("')");
		}
		description.append(": it must be ").append(allowed).append('.');
		return new FailureAnalysis(description.toString(),
				"Set '" + name + "' to " + allowed + ".", cause);
	}

	@Override
	public int getOrder() {
		// Before Spring Boot's BindFailureAnalyzer, which would report the same failure in
		// terms of Java types.
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
