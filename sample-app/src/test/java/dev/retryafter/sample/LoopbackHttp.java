package dev.retryafter.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * A plain JDK HTTP client for driving the sample app in tests: it does not retry, so what a
 * test sees is what the app answered.
 */
final class LoopbackHttp {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	LoopbackHttp(int port) {
		this.port = port;
	}

	HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).GET(), Map.of());
	}

	HttpResponse<String> get(String path, Map<String, String> headers) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).GET(), headers);
	}

	HttpResponse<String> delete(String path) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).DELETE(), Map.of());
	}

	HttpResponse<String> post(String path, String body, Map<String, String> headers)
			throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)), headers);
	}

	private HttpResponse<String> send(HttpRequest.Builder builder, Map<String, String> headers)
			throws IOException, InterruptedException {
		headers.forEach(builder::header);
		return this.client.send(builder.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

}
