package dev.retryafter.call;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jetty's client made to tell the last hop: the request a Spring client expects on its thread
 * hears the URI of the request that answered after a redirect, before its response is handed
 * on, and no other origin without one; a request nobody expected, or one to another origin than the one expected, hears
 * nothing; and a Jetty request handed out by Spring's reactive connector hears its last hop
 * too.
 */
class JettyHopsTests {

	private LoopbackHttpServer first;

	private LoopbackHttpServer second;

	private HttpClient jetty;

	private final List<URI> heard = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() throws Exception {
		this.first = LoopbackHttpServer.start();
		this.second = LoopbackHttpServer.start();
		this.first.on("/moved", Reply.status(302).header("Location", this.second.uri("/here").toString()));
		this.second.on("/here", Reply.status(200));
		this.jetty = new HttpClient();
		JettyHops.reporting(this.jetty);
		this.jetty.start();
	}

	@AfterEach
	void stop() throws Exception {
		HopReportingHttpClient.clear();
		this.jetty.stop();
		this.first.close();
		this.second.close();
	}

	@Test
	void whenAnExpectedRequestFollowedARedirectThenItsListenerHearsTheLastHopBeforeTheResponse() throws Exception {
		URI uri = this.first.uri("/moved");
		HopReportingHttpClient.expect(uri, this.heard::add);
		assertThat(send(this.jetty.newRequest(uri)).getStatus()).isEqualTo(200);
		assertThat(this.heard).containsExactly(this.second.uri("/here"));
	}

	@Test
	void whenAnExpectedRequestWasNotRedirectedThenAtMostItsOwnUriIsHeard() throws Exception {
		URI uri = this.second.uri("/here");
		HopReportingHttpClient.expect(uri, this.heard::add);
		assertThat(send(this.jetty.newRequest(uri)).getStatus()).isEqualTo(200);
		// Its own origin, which the request factory charges anyway.
		assertThat(this.heard).allMatch(uri::equals);
	}

	@Test
	void whenAnotherRequestIsSentThenTheExpectationIsDroppedAndNothingIsHeard() throws Exception {
		HopReportingHttpClient.expect(this.second.uri("/here"), this.heard::add);
		send(this.jetty.newRequest(this.first.uri("/moved")));
		// The expectation was for another origin; it is gone, not kept for a later request.
		send(this.jetty.newRequest(this.first.uri("/moved")));
		assertThat(this.heard).isEmpty();
	}

	@Test
	void whenNothingIsExpectedThenTheRequestGoesThroughAsItWas() throws Exception {
		assertThat(send(this.jetty.newRequest(this.first.uri("/moved"))).getStatus()).isEqualTo(200);
		assertThat(this.heard).isEmpty();
	}

	@Test
	void whenAHandedOutJettyRequestFollowedARedirectThenItsListenerHearsTheLastHop() throws Exception {
		HttpClient plain = new HttpClient();
		plain.start();
		try {
			Request request = plain.newRequest(this.first.uri("/moved"));
			assertThat(JettyHops.reportTo(request, this.heard::add)).isTrue();
			assertThat(send(request).getStatus()).isEqualTo(200);
			assertThat(this.heard).containsExactly(this.second.uri("/here"));
		}
		finally {
			plain.stop();
		}
	}

	@Test
	void whenTheNativeRequestIsNotJettysThenNothingIsListenedTo() {
		assertThat(JettyHops.reportTo(new Object(), this.heard::add)).isFalse();
		assertThat(JettyHops.reportTo(null, this.heard::add)).isFalse();
	}

	private static ContentResponse send(Request request) throws Exception {
		return request.timeout(30, TimeUnit.SECONDS).send();
	}

}
