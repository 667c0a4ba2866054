package dev.retryafter.core;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What a request's path and a server's bucket field make of a cooldown scope, and how a
 * scoped key is written for Redis and read back.
 */
class CooldownScopeTests {

	private static final Origin ORIGIN = Origin.of("https", "api.example", -1);

	@Test
	void whenAPathHasSegmentsThenItsRouteIsTheFirstSegment() {
		assertThat(CooldownScope.route("/search/issues")).isEqualTo(new CooldownScope(CooldownScope.Kind.ROUTE, "/search"));
		assertThat(CooldownScope.route("/items")).isEqualTo(new CooldownScope(CooldownScope.Kind.ROUTE, "/items"));
		assertThat(CooldownScope.route("/items/123")).isEqualTo(CooldownScope.route("/items/456"));
	}

	@Test
	void whenAPathHasNoSafeFirstSegmentThenItHasNoRoute() {
		assertThat(CooldownScope.route(null)).isNull();
		assertThat(CooldownScope.route("")).isNull();
		assertThat(CooldownScope.route("/")).isNull();
		assertThat(CooldownScope.route("//x")).isNull();
		assertThat(CooldownScope.route("/a b")).isNull();
		assertThat(CooldownScope.route("/a@b")).isNull();
		assertThat(CooldownScope.route("/" + "x".repeat(CooldownScope.MAX_NAME_LENGTH))).isNull();
	}

	@Test
	void whenAServerNamesABucketThenOnlyASafeNameIsKept() {
		assertThat(CooldownScope.bucket(" core ")).isEqualTo(new CooldownScope(CooldownScope.Kind.BUCKET, "core"));
		assertThat(CooldownScope.bucket("abcd1234.ef_-")).isNotNull();
		assertThat(CooldownScope.bucket(null)).isNull();
		assertThat(CooldownScope.bucket("")).isNull();
		assertThat(CooldownScope.bucket("a b")).isNull();
		assertThat(CooldownScope.bucket("a\r\nb")).isNull();
		assertThat(CooldownScope.bucket("x".repeat(65))).isNull();
	}

	@Test
	void whenPrefixesAreConfiguredThenTheLongestCoveringOneAtASegmentBoundaryWins() {
		List<String> prefixes = List.of("/api", "/api/search");
		assertThat(CooldownScope.prefix(prefixes, "/api/search/issues").name()).isEqualTo("/api/search");
		assertThat(CooldownScope.prefix(prefixes, "/api/search").name()).isEqualTo("/api/search");
		assertThat(CooldownScope.prefix(prefixes, "/api/searches").name()).isEqualTo("/api");
		assertThat(CooldownScope.prefix(prefixes, "/apis")).isNull();
		assertThat(CooldownScope.prefix(List.of("/"), "/anything/at/all").name()).isEqualTo("/");
		assertThat(CooldownScope.prefix(List.of("/"), "")).isNotNull();
		assertThat(CooldownScope.prefix(List.of(), "/api")).isNull();
	}

	@Test
	void whenAPrefixIsMalformedThenItIsNotAScope() {
		assertThat(CooldownScope.isPathPrefix("/api/v1")).isTrue();
		assertThat(CooldownScope.isPathPrefix("/")).isTrue();
		assertThat(CooldownScope.isPathPrefix("api")).isFalse();
		assertThat(CooldownScope.isPathPrefix("/api/")).isFalse();
		assertThat(CooldownScope.isPathPrefix("/a//b")).isFalse();
		assertThat(CooldownScope.isPathPrefix("/a b")).isFalse();
		assertThat(CooldownScope.isPathPrefix("")).isFalse();
		assertThatIllegalArgumentException().isThrownBy(() -> new CooldownScope(CooldownScope.Kind.PREFIX, "api"));
	}

	@Test
	void whenAScopedKeyIsWrittenThenItIsReadBack() {
		CooldownKey route = CooldownKey.of(ORIGIN).withScope(CooldownScope.route("/search/x"));
		CooldownKey bucket = new CooldownKey(ORIGIN, "0123456789abcdef0123456789abcdef", CooldownScope.bucket("core"));
		CooldownKey prefix = CooldownKey.of(ORIGIN).withScope(CooldownScope.prefix(List.of("/api/v1"), "/api/v1/x"));

		assertThat(route).hasToString("https://api.example:443@route:/search");
		assertThat(bucket).hasToString("https://api.example:443#0123456789abcdef0123456789abcdef@bucket:core");
		for (CooldownKey key : List.of(route, bucket, prefix, CooldownKey.of(ORIGIN))) {
			assertThat(CooldownKey.parse(key.toString())).contains(key);
		}
		assertThat(route.unscoped()).isEqualTo(CooldownKey.of(ORIGIN));
		assertThat(route.declared()).isEqualTo(CooldownKey.of(ORIGIN));
		assertThat(bucket.declared()).isEqualTo(bucket);
	}

	@Test
	void whenAScopedKeyIsMalformedThenItIsNotReadAsTheWholeOrigin() {
		assertThat(CooldownKey.parse("https://api.example:443@route:")).isEmpty();
		assertThat(CooldownKey.parse("https://api.example:443@nothing:/x")).isEmpty();
		assertThat(CooldownKey.parse("https://api.example:443@route")).isEmpty();
		assertThat(CooldownKey.parse("https://api.example:443@bucket:a b")).isEmpty();
		assertThat(Origin.parse("https://api.example:443@route:/search")).isEmpty();
	}

}
