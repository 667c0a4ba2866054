package dev.retryafter.reactive;

import java.util.Objects;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.core.ClientSettingsCatalog;

import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.support.WebClientHttpServiceGroupConfigurer;
import org.springframework.web.service.registry.HttpServiceGroup;

/**
 * Gives the client of each {@code WebClient} HTTP service group the settings of the named
 * client of the same name ({@code retry-after.clients.<group>}): every request of that group
 * carries the group's name in {@link RetryAfterAttributes#CLIENT}, which the
 * {@link RetryAfterExchangeFilter} reads before the request's host. A group no named client is
 * named after is left alone.
 * <p>
 * It adds no filter: Boot applies the {@link RetryAfterWebClientCustomizer} to each group's
 * builder already, and a second filter would retry every attempt of the first.
 *
 * @since 0.1.0
 */
public class RetryAfterWebClientGroupConfigurer implements WebClientHttpServiceGroupConfigurer {

	private final ClientSettingsCatalog clients;

	/**
	 * Creates a configurer naming the groups after the named clients among {@code clients}.
	 * @param clients the named clients
	 */
	public RetryAfterWebClientGroupConfigurer(ClientSettingsCatalog clients) {
		this.clients = Objects.requireNonNull(clients, "clients");
	}

	@Override
	public void configureGroups(Groups<WebClient.Builder> groups) {
		groups.filter((group) -> this.clients.named(group.name()) != null).forEachClient(this::nameClient);
	}

	private void nameClient(HttpServiceGroup group, WebClient.Builder builder) {
		builder.defaultRequest((request) -> request.attributes(RetryAfterAttributes.client(group.name())));
	}

}
