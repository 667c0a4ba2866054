package dev.retryafter.observation;

/**
 * The {@code method} key value: a standard method as the adapters report it, anything else
 * {@code OTHER}, so an extension method cannot make a new series.
 */
final class Methods {

	private Methods() {
	}

	static String tag(String method) {
		return switch (method) {
			case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE" -> method;
			default -> "OTHER";
		};
	}

}
