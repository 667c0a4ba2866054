package dev.retryafter.call;

import java.time.Duration;
import java.util.Map;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.protection.RateLimitState;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RateLimitFieldReader}: the last {@code RateLimit} reading is reused only for the
 * same text, and every response is still recorded.
 */
class RateLimitFieldReaderTests {

	private final FakeClock clock = new FakeClock();

	private final LocalCooldownStore store = new LocalCooldownStore(new OriginProtection(10));

	private final RateLimitFieldReader quotaFields = new RateLimitFieldReader(this.store, this.clock, this.clock);

	private final RetrySettings settings = RetrySettings.defaults();

	private final CooldownKey key = CooldownKey.of(Origin.of("https", "api.example.com", 443));

	@Test
	void sameTextIsRecordedOnEveryResponse() {
		record(ietf("\"default\";r=50;t=60"));
		this.clock.advance(Duration.ofSeconds(5));
		record(ietf("\"default\";r=50;t=60"));
		RateLimitState state = quota();
		assertThat(state.remaining()).isEqualTo(50);
		// Recorded again now: the reading's age is the second response's.
		assertThat(state.age()).isZero();
		assertThat(state.resetIn()).isEqualTo(Duration.ofSeconds(60));
	}

	@Test
	void changedRemainingIsParsedAgain() {
		record(ietf("\"default\";r=50;t=60"));
		record(ietf("\"default\";r=0;t=60"));
		assertThat(quota().remaining()).isZero();
		record(ietf("\"default\";r=50;t=60"));
		assertThat(quota().remaining()).isEqualTo(50);
	}

	@Test
	void changedPolicyNameIsParsedAgain() {
		record(ietf("\"default\";r=50;t=60"));
		record(ietf("\"burst\";r=50;t=60"));
		assertThat(quota().policy()).isEqualTo("burst");
	}

	@Test
	void changedPolicyFieldIsParsedAgain() {
		HttpHeaders first = ietf("\"default\";r=50;t=60");
		first.set("RateLimit-Policy", "\"default\";q=100;w=60");
		record(first);
		HttpHeaders second = ietf("\"default\";r=50;t=60");
		record(second);
		// The same RateLimit without a policy: parsed again, not taken for the first one.
		HttpHeaders third = ietf("\"default\";r=7;t=60");
		third.set("RateLimit-Policy", "\"default\";q=100;w=60");
		record(third);
		assertThat(quota().remaining()).isEqualTo(7);
	}

	@Test
	void sameTextWithRetryAfterOrAgeIsNotReadFromTheLastReading() {
		record(ietf("\"default\";r=50;t=60"));
		HttpHeaders withRetryAfter = ietf("\"default\";r=50;t=60");
		withRetryAfter.set("Retry-After", "1");
		HttpHeaders withAge = ietf("\"default\";r=50;t=60");
		withAge.set("Age", "3");
		this.clock.advance(Duration.ofSeconds(5));
		record(withRetryAfter);
		record(withAge);
		// Neither recorded: the reading is still the first response's, five seconds old.
		assertThat(quota().age()).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void legacyFieldsAreParsedOnEveryResponse() {
		HttpHeaders first = new HttpHeaders();
		first.set("X-RateLimit-Remaining", "9");
		first.set("X-RateLimit-Reset", "30");
		record(first);
		HttpHeaders second = new HttpHeaders();
		second.set("X-RateLimit-Remaining", "4");
		second.set("X-RateLimit-Reset", "30");
		record(second);
		assertThat(quota().remaining()).isEqualTo(4);
	}

	private static HttpHeaders ietf(String rateLimit) {
		HttpHeaders headers = new HttpHeaders();
		headers.set("RateLimit", rateLimit);
		return headers;
	}

	private void record(HttpHeaders headers) {
		assertThat(this.quotaFields.present(this.settings, 200, headers)).isTrue();
		this.quotaFields.record(this.settings, this.key, headers);
	}

	private RateLimitState quota() {
		Map<CooldownKey, RateLimitState> quotas = this.store.protection().quotas().snapshot(this.clock.nanoTime());
		assertThat(quotas).containsKey(this.key);
		return quotas.get(this.key);
	}

}
