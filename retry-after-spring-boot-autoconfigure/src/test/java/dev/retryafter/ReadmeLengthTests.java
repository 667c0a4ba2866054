package dev.retryafter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README is what a newcomer reads in the first hour: what it is, the quick start, the
 * sample, what happens when, the key properties. Depth belongs in docs/, one link per topic, so
 * a README that grows past the bound has taken on a topic that should move there.
 */
class ReadmeLengthTests {

	private static final int MAX_LINES = 450;

	@Test
	void readmeStaysWithinTheBound() throws IOException {
		List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
		assertThat(lines).as("lines of README.md").hasSizeLessThanOrEqualTo(MAX_LINES);
	}

}
