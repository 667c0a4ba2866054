package dev.retryafter.call;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * The JDK client seen through: the request a Spring client expects on its thread tells the
 * URI of its last hop before its response is handed on, every other request goes through as
 * it was, and cancelling the future handed on cancels the transport's own, which aborts the
 * exchange.
 */
class HopReportingHttpClientTests {

	private LoopbackHttpServer first;

	private LoopbackHttpServer second;

	private HttpClient jdk;

	private HopReportingHttpClient client;

	private final List<URI> heard = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() throws IOException {
		this.first = LoopbackHttpServer.start();
		this.second = LoopbackHttpServer.start();
		this.first.on("/moved", Reply.status(302).header("Location", this.second.uri("/here").toString()));
		this.second.on("/here", Reply.status(200));
		this.jdk = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
		this.client = new HopReportingHttpClient(this.jdk);
	}

	@AfterEach
	void stop() throws IOException {
		HopReportingHttpClient.clear();
		this.first.close();
		this.second.close();
	}

	@Test
	void whenAnExpectedRequestFollowedARedirectThenItsListenerHearsTheLastHopBeforeTheResponse() throws Exception {
		URI uri = this.first.uri("/moved");
		HopReportingHttpClient.expect(uri, this.heard::add);
		HttpResponse<Void> response = this.client.sendAsync(get(uri), BodyHandlers.discarding()).get();
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(this.heard).containsExactly(this.second.uri("/here"));
	}

	@Test
	void whenARequestIsSentSynchronouslyThenItsListenerHearsTheLastHopToo() throws Exception {
		URI uri = this.first.uri("/moved");
		HopReportingHttpClient.expect(uri, this.heard::add);
		assertThat(this.client.send(get(uri), BodyHandlers.discarding()).statusCode()).isEqualTo(200);
		assertThat(this.heard).containsExactly(this.second.uri("/here"));
	}

	@Test
	void whenAnotherRequestIsSentThenTheExpectationIsDroppedAndNothingIsHeard() throws Exception {
		HopReportingHttpClient.expect(this.second.uri("/here"), this.heard::add);
		URI uri = this.first.uri("/moved");
		this.client.sendAsync(get(uri), BodyHandlers.discarding()).get();
		// The expectation was for another request; it is gone, not kept for a later one.
		this.client.sendAsync(get(this.second.uri("/here")), BodyHandlers.discarding()).get();
		assertThat(this.heard).isEmpty();
	}

	@Test
	@SuppressWarnings("unchecked")
	void whenTheFutureHandedOnIsCancelledThenTheTransportsOwnIsCancelledToo() {
		HttpClient transport = mock(HttpClient.class);
		CompletableFuture<HttpResponse<Void>> own = new CompletableFuture<>();
		given(transport.sendAsync(any(HttpRequest.class), any(HttpResponse.BodyHandler.class))).willReturn(own);
		URI uri = this.first.uri("/hang");
		HopReportingHttpClient.expect(uri, this.heard::add);
		CompletableFuture<HttpResponse<Void>> handedOn = new HopReportingHttpClient(transport).sendAsync(get(uri),
				BodyHandlers.discarding());
		assertThat(handedOn).isNotSameAs(own);
		// A read timeout cancels the future it holds: the JDK client then aborts the exchange.
		handedOn.cancel(true);
		assertThat(own).isCancelled();
		assertThat(this.heard).isEmpty();
	}

	@Test
	@SuppressWarnings("unchecked")
	void whenNoRequestIsExpectedThenTheTransportsOwnFutureIsHandedOn() {
		HttpClient transport = mock(HttpClient.class);
		CompletableFuture<HttpResponse<Void>> own = new CompletableFuture<>();
		given(transport.sendAsync(any(HttpRequest.class), any(HttpResponse.BodyHandler.class))).willReturn(own);
		assertThat(new HopReportingHttpClient(transport).sendAsync(get(this.first.uri("/hang")),
				BodyHandlers.discarding()))
			.isSameAs(own);
	}

	@Test
	void whenAskedForItsSettingsThenTheDelegatesAreGiven() {
		assertThat(this.client.followRedirects()).isEqualTo(HttpClient.Redirect.NORMAL);
		assertThat(this.client.version()).isEqualTo(this.jdk.version());
		assertThat(this.client.delegate()).isSameAs(this.jdk);
	}

	private static HttpRequest get(URI uri) {
		return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build();
	}

}
