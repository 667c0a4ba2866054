package dev.retryafter.autoconfigure;

import java.io.File;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Without spring-retry on the classpath nothing changes: the auto-configuration starts, and a
 * Boot-built client retries in its interceptor as usual. Stronger than a
 * {@code FilteredClassLoader}, which only hides classes from Spring's own lookups: here the
 * whole call runs in a class loader built from the test classpath without the spring-retry
 * jar, so loading any spring-retry class on the way would fail the call.
 */
class WithoutSpringRetryTests {

	@Test
	void bootBuiltClientRetriesByItselfWithNoSpringRetryClassAvailable() throws Exception {
		List<URL> classpath = classpathWithoutSpringRetry();
		ClassLoader previous = Thread.currentThread().getContextClassLoader();
		try (URLClassLoader loader = new URLClassLoader(classpath.toArray(URL[]::new),
				ClassLoader.getPlatformClassLoader())) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("org.springframework.retry.RetryContext"));
			Thread.currentThread().setContextClassLoader(loader);
			Method run = loader.loadClass(WithoutSpringRetryProbe.class.getName()).getDeclaredMethod("run");
			run.setAccessible(true);

			assertThat(run.invoke(null)).isEqualTo("requests=3 status=429 detectors=0");
		}
		finally {
			Thread.currentThread().setContextClassLoader(previous);
		}
	}

	private static List<URL> classpathWithoutSpringRetry() throws MalformedURLException {
		List<URL> urls = new ArrayList<>();
		int removed = 0;
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			File file = new File(entry);
			if (file.getName().startsWith("spring-retry-")) {
				removed++;
			}
			else {
				urls.add(file.toURI().toURL());
			}
		}
		// The test classpath does hold spring-retry: removing nothing would prove nothing.
		assertThat(removed).isEqualTo(1);
		return urls;
	}

}
