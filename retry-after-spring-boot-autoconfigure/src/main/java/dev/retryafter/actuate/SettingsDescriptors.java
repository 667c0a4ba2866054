package dev.retryafter.actuate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import dev.retryafter.actuate.RetryAfterEndpoint.SettingsDescriptor;
import dev.retryafter.core.RetrySettings;

/**
 * Writes a client's {@link RetrySettings} as the endpoint shows them: durations as
 * {@code application.yml} writes them ({@link DurationFormat}), enum values as a user spells
 * them ({@code fail-fast}), statuses ascending and methods sorted.
 */
final class SettingsDescriptors {

	private SettingsDescriptors() {
	}

	static SettingsDescriptor of(RetrySettings settings) {
		RetrySettings.Backoff backoff = settings.backoff();
		RetrySettings.Header header = settings.header();
		RetrySettings.Budget budget = settings.budget();
		return new SettingsDescriptor(settings.maxAttempts(), DurationFormat.format(settings.totalBudget()),
				DurationFormat.format(settings.attemptReserve()), sorted(settings.retryableStatuses()),
				sorted(settings.retryableMethods()), settings.idempotencyKeyHeader(),
				new SettingsDescriptor.Backoff(DurationFormat.format(backoff.initial()), backoff.multiplier(),
						DurationFormat.format(backoff.max())),
				settings.jitter(),
				new SettingsDescriptor.Header(DurationFormat.format(header.maxWait()),
						propertyValue(header.onInvalid()), propertyValue(header.dateReference())),
				new SettingsDescriptor.IoErrors(settings.ioErrors().connect(), settings.ioErrors().read()),
				cooldown(settings.cooldown()),
				new SettingsDescriptor.Budget(budget.enabled(), budget.ratio(), budget.minPerSecond(),
						DurationFormat.format(budget.window())));
	}

	private static SettingsDescriptor.Cooldown cooldown(RetrySettings.Cooldown cooldown) {
		return new SettingsDescriptor.Cooldown(cooldown.enabled(), propertyValue(cooldown.mode()),
				sorted(cooldown.statuses()), cooldown.partitionHeaders(), cooldown.scopes());
	}

	private static <T extends Comparable<? super T>> List<T> sorted(Iterable<T> values) {
		List<T> list = new ArrayList<>();
		values.forEach(list::add);
		Collections.sort(list);
		return list;
	}

	private static String propertyValue(Enum<?> value) {
		// The spelling a user writes in application.yml, e.g. FAIL_FAST -> fail-fast.
		return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
