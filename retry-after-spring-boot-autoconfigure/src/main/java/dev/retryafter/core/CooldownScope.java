package dev.retryafter.core;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The part of an origin a cooldown covers when it covers less than the whole origin: many
 * APIs limit per route or per bucket (GitHub's {@code search} and {@code core} resources,
 * Discord's buckets), so one route's {@code 429} must not hold back the others.
 * <p>
 * A scope is one of three kinds. A {@link Kind#ROUTE route} is the first segment of a
 * request's path, guessed: the server said nothing, so a second route's {@code 429} widens
 * the cooldown to the whole origin. A {@link Kind#BUCKET bucket} is what the server named in
 * {@code X-RateLimit-Bucket} or {@code X-RateLimit-Resource}; a {@link Kind#PREFIX prefix} is
 * one of the client's {@code cooldown.scopes}. Those two are said, not guessed, so they never
 * widen. Names keep to a small character set and length, so that a key stays safe in Redis,
 * in a pub/sub message and in the endpoint; a path or bucket outside it gets no scope, and
 * its request shares the origin's cooldown, as before scopes existed.
 *
 * @param kind how the scope was learned
 * @param name the route's first path segment ({@code /search}), the bucket name, or the
 * configured path prefix
 * @since 0.2.0
 */
public record CooldownScope(Kind kind, String name) {

	/** The longest name a scope keeps: longer paths and buckets get no scope. */
	public static final int MAX_NAME_LENGTH = 64;

	private static final char KIND_SEPARATOR = ':';

	/**
	 * Checks the name's form.
	 * @param kind how the scope was learned
	 * @param name the name
	 */
	public CooldownScope {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(name, "name");
		if (!kind.accepts(name)) {
			throw new IllegalArgumentException("Invalid " + kind.text + " scope name");
		}
	}

	/**
	 * How a scope was learned.
	 */
	public enum Kind {

		/** The first segment of the request path: a guess, widened by a second route's refusal. */
		ROUTE("route"),

		/** The bucket or resource the server named in its rate-limit fields. */
		BUCKET("bucket"),

		/** A path prefix of the client's {@code cooldown.scopes}. */
		PREFIX("prefix");

		private final String text;

		Kind(String text) {
			this.text = text;
		}

		/**
		 * The kind as the key text and the endpoint write it.
		 * @return {@code route}, {@code bucket} or {@code prefix}
		 */
		public String text() {
			return this.text;
		}

		private boolean accepts(String name) {
			return switch (this) {
				case ROUTE -> name.length() > 1 && name.charAt(0) == '/' && safe(name, 1, false);
				case BUCKET -> !name.isEmpty() && safe(name, 0, false);
				case PREFIX -> isPathPrefix(name);
			};
		}

	}

	/**
	 * The route of a request path: its first segment, e.g. {@code /search} for
	 * {@code /search/issues}. High-cardinality parts further down (ids) are left out.
	 * @param rawPath the request's raw (still percent-encoded) path, or {@code null}
	 * @return the route scope, or {@code null} for the root, an empty path, or a segment
	 * outside the safe form
	 */
	public static @Nullable CooldownScope route(@Nullable String rawPath) {
		if (rawPath == null || rawPath.length() < 2 || rawPath.charAt(0) != '/') {
			return null;
		}
		int end = rawPath.indexOf('/', 1);
		String segment = (end < 0) ? rawPath : rawPath.substring(0, end);
		return Kind.ROUTE.accepts(segment) ? new CooldownScope(Kind.ROUTE, segment) : null;
	}

	/**
	 * The scope a server named, from the value of its {@code X-RateLimit-Bucket} or
	 * {@code X-RateLimit-Resource} field.
	 * @param value the field value, or {@code null}
	 * @return the bucket scope, or {@code null} when the value is absent or outside the safe
	 * form
	 */
	public static @Nullable CooldownScope bucket(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String name = value.strip();
		return Kind.BUCKET.accepts(name) ? new CooldownScope(Kind.BUCKET, name) : null;
	}

	/**
	 * The longest configured prefix that covers a request path: the path is the prefix, or
	 * continues it with a {@code /}; {@code /} covers every path.
	 * @param prefixes the client's {@code cooldown.scopes}, each {@linkplain #isPathPrefix
	 * in the safe form}
	 * @param rawPath the request's raw path, or {@code null}
	 * @return the prefix scope, or {@code null} when none covers the path
	 */
	public static @Nullable CooldownScope prefix(List<String> prefixes, @Nullable String rawPath) {
		if (prefixes.isEmpty()) {
			return null;
		}
		String path = (rawPath == null || rawPath.isEmpty()) ? "/" : rawPath;
		String best = null;
		for (String prefix : prefixes) {
			boolean covers = prefix.equals("/") || (path.startsWith(prefix)
					&& (path.length() == prefix.length() || path.charAt(prefix.length()) == '/'));
			if (covers && (best == null || prefix.length() > best.length())) {
				best = prefix;
			}
		}
		return (best != null) ? new CooldownScope(Kind.PREFIX, best) : null;
	}

	/**
	 * Whether a configured scope is a path prefix in the safe form: {@code /}, or segments
	 * of letters, digits and {@code -._~%}, each after a {@code /}, with no empty segment and
	 * no trailing {@code /}, at most {@value #MAX_NAME_LENGTH} characters.
	 * @param prefix the configured value
	 * @return whether it can be a scope
	 */
	public static boolean isPathPrefix(String prefix) {
		if (prefix.equals("/")) {
			return true;
		}
		if (prefix.length() < 2 || prefix.charAt(0) != '/' || prefix.endsWith("/") || prefix.contains("//")) {
			return false;
		}
		return safe(prefix, 1, true);
	}

	private static boolean safe(String name, int from, boolean slashes) {
		if (name.length() > MAX_NAME_LENGTH) {
			return false;
		}
		for (int i = from; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '.' || c == '_' || c == '~' || c == '%' || (slashes && c == '/');
			if (!ok) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether a refusal in this scope may be a sign that the whole origin refuses: only a
	 * guessed route, never what the server or the configuration said.
	 * @return whether the scope is a {@link Kind#ROUTE}
	 */
	public boolean guessed() {
		return this.kind == Kind.ROUTE;
	}

	/**
	 * Parses the form {@link #toString()} produces. Never throws.
	 * @param text the text
	 * @return the scope, or empty if {@code text} is not in that form
	 */
	public static Optional<CooldownScope> parse(String text) {
		int separator = text.indexOf(KIND_SEPARATOR);
		if (separator < 0) {
			return Optional.empty();
		}
		String kindText = text.substring(0, separator);
		String name = text.substring(separator + 1);
		for (Kind kind : Kind.values()) {
			if (kind.text.equals(kindText) && kind.accepts(name)) {
				return Optional.of(new CooldownScope(kind, name));
			}
		}
		return Optional.empty();
	}

	/**
	 * The scope as {@code kind:name}, e.g. {@code route:/search} or {@code bucket:core}.
	 * @return the text form, which {@link #parse(String)} reads back
	 */
	@Override
	public String toString() {
		return this.kind.text + KIND_SEPARATOR + this.name;
	}

}
