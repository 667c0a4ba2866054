package dev.retryafter.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The runtime hints a native image needs beyond those Spring Boot derives itself (the
 * {@code retry-after.*} properties types, the endpoint's response types, the failure
 * analyzers of {@code spring.factories}): the optional classes the starter looks up by name,
 * which a native image finds only when they are registered, and the private fields of
 * Spring's JDK factory and connector that it reads. Without them each check would
 * answer "absent" there, and, for one, no traced call would get its attempt spans.
 * Registered in {@code META-INF/spring/aot.factories}.
 */
class RetryAfterRuntimeHints implements RuntimeHintsRegistrar {

	/** Each class the starter asks {@code ClassUtils.isPresent} about, and who asks. */
	static final List<String> LOOKED_UP_BY_NAME = List.of(
			// observation.Tracing: whether a tracer follows an observation
			"io.micrometer.tracing.handler.TracingObservationHandler$TracingContext",
			// frameworkretry.RetriedMethodInterceptor: reactive @Retryable methods
			"reactor.core.publisher.Mono",
			// store.ConnectionHealth: Lettuce's connection events
			"io.lettuce.core.event.connection.DisconnectedEvent", "reactor.core.Disposable");

	/**
	 * Each class whose private fields the starter reads, and who reads them:
	 * {@code autoconfigure.client.JdkClientHops} rebuilds Spring's JDK factory and connector
	 * around a client that tells where a response came from after a redirect.
	 */
	static final List<String> FIELDS_READ = List.of("org.springframework.http.client.JdkClientHttpRequestFactory",
			"org.springframework.http.client.reactive.JdkClientHttpConnector");

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (String name : LOOKED_UP_BY_NAME) {
			hints.reflection().registerTypeIfPresent(classLoader, name, (type) -> {
			});
		}
		for (String name : FIELDS_READ) {
			hints.reflection().registerTypeIfPresent(classLoader, name, MemberCategory.ACCESS_DECLARED_FIELDS);
		}
	}

}
