package dev.retryafter.call;

import java.net.URI;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.core.IdempotencyMark;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetrySettings;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.mock.http.client.MockClientHttpRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RequestFactsResolver}.
 */
class RequestFactsResolverTests {

	private final RequestFactsResolver resolver = new RequestFactsResolver();

	private final RetrySettings settings = RetrySettings.defaults();

	@Test
	void whenPlainRequestThenMethodOnlyAndBodyReplayable() {
		RequestFacts facts = this.resolver.resolve(request(HttpMethod.GET), this.settings);

		assertThat(facts).isEqualTo(new RequestFacts("GET", IdempotencyMark.UNSPECIFIED, false, true));
	}

	@Test
	void whenMarkedIdempotentThenRepeatable() {
		MockClientHttpRequest request = request(HttpMethod.POST);
		RetryAfterAttributes.idempotent().accept(request.getAttributes());

		assertThat(this.resolver.resolve(request, this.settings))
			.isEqualTo(new RequestFacts("POST", IdempotencyMark.REPEATABLE, false, true));
	}

	@Test
	void whenMarkedNotIdempotentThenNotRepeatable() {
		MockClientHttpRequest request = request(HttpMethod.GET);
		RetryAfterAttributes.notIdempotent().accept(request.getAttributes());

		assertThat(this.resolver.resolve(request, this.settings).mark()).isEqualTo(IdempotencyMark.NOT_REPEATABLE);
	}

	@Test
	void whenAttributeIsNotABooleanThenUnspecified() {
		MockClientHttpRequest request = request(HttpMethod.POST);
		request.getAttributes().put(RetryAfterAttributes.IDEMPOTENT, "true");

		assertThat(this.resolver.resolve(request, this.settings).mark()).isEqualTo(IdempotencyMark.UNSPECIFIED);
	}

	@Test
	void whenIdempotencyKeyHeaderPresentThenHasKey() {
		MockClientHttpRequest request = request(HttpMethod.POST);
		request.getHeaders().add("idempotency-key", "order-42");

		assertThat(this.resolver.resolve(request, this.settings))
			.isEqualTo(new RequestFacts("POST", IdempotencyMark.UNSPECIFIED, true, true));
	}

	@Test
	void whenIdempotencyKeyHeaderIsBlankThenNoKey() {
		MockClientHttpRequest request = request(HttpMethod.POST);
		request.getHeaders().add("Idempotency-Key", " \t");

		assertThat(this.resolver.resolve(request, this.settings).hasIdempotencyKey()).isFalse();
	}

	@Test
	void whenOneOfSeveralIdempotencyKeyLinesHasAValueThenHasKey() {
		MockClientHttpRequest request = request(HttpMethod.POST);
		request.getHeaders().add("Idempotency-Key", "");
		request.getHeaders().add("Idempotency-Key", "order-42");

		assertThat(this.resolver.resolve(request, this.settings).hasIdempotencyKey()).isTrue();
	}

	@Test
	void whenIdempotencyKeyHeaderIsConfiguredEmptyThenTheHeaderIsIgnored() {
		MockClientHttpRequest request = request(HttpMethod.POST);
		request.getHeaders().add("Idempotency-Key", "order-42");

		assertThat(this.resolver.resolve(request, this.settings.withIdempotencyKeyHeader("")).hasIdempotencyKey())
			.isFalse();
	}

	@Test
	void whenIdempotencyKeyHeaderIsRenamedThenOnlyTheNewNameCounts() {
		RetrySettings renamed = this.settings.withIdempotencyKeyHeader("X-Request-Id");
		MockClientHttpRequest oldName = request(HttpMethod.POST);
		oldName.getHeaders().add("Idempotency-Key", "order-42");
		MockClientHttpRequest newName = request(HttpMethod.POST);
		newName.getHeaders().add("X-Request-Id", "order-42");

		assertThat(this.resolver.resolve(oldName, renamed).hasIdempotencyKey()).isFalse();
		assertThat(this.resolver.resolve(newName, renamed).hasIdempotencyKey()).isTrue();
	}

	@Test
	void whenTheHeaderNameChangesBetweenRequestsThenEachRequestIsJudgedByItsOwnSettings() {
		RetrySettings renamed = this.settings.withIdempotencyKeyHeader("X-Request-ID");
		MockClientHttpRequest withKey = request(HttpMethod.POST);
		withKey.getHeaders().add("IDEMPOTENCY-KEY", "order-42");
		MockClientHttpRequest withRequestId = request(HttpMethod.POST);
		withRequestId.getHeaders().add("x-request-id", "order-42");

		for (int i = 0; i < 2; i++) {
			assertThat(this.resolver.resolve(withKey, this.settings).hasIdempotencyKey()).isTrue();
			assertThat(this.resolver.resolve(withKey, renamed).hasIdempotencyKey()).isFalse();
			assertThat(this.resolver.resolve(withRequestId, renamed).hasIdempotencyKey()).isTrue();
			assertThat(this.resolver.resolve(withRequestId, this.settings).hasIdempotencyKey()).isFalse();
		}
	}

	private static MockClientHttpRequest request(HttpMethod method) {
		return new MockClientHttpRequest(method, URI.create("http://127.0.0.1:8080/orders"));
	}

}
