package dev.retryafter.actuate;

import java.util.Optional;

import dev.retryafter.core.Origin;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/**
 * The {@code origin} argument of {@code DELETE /actuator/retryafter}: {@code scheme://host:port},
 * the port left out for the scheme's default as in a request URI.
 */
final class OriginArgument {

	private OriginArgument() {
	}

	/**
	 * The origin the argument names.
	 * @throws InvalidEndpointRequestException if it names none (answered with {@code 400}
	 * over HTTP)
	 */
	static Origin parse(String origin) {
		return origin(origin).orElseThrow(() -> new InvalidEndpointRequestException("Invalid origin '" + origin
				+ "': expected scheme://host:port, e.g. https://api.example.com:443", "Invalid origin"));
	}

	private static Optional<Origin> origin(String text) {
		Optional<Origin> parsed = Origin.parse(text);
		int schemeEnd = text.indexOf("://");
		if (parsed.isPresent() || schemeEnd <= 0) {
			return parsed;
		}
		// https://api.example.com means https://api.example.com:443, as in a request URI.
		int port = Origin.effectivePort(text.substring(0, schemeEnd), -1);
		return (port >= 0) ? Origin.parse(text + ":" + port) : parsed;
	}

}
