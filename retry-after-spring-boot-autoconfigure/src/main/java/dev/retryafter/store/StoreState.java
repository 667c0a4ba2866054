package dev.retryafter.store;

import java.time.Instant;
import java.util.Objects;

/**
 * What a {@link CooldownStore} reports about itself (the {@code store} part of the
 * {@code retryafter} actuator endpoint).
 *
 * @param type the store's name, {@code local} or {@code redis}
 * @param connected whether the store shares cooldowns now; always {@code true} for the local
 * store, {@code false} for a Redis store during an outage and before it first connected
 * @param since when {@code connected} last changed (or the store was created), on the wall clock
 * @param errors the failures counted so far ({@code http.client.retry.store.errors})
 * @since 0.2.0
 */
public record StoreState(String type, boolean connected, Instant since, long errors) {

	public StoreState {
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(since, "since");
	}

}
