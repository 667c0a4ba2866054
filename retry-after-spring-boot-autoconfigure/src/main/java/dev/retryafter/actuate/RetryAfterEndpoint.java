package dev.retryafter.actuate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.spi.CallTime;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code GET /actuator/retryafter}: the effective settings of {@code default} and of each
 * named client with its hosts, the cooldowns running (origin, partition digest prefix, time
 * left), what can hold a request under each key (the cooldown's instant, the requests it
 * held still leaving, the learned pacing rate and next free slot), and the retry budgets.
 * Durations are written as in {@code application.yml}
 * ({@code 10s}, {@code 500ms}). It shows configuration and counters only: never request
 * headers, credentials, bodies or a full partition digest.
 * <p>
 * {@code DELETE /actuator/retryafter} ends every cooldown; with
 * {@code ?origin=scheme://host:port} it ends that origin's, every partition of it. With the
 * Redis store that ends them for the whole fleet, so the endpoint is read-only unless the
 * application opens it with {@code management.endpoint.retryafter.access=unrestricted}
 * (and, over HTTP, should then guard it, e.g. with Spring Security).
 *
 * @since 0.1.0
 */
@Endpoint(id = "retryafter", defaultAccess = Access.READ_ONLY)
public class RetryAfterEndpoint {

	private final ClientSettingsCatalog clients;

	private final OriginProtectionState state;

	/**
	 * Creates the endpoint on the system's monotonic clock (the interceptor's).
	 * @param clients the configured clients
	 * @param cooldowns the host cooldowns
	 * @param budgets the retry budgets
	 */
	public RetryAfterEndpoint(ClientSettingsCatalog clients, CooldownStore cooldowns, RetryBudgets budgets) {
		this(clients, new OriginProtectionState(clients, cooldowns, budgets, MonotonicClock.SYSTEM));
	}

	/**
	 * Creates the endpoint on the calls' time, when they do not run on the system's (a test's
	 * virtual time), so that the time left it shows is the calls' own.
	 * @param clients the configured clients
	 * @param cooldowns the host cooldowns
	 * @param budgets the retry budgets
	 * @param time the clocks the calls read
	 * @since 0.2.0
	 */
	public RetryAfterEndpoint(ClientSettingsCatalog clients, CooldownStore cooldowns, RetryBudgets budgets, CallTime time) {
		this(clients, new OriginProtectionState(clients, cooldowns, budgets, time.monotonicClock(), time.wallClock()));
	}

	RetryAfterEndpoint(ClientSettingsCatalog clients, OriginProtectionState state) {
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
			clients.put(client.name(), new ClientDescriptor(hosts, SettingsDescriptors.of(client.settings())));
		}
		// Copied in order: the budgets come in configuration order, default first.
		return new RetryAfterDescriptor(clients, List.copyOf(this.state.cooldowns()),
				Collections.unmodifiableMap(new LinkedHashMap<>(this.state.budgets())), this.state.store(),
				List.copyOf(this.state.protection()), List.copyOf(this.state.quotas()));
	}

	/**
	 * Ends cooldowns at once, e.g. after the origin's operators said it recovered.
	 * @param origin {@code scheme://host:port} (the port may be left out for the scheme's
	 * default) whose cooldowns end, every partition of it; {@code null} ends every cooldown
	 * @return what was ended
	 * @throws InvalidEndpointRequestException if {@code origin} is not an origin (answered
	 * with {@code 400} over HTTP)
	 */
	@DeleteOperation
	public EndedDescriptor end(@Nullable String origin) {
		if (origin == null) {
			return new EndedDescriptor(this.state.end(null));
		}
		return new EndedDescriptor(this.state.end(OriginArgument.parse(origin)));
	}

	/**
	 * The answer to {@code DELETE}: the cooldowns that were running and are now ended.
	 *
	 * @param ended each ended cooldown as its origin, followed by {@code #} and the partition
	 * digest prefix when partitioned and {@code @} and the scope when scoped, sorted
	 */
	public record EndedDescriptor(List<String> ended) implements OperationResponseBody {
	}

	/**
	 * The endpoint's response. Fields are only ever added, so clients of this JSON keep
	 * working.
	 *
	 * @param clients each client's hosts and settings, {@code default} first
	 * @param cooldowns the origins, or partitions of origins, currently cooling down
	 * @param budgets the retry budget state by client name
	 * @param store the cooldown store's state
	 * @param protection what can hold a request under each key now, so that every hold can be
	 * explained
	 * @param quotas the last quota each origin, or partition of an origin, announced in its
	 * responses, ordered by origin
	 */
	public record RetryAfterDescriptor(Map<String, ClientDescriptor> clients, List<CooldownDescriptor> cooldowns,
			Map<String, BudgetDescriptor> budgets, StoreDescriptor store,
			List<ProtectionDescriptor> protection, List<QuotaDescriptor> quotas) implements OperationResponseBody {
	}

	/**
	 * What can hold a first attempt under one key (an origin, or one partition of it): each
	 * reason a hold is logged with ({@code cooldown}, {@code release-window}, {@code pacing})
	 * is explained by one of these fields. Instants are ISO-8601 on this instance's wall clock,
	 * to the millisecond, to be read against the log's timestamps.
	 *
	 * @param client the named client the origin belongs to, or {@code default}
	 * @param origin scheme, host and port
	 * @param partition the partition digest prefix, or {@code null} for the whole origin
	 * @param notBefore the cooldown's instant (past once it has ended but requests it held are
	 * still leaving), or {@code null} when no cooldown is kept for the key
	 * @param releaseWindowEnds when the last request the cooldown held leaves; until then a
	 * first attempt queues behind them; {@code null} when none is still to leave
	 * @param leaving how many requests the cooldown held are still to leave
	 * @param pacedRate the learned pacing rate in requests per second, or {@code null} before
	 * one is learned
	 * @param nextSlot the paced slot a first attempt asking now would get (before its
	 * jitter), or {@code null} when pacing would not hold it
	 * @param scope the part of the origin the key covers ({@code route:/search},
	 * {@code bucket:core}, {@code prefix:/api/search}; see {@link CooldownScope}), or
	 * {@code null} for the whole origin (or partition)
	 */
	public record ProtectionDescriptor(String client, String origin, @Nullable String partition,
			@Nullable String notBefore, @Nullable String releaseWindowEnds, int leaving, @Nullable Double pacedRate,
			@Nullable String nextSlot, @Nullable String scope) {

		/**
		 * What can hold a first attempt under a whole origin, or one partition of it.
		 * @param client the named client the origin belongs to, or {@code default}
		 * @param origin scheme, host and port
		 * @param partition the partition digest prefix, or {@code null}
		 * @param notBefore the cooldown's instant, or {@code null}
		 * @param releaseWindowEnds when the last request the cooldown held leaves, or {@code null}
		 * @param leaving how many requests the cooldown held are still to leave
		 * @param pacedRate the learned pacing rate, or {@code null}
		 * @param nextSlot the paced slot a first attempt asking now would get, or {@code null}
		 */
		public ProtectionDescriptor(String client, String origin, @Nullable String partition,
				@Nullable String notBefore, @Nullable String releaseWindowEnds, int leaving,
				@Nullable Double pacedRate, @Nullable String nextSlot) {
			this(client, origin, partition, notBefore, releaseWindowEnds, leaving, pacedRate, nextSlot, null);
		}

	}

	/**
	 * The last quota an origin, or one partition of an origin, announced in its quota fields
	 * (any dialect of {@code retry-after.rate-limit.fields}), by which its first attempts are
	 * paced.
	 *
	 * @param client the named client the origin belongs to, or {@code default}
	 * @param origin scheme, host and port, e.g. {@code https://api.example.com:443}
	 * @param partition the partition digest prefix, or {@code null} for the whole origin
	 * @param policy the policy's name as the server gave it ({@code RateLimit}'s policy,
	 * GitHub's resource, GitLab's name, or a vendor's quota such as {@code requests} or
	 * {@code tokens}), empty when the dialect names none
	 * @param fields the dialect it was read in: {@code ietf}, {@code x-ratelimit},
	 * {@code github}, {@code gitlab}, {@code openai}, {@code anthropic} or {@code discord}
	 * @param remaining requests the last response said remain until the reset
	 * @param resetIn time left until that reset, formatted by {@link DurationFormat}
	 * @param scope the bucket or configured scope the quota was announced for, or {@code null}
	 * for the whole origin (or partition)
	 */
	public record QuotaDescriptor(String client, String origin, @Nullable String partition, String policy,
			String fields, long remaining, String resetIn, @Nullable String scope) {

		/**
		 * A quota announced for a whole origin, or one partition of it.
		 * @param client the named client the origin belongs to, or {@code default}
		 * @param origin scheme, host and port
		 * @param partition the partition digest prefix, or {@code null}
		 * @param policy the policy's name, empty when the dialect names none
		 * @param fields the dialect it was read in, such as {@code ietf} or {@code openai}
		 * @param remaining requests that remain until the reset
		 * @param resetIn time left until that reset
		 */
		public QuotaDescriptor(String client, String origin, @Nullable String partition, String policy,
				String fields, long remaining, String resetIn) {
			this(client, origin, partition, policy, fields, remaining, resetIn, null);
		}

	}

	/**
	 * An origin, or one partition of an origin, that is cooling down.
	 *
	 * @param client the named client the origin belongs to, or {@code default}
	 * @param origin scheme, host and port, e.g. {@code https://api.example.com:443}
	 * @param remaining time left before requests may be sent again, rounded up to the
	 * millisecond ({@link DurationFormat#formatMeasured}), e.g. {@code 4s} or {@code 1706ms}
	 * @param partition the first {@value CooldownKey#SHOWN_PREFIX_LENGTH} digits of the
	 * partition digest ({@link CooldownKey#partitionPrefix()}), or {@code null} when the
	 * cooldown holds the whole origin
	 * @param scope the part of the origin (or partition) the cooldown holds, as
	 * {@code kind:name} ({@code route:/search}, {@code bucket:core}, {@code prefix:/api/search};
	 * see {@link CooldownScope}), or {@code null} for all of it
	 */
	public record CooldownDescriptor(String client, String origin, String remaining, @Nullable String partition,
			@Nullable String scope) {

		/**
		 * A cooldown on a whole origin, or on one partition of it.
		 * @param client the named client the origin belongs to, or {@code default}
		 * @param origin scheme, host and port
		 * @param remaining time left, formatted by {@link DurationFormat}
		 * @param partition the partition digest prefix, or {@code null}
		 */
		public CooldownDescriptor(String client, String origin, String remaining, @Nullable String partition) {
			this(client, origin, remaining, partition, null);
		}

		/**
		 * A cooldown on a whole origin.
		 * @param client the named client the origin belongs to, or {@code default}
		 * @param origin scheme, host and port
		 * @param remaining time left, formatted by {@link DurationFormat}
		 */
		public CooldownDescriptor(String client, String origin, String remaining) {
			this(client, origin, remaining, null);
		}

	}

	/**
	 * Where cooldowns are kept, and whether it works.
	 *
	 * @param type {@code local} or {@code redis}
	 * @param connected whether the store shares cooldowns now (always {@code true} for
	 * {@code local}; {@code false} for {@code redis} during an outage)
	 * @param since when {@code connected} last changed, ISO-8601 (for {@code local}, when the
	 * JVM started)
	 * @param errors the failures counted in {@code http.client.retry.store.errors}
	 */
	public record StoreDescriptor(String type, boolean connected, String since, long errors) {
	}

	/**
	 * A client's retry budget over its current window.
	 *
	 * @param requests first attempts counted in the window
	 * @param retries retries spent in the window
	 * @param available retries still allowed in the window
	 */
	public record BudgetDescriptor(long requests, long retries, long available) {
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
		 * @param statuses statuses whose {@code Retry-After} starts a cooldown, ascending
		 * @param partitionHeaders request headers whose values split an origin's cooldown, in
		 * configuration order
		 * @param scopes path prefixes that form cooldown scopes of their own, in configuration
		 * order
		 */
		public record Cooldown(boolean enabled, String mode, List<Integer> statuses, List<String> partitionHeaders,
				List<String> scopes) {

			/**
			 * Settings with no configured scopes.
			 * @param enabled whether it applies
			 * @param mode {@code wait} or {@code fail-fast}
			 * @param statuses statuses whose {@code Retry-After} starts a cooldown, ascending
			 * @param partitionHeaders request headers whose values split an origin's cooldown
			 */
			public Cooldown(boolean enabled, String mode, List<Integer> statuses, List<String> partitionHeaders) {
				this(enabled, mode, statuses, partitionHeaders, List.of());
			}

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
