package dev.retryafter.core;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import dev.retryafter.core.header.RetryAfter;

/**
 * The invariants {@link RetrySettings} and its groups check when they are built, each failure
 * an {@link IllegalArgumentException} naming the component as a property path
 * ({@code backoff.max}, {@code budget.window}). Spring binding and its messages happen outside
 * the core: these are the core's own last line.
 */
final class SettingsInvariants {

	private SettingsInvariants() {
	}

	static void requireNonNegative(Duration duration, String name) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException(name + " must not be negative: " + duration);
		}
	}

	static void checkMaxAttempts(int maxAttempts) {
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
		}
	}

	/** The methods in upper case, as requests name them. */
	static Set<String> upperCase(Set<String> methods) {
		TreeSet<String> upper = new TreeSet<>();
		for (String method : methods) {
			upper.add(method.toUpperCase(Locale.ROOT));
		}
		return Set.copyOf(upper);
	}

	static void checkBackoff(Duration initial, double multiplier, Duration max) {
		requireNonNegative(initial, "backoff.initial");
		requireNonNegative(max, "backoff.max");
		if (!(multiplier >= 1) || Double.isInfinite(multiplier)) {
			throw new IllegalArgumentException("backoff.multiplier must be a finite number >= 1: " + multiplier);
		}
	}

	static void checkMaxWait(Duration maxWait) {
		requireNonNegative(maxWait, "header.maxWait");
		if (maxWait.compareTo(RetryAfter.MAX_DELAY) >= 0) {
			throw new IllegalArgumentException("header.maxWait must be below " + RetryAfter.MAX_DELAY);
		}
	}

	static void checkScopes(List<String> scopes) {
		for (String scope : scopes) {
			if (!CooldownScope.isPathPrefix(scope)) {
				throw new IllegalArgumentException("Invalid cooldown scope: '" + scope + "'");
			}
		}
	}

	static void checkBudget(double ratio, int minPerSecond, Duration window) {
		if (!(ratio >= 0) || Double.isInfinite(ratio)) {
			throw new IllegalArgumentException("budget.ratio must be a finite number >= 0: " + ratio);
		}
		if (minPerSecond < 0) {
			throw new IllegalArgumentException("budget.minPerSecond must not be negative: " + minPerSecond);
		}
		if (window.isNegative() || window.isZero()) {
			throw new IllegalArgumentException("budget.window must be positive: " + window);
		}
	}

}
