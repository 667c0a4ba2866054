package dev.retryafter.core;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CauseChain}: outermost first, each throwable once, bounded, and a chain that
 * loops back on itself ends the walk instead of hanging it.
 */
class CauseChainTests {

	@Test
	void whenAFailureWrapsOthersThenTheChainIsOutermostFirst() {
		IOException io = new IOException("read");
		UncheckedIOException unchecked = new UncheckedIOException(io);
		IllegalStateException outer = new IllegalStateException(unchecked);

		assertThat(CauseChain.of(outer)).containsExactly(outer, unchecked, io);
		assertThat(CauseChain.find(outer, IOException.class)).isSameAs(io);
		assertThat(CauseChain.find(outer, RuntimeException.class)).isSameAs(outer);
		assertThat(CauseChain.find(outer, InterruptedException.class)).isNull();
		assertThat(CauseChain.root(outer)).isSameAs(io);
	}

	@Test
	void whenNullThenTheChainIsEmpty() {
		assertThat(CauseChain.of(null)).isEmpty();
		assertThat(CauseChain.find(null, IOException.class)).isNull();
	}

	@Test
	void whenTwoCausesPointAtEachOtherThenEachIsVisitedOnceAndTheRootIsReached() {
		Looping a = new Looping("a");
		Looping b = new Looping("b");
		a.next = b;
		b.next = a;

		assertThat(CauseChain.of(a)).containsExactly(a, b);
		assertThat(CauseChain.root(a)).isSameAs(b);
		assertThat(CauseChain.find(a, IOException.class)).isNull();
	}

	@Test
	void whenTheChainIsDeeperThanTheBoundThenTheWalkStopsThere() {
		Throwable failure = new IOException("deepest");
		for (int i = 0; i < 40; i++) {
			failure = new IllegalStateException(failure);
		}

		assertThat(CauseChain.of(failure)).hasSize(CauseChain.MAX_DEPTH);
		assertThat(CauseChain.of(failure, 32)).hasSize(32);
		assertThat(CauseChain.find(failure, IOException.class)).isNull();
	}

	/** A throwable whose cause can be set to form a loop, as a careless wrapper may. */
	private static final class Looping extends RuntimeException {

		private Throwable next;

		Looping(String message) {
			super(message, null, false, false);
		}

		@Override
		public synchronized Throwable getCause() {
			return this.next;
		}

	}

}
