package dev.retryafter.client;

import java.util.Objects;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.core.ClientSettingsCatalog;

import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer;
import org.springframework.web.service.registry.HttpServiceGroup;

/**
 * Gives the client of each {@code RestClient} HTTP service group the settings of the named
 * client of the same name ({@code retry-after.clients.<group>}): every request of that group
 * carries the group's name in {@link RetryAfterAttributes#CLIENT}, which the
 * {@link RetryAfterInterceptor} reads before the request's host. A group no named client is
 * named after is left alone.
 * <p>
 * It adds no interceptor: Boot applies the {@link RetryAfterRestClientCustomizer} to each
 * group's builder already, and a second interceptor would retry every attempt of the first.
 *
 * @since 0.1.0
 */
public class RetryAfterRestClientGroupConfigurer implements RestClientHttpServiceGroupConfigurer {

	private final ClientSettingsCatalog clients;

	/**
	 * Creates a configurer naming the groups after the named clients among {@code clients}.
	 * @param clients the named clients
	 */
	public RetryAfterRestClientGroupConfigurer(ClientSettingsCatalog clients) {
		this.clients = Objects.requireNonNull(clients, "clients");
	}

	@Override
	public void configureGroups(Groups<RestClient.Builder> groups) {
		groups.filter((group) -> this.clients.named(group.name()) != null).forEachClient(this::nameClient);
	}

	private void nameClient(HttpServiceGroup group, RestClient.Builder builder) {
		builder.defaultRequest((request) -> request.attributes(RetryAfterAttributes.client(group.name())));
	}

}
