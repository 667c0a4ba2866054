package dev.retryafter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Small classes with one job: a main source file that grows past the bound has taken on a
 * second job, and is split by job rather than let grow. The test-support module's sources are
 * held to the same bound.
 */
class SourceSizeTests {

	private static final int MAX_LINES = 400;

	@Test
	void noMainSourceFileIsLongerThanTheBound() throws IOException {
		assertThat(tooLong(Path.of("src/main/java"))).isEmpty();
	}

	@Test
	void noTestSupportSourceFileIsLongerThanTheBound() throws IOException {
		assertThat(tooLong(Path.of("../retry-after-spring-boot-test/src/main/java"))).isEmpty();
	}

	private static List<String> tooLong(Path sources) throws IOException {
		assertThat(sources).isDirectory();
		List<String> tooLong;
		try (Stream<Path> files = Files.walk(sources)) {
			tooLong = files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> lines(file) > MAX_LINES)
				.map((file) -> sources.relativize(file) + " (" + lines(file) + " lines)")
				.toList();
		}
		return tooLong;
	}

	private static long lines(Path file) {
		try (Stream<String> lines = Files.lines(file)) {
			return lines.count();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + file, ex);
		}
	}

}
