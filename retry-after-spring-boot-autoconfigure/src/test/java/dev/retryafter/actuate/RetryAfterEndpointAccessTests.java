package dev.retryafter.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.core.annotation.MergedAnnotations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ending cooldowns is a write that, with a shared store, reaches a whole fleet: Actuator maps
 * it only when the application opens the endpoint. Shown over HTTP in the sample app's
 * {@code RetryAfterEndpointAccessTests}.
 */
class RetryAfterEndpointAccessTests {

	@Test
	void whenNotOpenedThenOnlyReadsAreAllowed() {
		Endpoint endpoint = MergedAnnotations.from(RetryAfterEndpoint.class).get(Endpoint.class).synthesize();
		assertThat(endpoint.id()).isEqualTo("retryafter");
		assertThat(endpoint.defaultAccess()).isEqualTo(Access.READ_ONLY);
	}

}
