package dev.retryafter.autoconfigure.client;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.retryafter.call.HopReportingHttpClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;

/**
 * Puts a {@link HopReportingHttpClient} into the JDK request factory Spring Boot built, so
 * that a response after a redirect to another origin is charged to that origin. Spring keeps
 * the client in a private field and takes no other once built, and Boot builds it with no
 * hook that could hand over a client of ours; so the factory's fields are read by reflection
 * and an equal factory is made around the wrapped client. Only a factory with exactly the
 * fields this was written against is rebuilt: on any other (a later Spring with one more
 * setting, a subclass) it is left as it is, and one WARN says that responses after a redirect
 * are then charged to the request's own origin, as they were before. The fields are read,
 * never written, and {@code RetryAfterRuntimeHints} registers them for a native image.
 * <p>
 * Public for the reactive auto-configuration, which reads the JDK connector the same way from
 * its own package; not for applications.
 *
 * @since 0.1.0
 */
public final class JdkClientHops {

	private static final Log logger = LogFactory.getLog(JdkClientHops.class);

	/** The fields of Spring Framework 7's {@code JdkClientHttpRequestFactory}. */
	static final List<String> FACTORY_FIELDS = List.of("httpClient", "executor", "readTimeout", "compression");

	/** The fields of Spring Framework 7's reactive {@code JdkClientHttpConnector}. */
	public static final List<String> CONNECTOR_FIELDS = List.of("httpClient", "bufferFactory", "readTimeout",
			"cookieParser");

	/** The types warned about once already. */
	private static final Set<Class<?>> warned = ConcurrentHashMap.newKeySet();

	private JdkClientHops() {
	}

	/**
	 * The factory, around a client that tells each response's last hop, when it is Spring's
	 * JDK factory.
	 * @param factory the factory Spring Boot built
	 * @return an equal factory around a {@link HopReportingHttpClient}, or {@code factory}
	 */
	static ClientHttpRequestFactory reporting(ClientHttpRequestFactory factory) {
		if (factory.getClass() != JdkClientHttpRequestFactory.class) {
			return factory;
		}
		Map<String, @Nullable Object> fields = read(factory, FACTORY_FIELDS);
		if (fields == null || !(fields.get("httpClient") instanceof HttpClient client)
				|| !(fields.get("executor") instanceof Executor executor)
				|| !(fields.get("compression") instanceof Boolean compression)) {
			return factory;
		}
		if (client instanceof HopReportingHttpClient) {
			return factory;
		}
		JdkClientHttpRequestFactory rebuilt = new JdkClientHttpRequestFactory(new HopReportingHttpClient(client),
				executor);
		if (fields.get("readTimeout") instanceof Duration readTimeout) {
			rebuilt.setReadTimeout(readTimeout);
		}
		rebuilt.enableCompression(compression);
		return rebuilt;
	}

	/**
	 * The values of {@code target}'s fields, when its class declares exactly {@code names}.
	 * @param target the object to read
	 * @param names the instance fields its class must declare, no more and no fewer
	 * @return the values by name, or {@code null} (after a one-time WARN) when the class
	 * differs or a field cannot be read
	 */
	public static @Nullable Map<String, @Nullable Object> read(Object target, List<String> names) {
		Class<?> type = target.getClass();
		try {
			Field[] declared = type.getDeclaredFields();
			Set<String> found = Stream.of(declared)
				.filter((field) -> !Modifier.isStatic(field.getModifiers()))
				.map(Field::getName)
				.collect(Collectors.toSet());
			if (!found.equals(Set.copyOf(names))) {
				warn(type, "its fields are " + found.stream().sorted().toList() + ", not " + names);
				return null;
			}
			Map<String, @Nullable Object> values = new HashMap<>();
			for (Field field : declared) {
				if (!Modifier.isStatic(field.getModifiers())) {
					field.setAccessible(true);
					values.put(field.getName(), field.get(target));
				}
			}
			return values;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			warn(type, ex.getClass().getSimpleName());
			return null;
		}
	}

	private static void warn(Class<?> type, String why) {
		if (warned.add(type) && logger.isWarnEnabled()) {
			logger.warn("The " + type.getName() + " Spring Boot built cannot be made to tell where a response "
					+ "came from (" + why + "): responses after a redirect to another origin are charged to the "
					+ "request's own origin. Set spring.http.clients.redirects=dont-follow where a redirect "
					+ "target may answer 429.");
		}
	}

}
