package dev.retryafter.autoconfigure;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.ClientSettingsCatalog;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.web.service.registry.HttpServiceProxyRegistry;

/**
 * Fails start-up when a named client lists no hosts and no HTTP service group has its name:
 * such a client would apply to no request at all, and its settings would be believed in
 * silence. Checked once every singleton exists, because the groups are known only once the
 * {@link HttpServiceProxyRegistry} (if any) is built; Boot keeps such beans eager under lazy
 * initialization too.
 */
final class HttpServiceGroupCheck implements SmartInitializingSingleton {

	private final ClientSettingsCatalog clients;

	private final ObjectProvider<HttpServiceProxyRegistry> registry;

	HttpServiceGroupCheck(ClientSettingsCatalog clients, ObjectProvider<HttpServiceProxyRegistry> registry) {
		this.clients = clients;
		this.registry = registry;
	}

	@Override
	public void afterSingletonsInstantiated() {
		// all() lists the defaults first, then the named clients (one may be called "default").
		List<String> hostless = this.clients.all()
			.stream()
			.skip(1)
			.map(ClientSettings::name)
			.filter((name) -> this.clients.hosts(name).isEmpty())
			.toList();
		if (hostless.isEmpty()) {
			return;
		}
		HttpServiceProxyRegistry groups = this.registry.getIfAvailable();
		Set<String> groupNames = new TreeSet<>((groups != null) ? groups.getGroupNames() : Set.of());
		for (String name : hostless) {
			if (!groupNames.contains(name)) {
				throw new InvalidConfigurationPropertyValueException(
						RetryAfterSettingsMapper.PREFIX + ".clients." + name + ".hosts", "[]",
						"a named client must list at least one host, or be named after an HTTP service group ("
								+ (groupNames.isEmpty() ? "there is none" : "there are " + String.join(", ", groupNames))
								+ ")");
			}
		}
	}

}
