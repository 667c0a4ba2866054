package dev.retryafter.reactive;

import java.net.URI;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;

/**
 * A call of the {@link RetryAfterExchangeFilter} as the {@link SentRequestConnector}, the
 * innermost element of a {@code WebClient}, meets it: the connector hands it the request as it
 * is about to be sent, after every filter of the application ran, so that the call reads the
 * cooldown key from those headers and is admitted under it.
 */
interface SentGate {

	/** The request attribute a call puts itself under. */
	String ATTRIBUTE = SentGate.class.getName();

	/**
	 * Admits the request as it is about to be sent.
	 * @param uri the URI as sent
	 * @param headers the headers as sent
	 * @return completes when the request may be sent (at once, or after a hold); errors with
	 * the call's refusal
	 */
	Mono<Void> sending(URI uri, HttpHeaders headers);

	/**
	 * Says that the transport followed a redirect and the response came from another origin,
	 * which the call then charges with what the response tells.
	 * @param responder the origin that sent the response
	 */
	void responseFrom(URI responder);

}
