package dev.retryafter.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The default settings and the named clients, each applying to the hosts it lists (and, by
 * its name, to the requests of the client adapters that name it, such as an HTTP service
 * group's client). Resolving a request's host is one map look-up.
 *
 * @since 0.1.0
 */
public final class ClientSettingsCatalog {

	private final ClientSettings defaults;

	private final Map<String, ClientSettings> named;

	private final Map<String, ClientSettings> byHost;

	private final Map<String, Set<String>> hostsByClient;

	/** Whether any listed host names a port: only then is a {@code host:port} key built per request. */
	private final boolean portsListed;

	/**
	 * Creates the set of clients.
	 * @param defaults the settings for hosts no named client lists
	 * @param named the named clients, each with the hosts it applies to; a host entry is a
	 * host name ({@code api.example.com}) or a host and port ({@code api.example.com:8443}),
	 * matched case-insensitively
	 * @throws IllegalArgumentException if two clients list the same host
	 */
	public ClientSettingsCatalog(RetrySettings defaults, Map<String, NamedClient> named) {
		this.defaults = new ClientSettings(ClientSettings.DEFAULT_NAME, defaults);
		Map<String, ClientSettings> clients = new LinkedHashMap<>();
		Map<String, ClientSettings> hosts = new HashMap<>();
		Map<String, Set<String>> hostsByClient = new HashMap<>();
		named.forEach((name, client) -> {
			ClientSettings settings = new ClientSettings(name, client.settings());
			clients.put(name, settings);
			hostsByClient.put(name, client.hosts());
			for (String host : client.hosts()) {
				ClientSettings previous = hosts.put(host.toLowerCase(Locale.ROOT), settings);
				// One client may spell its own host twice (hosts match case-insensitively).
				if (previous != null && previous != settings) {
					throw new IllegalArgumentException("Host '" + host + "' is listed by clients '" + previous.name()
							+ "' and '" + name + "'");
				}
			}
		});
		this.named = Collections.unmodifiableMap(clients);
		this.byHost = Map.copyOf(hosts);
		this.portsListed = hosts.keySet().stream().anyMatch(ClientSettingsCatalog::endsWithPort);
		this.hostsByClient = Map.copyOf(hostsByClient);
	}

	/**
	 * Clients with default settings only.
	 * @param defaults the settings
	 * @return the clients
	 */
	public static ClientSettingsCatalog of(RetrySettings defaults) {
		return new ClientSettingsCatalog(defaults, Map.of());
	}

	/**
	 * The settings for a request to {@code host} on {@code port}: the named client listing
	 * {@code host:port}, else the one listing {@code host}, else the defaults.
	 * @param host the request's host
	 * @param port the request's port, or -1 when not known
	 * @return the settings in force
	 */
	public ClientSettings resolve(String host, int port) {
		if (this.byHost.isEmpty()) {
			return this.defaults;
		}
		String lower = host.toLowerCase(Locale.ROOT);
		ClientSettings byPort = (port >= 0 && this.portsListed) ? this.byHost.get(lower + ":" + port) : null;
		if (byPort != null) {
			return byPort;
		}
		return this.byHost.getOrDefault(lower, this.defaults);
	}

	/**
	 * The named client of that name, for a request whose client names it rather than leaving
	 * it to the request's host.
	 * @param name the client's name
	 * @return its settings, or {@code null} when no named client has that name (the default
	 * client is never returned by name)
	 */
	public @Nullable ClientSettings named(String name) {
		return this.named.get(name);
	}

	/**
	 * Whether an entry could equal some {@code host + ":" + port} key: it ends with a colon
	 * and digits. Generous on purpose (an unbracketed IPv6 address such as {@code ::1} counts),
	 * since a false "yes" only costs the key being built.
	 */
	private static boolean endsWithPort(String entry) {
		int colon = entry.lastIndexOf(':');
		if (colon < 0 || colon == entry.length() - 1) {
			return false;
		}
		for (int i = colon + 1; i < entry.length(); i++) {
			char c = entry.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
		}
		return true;
	}

	/**
	 * The default client's settings.
	 * @return the defaults, named {@link ClientSettings#DEFAULT_NAME}
	 */
	public ClientSettings defaults() {
		return this.defaults;
	}

	/**
	 * Every client, the default first, in configuration order.
	 * @return all clients
	 */
	public List<ClientSettings> all() {
		List<ClientSettings> all = new ArrayList<>(this.named.size() + 1);
		all.add(this.defaults);
		all.addAll(this.named.values());
		return all;
	}

	/**
	 * The hosts a named client applies to, as configured.
	 * @param name the client's name
	 * @return its hosts; empty for {@link ClientSettings#DEFAULT_NAME} and unknown names
	 */
	public Set<String> hosts(String name) {
		return this.hostsByClient.getOrDefault(name, Set.of());
	}

	/**
	 * A named client's settings and hosts.
	 *
	 * @param hosts the hosts it applies to; may be empty for a client that applies only to
	 * the requests that name it
	 * @param settings its settings
	 */
	public record NamedClient(Set<String> hosts, RetrySettings settings) {

		public NamedClient {
			hosts = Set.copyOf(hosts);
			Objects.requireNonNull(settings, "settings");
		}

	}

}
