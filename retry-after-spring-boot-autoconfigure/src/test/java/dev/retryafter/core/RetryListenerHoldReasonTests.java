package dev.retryafter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.Held;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hold's reason reaches every listener of a composite, and a listener that only knows the
 * hold without its reason still hears of it.
 */
class RetryListenerHoldReasonTests {

	private static final CooldownKey KEY = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	@Test
	void whenACompositeReportsAHoldThenEveryListenerLearnsItsReason() {
		RecordingListener first = new RecordingListener();
		RecordingListener second = new RecordingListener();
		RetryListener.composite(List.of(first, second))
			.held("default", "GET", KEY, Duration.ofMillis(40), HoldReason.RELEASE_WINDOW);
		assertThat(first.holdReasons()).containsExactly(HoldReason.RELEASE_WINDOW);
		assertThat(second.holdReasons()).containsExactly(HoldReason.RELEASE_WINDOW);
		assertThat(second.events()).containsExactly(new Held("default", "GET", KEY, Duration.ofMillis(40)));
	}

	@Test
	void whenAListenerKnowsOnlyTheHoldThenItHearsOfItWithoutTheReason() {
		List<Duration> holds = new ArrayList<>();
		RetryListener plain = new RetryListener() {

			@Override
			public void held(String client, String method, CooldownKey key, Duration heldFor) {
				holds.add(heldFor);
			}

		};
		plain.held("default", "GET", KEY, Duration.ofMillis(40), HoldReason.PACING);
		assertThat(holds).containsExactly(Duration.ofMillis(40));
	}

}
