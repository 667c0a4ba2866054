package dev.retryafter.core;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The key of a host cooldown: scheme, host and port, as RFC 6454 defines an origin. Always
 * normalised (lower-case scheme and host, an IPv6 literal in brackets, an explicit port), so
 * {@code HTTP://Example.com} and {@code http://example.com:80} are the same origin.
 *
 * @param scheme the scheme, lower case ({@code http} or {@code https} in practice)
 * @param host the host, lower case; an IPv6 literal is kept in brackets ({@code [::1]})
 * @param port the port, 0 to 65535
 * @since 0.1.0
 */
public record Origin(String scheme, String host, int port) {

	public Origin {
		Objects.requireNonNull(scheme, "scheme");
		Objects.requireNonNull(host, "host");
		scheme = scheme.toLowerCase(Locale.ROOT);
		host = host.toLowerCase(Locale.ROOT);
		if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
			host = "[" + host + "]";
		}
		if (scheme.isEmpty() || !isToken(scheme)) {
			throw new IllegalArgumentException("Invalid origin scheme: '" + scheme + "'");
		}
		if (host.isEmpty() || !isHost(host)) {
			throw new IllegalArgumentException("Invalid origin host: '" + host + "'");
		}
		if (port < 0 || port > 65_535) {
			throw new IllegalArgumentException("Origin port must be between 0 and 65535: " + port);
		}
	}

	/**
	 * Creates an origin, filling in the scheme's default port when {@code port} is negative
	 * (as {@code java.net.URI#getPort()} reports a missing port).
	 * @param scheme the scheme, any case
	 * @param host the host, any case
	 * @param port the port, or a negative number for the scheme's default
	 * @return the normalised origin
	 * @throws IllegalArgumentException if the port is missing and the scheme has no known
	 * default, or a part is malformed
	 */
	public static Origin of(String scheme, String host, int port) {
		return new Origin(scheme, host, (port >= 0) ? port : defaultPort(scheme));
	}

	/**
	 * Parses the form {@link #toString()} produces ({@code scheme://host:port}), e.g. a key
	 * or message read back from a shared store. Never throws.
	 * @param text the text
	 * @return the origin, or empty if {@code text} is not in that form
	 */
	public static Optional<Origin> parse(String text) {
		int schemeEnd = text.indexOf("://");
		int portStart = text.lastIndexOf(':');
		if (schemeEnd <= 0 || portStart <= schemeEnd + 3 || portStart == text.length() - 1
				|| text.length() - portStart > 6) {
			return Optional.empty();
		}
		int port = 0;
		for (int i = portStart + 1; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return Optional.empty();
			}
			port = port * 10 + (c - '0');
		}
		String host = text.substring(schemeEnd + 3, portStart);
		if (host.indexOf(':') >= 0 && !(host.startsWith("[") && host.endsWith("]"))) {
			return Optional.empty();
		}
		try {
			return Optional.of(new Origin(text.substring(0, schemeEnd), host, port));
		}
		catch (IllegalArgumentException ex) {
			return Optional.empty();
		}
	}

	/**
	 * The port a request really goes to: {@code port} when given, else the scheme's default,
	 * so that {@code https://h/} and {@code https://h:443/} are one origin everywhere.
	 * @param scheme the scheme, any case, or {@code null}
	 * @param port the port, or a negative number when the URI names none
	 * @return the port, or {@code -1} when none is given and the scheme has no known default
	 */
	public static int effectivePort(@Nullable String scheme, int port) {
		if (port >= 0 || scheme == null) {
			return port;
		}
		return switch (scheme.toLowerCase(Locale.ROOT)) {
			case "http", "ws" -> 80;
			case "https", "wss" -> 443;
			default -> -1;
		};
	}

	private static int defaultPort(String scheme) {
		return switch (scheme.toLowerCase(Locale.ROOT)) {
			case "http", "ws" -> 80;
			case "https", "wss" -> 443;
			default -> throw new IllegalArgumentException("No default port known for scheme '" + scheme + "'");
		};
	}

	// RFC 3986 section 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
	private static boolean isToken(String scheme) {
		for (int i = 0; i < scheme.length(); i++) {
			char c = scheme.charAt(i);
			boolean letter = c >= 'a' && c <= 'z';
			if (!(letter || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')))) {
				return false;
			}
		}
		return true;
	}

	// Keeps keys and log lines safe: no whitespace, controls, separators of the key format.
	private static boolean isHost(String host) {
		for (int i = 0; i < host.length(); i++) {
			char c = host.charAt(i);
			if (c <= ' ' || c == 0x7f || c == '/' || c == '@' || c == '?' || c == '#') {
				return false;
			}
		}
		return true;
	}

	/**
	 * The origin as {@code scheme://host:port}, e.g. {@code http://127.0.0.1:8080}.
	 * @return the text form, which {@link #parse(String)} reads back
	 */
	@Override
	public String toString() {
		return this.scheme + "://" + this.host + ":" + this.port;
	}

}
