package dev.retryafter.actuate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.retryafter.actuate.RetryAfterRuntimeState.BudgetDescriptor;
import dev.retryafter.actuate.RetryAfterRuntimeState.CooldownDescriptor;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetrySettings;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code GET /actuator/retryafter}: the effective settings of {@code default} and of each
 * named client with its hosts, the origins cooling down, and the retry budgets. Durations are
 * written as in {@code application.yml} ({@code 10s}, {@code 500ms}). It shows configuration
 * and counters only: never request headers, credentials or bodies.
 *
 * @since 0.1.0
 */
@Endpoint(id = "retryafter")
public class RetryAfterEndpoint {

	private final RetryClients clients;

	private final RetryAfterRuntimeState state;

	/**
	 * Creates the endpoint.
	 * @param clients the configured clients
	 * @param state the live cooldown and budget state
	 */
	public RetryAfterEndpoint(RetryClients clients, RetryAfterRuntimeState state) {
		this.clients = clients;
		this.state = state;
	}

	/**
	 * Describes the configuration and the live state.
	 * @return the description
	 */
	@ReadOperation
	public RetryAfterDescriptor retryAfter() {
		Map<String, ClientDescriptor> clients = new LinkedHashMap<>();
		for (ClientSettings client : this.clients.all()) {
			List<String> hosts = new ArrayList<>(this.clients.hosts(client.name()));
			Collections.sort(hosts);
			clients.put(client.name(), new ClientDescriptor(hosts, SettingsDescriptor.of(client.settings())));
		}
		// Copied in order: the budgets come in configuration order, default first.
		return new RetryAfterDescriptor(clients, List.copyOf(this.state.cooldowns()),
				Collections.unmodifiableMap(new LinkedHashMap<>(this.state.budgets())));
	}

	/**
	 * The endpoint's response. Fields are only ever added, so clients of this JSON keep
	 * working.
	 *
	 * @param clients each client's hosts and settings, {@code default} first
	 * @param cooldowns the origins currently cooling down
	 * @param budgets the retry budget state by client name
	 */
	public record RetryAfterDescriptor(Map<String, ClientDescriptor> clients, List<CooldownDescriptor> cooldowns,
			Map<String, BudgetDescriptor> budgets) implements OperationResponseBody {
	}

	/**
	 * One client.
	 *
	 * @param hosts the hosts it applies to, sorted; empty for {@code default}
	 * @param settings its effective settings
	 */
	public record ClientDescriptor(List<String> hosts, SettingsDescriptor settings) {
	}

	/**
	 * Effective settings, with the property names of {@code retry-after.*} in camel case.
	 *
	 * @param maxAttempts attempts in total, the first included
	 * @param totalBudget time for all attempts and waits
	 * @param attemptReserve time kept back for the next attempt
	 * @param retryableStatuses statuses that may be retried, ascending
	 * @param retryableMethods methods repeatable by default, sorted
	 * @param idempotencyKeyHeader name of the header that makes a request repeatable
	 * @param backoff local backoff
	 * @param jitter added wait as a fraction of the base
	 * @param header {@code Retry-After} handling
	 * @param ioErrors which I/O failures are retried
	 * @param cooldown per-origin cooldown
	 * @param budget retry budget settings
	 */
	public record SettingsDescriptor(int maxAttempts, String totalBudget, String attemptReserve,
			List<Integer> retryableStatuses, List<String> retryableMethods, String idempotencyKeyHeader,
			Backoff backoff, double jitter, Header header, IoErrors ioErrors, Cooldown cooldown, Budget budget) {

		static SettingsDescriptor of(RetrySettings settings) {
			List<Integer> statuses = new ArrayList<>(settings.retryableStatuses());
			Collections.sort(statuses);
			List<String> methods = new ArrayList<>(settings.retryableMethods());
			Collections.sort(methods);
			RetrySettings.Backoff backoff = settings.backoff();
			RetrySettings.Header header = settings.header();
			RetrySettings.Budget budget = settings.budget();
			return new SettingsDescriptor(settings.maxAttempts(), DurationFormat.format(settings.totalBudget()),
					DurationFormat.format(settings.attemptReserve()), statuses, methods,
					settings.idempotencyKeyHeader(),
					new Backoff(DurationFormat.format(backoff.initial()), backoff.multiplier(),
							DurationFormat.format(backoff.max())),
					settings.jitter(),
					new Header(DurationFormat.format(header.maxWait()), propertyValue(header.onInvalid()),
							propertyValue(header.dateReference())),
					new IoErrors(settings.ioErrors().connect(), settings.ioErrors().read()),
					new Cooldown(settings.cooldown().enabled(), propertyValue(settings.cooldown().mode())),
					new Budget(budget.enabled(), budget.ratio(), budget.minPerSecond(),
							DurationFormat.format(budget.window())));
		}

		private static String propertyValue(Enum<?> value) {
			// The spelling a user writes in application.yml, e.g. FAIL_FAST -> fail-fast.
			return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

		/**
		 * Local backoff.
		 *
		 * @param initial first backoff
		 * @param multiplier growth per retry
		 * @param max longest backoff
		 */
		public record Backoff(String initial, double multiplier, String max) {
		}

		/**
		 * {@code Retry-After} handling.
		 *
		 * @param maxWait longest server-requested wait honoured
		 * @param onInvalid {@code backoff} or {@code abandon}
		 * @param dateReference {@code server-date} or {@code local-clock}
		 */
		public record Header(String maxWait, String onInvalid, String dateReference) {
		}

		/**
		 * Which I/O failures are retried.
		 *
		 * @param connect whether connection failures are retried
		 * @param read whether read timeouts and resets are retried
		 */
		public record IoErrors(boolean connect, boolean read) {
		}

		/**
		 * Per-origin cooldown.
		 *
		 * @param enabled whether it applies
		 * @param mode {@code wait} or {@code fail-fast}
		 */
		public record Cooldown(boolean enabled, String mode) {
		}

		/**
		 * Retry budget settings.
		 *
		 * @param enabled whether it applies
		 * @param ratio retries allowed per request over the window
		 * @param minPerSecond retries always allowed per second
		 * @param window the window
		 */
		public record Budget(boolean enabled, double ratio, int minPerSecond, String window) {
		}

	}

}
