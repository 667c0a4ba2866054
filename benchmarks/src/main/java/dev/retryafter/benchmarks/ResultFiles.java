package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes result files, creating their folder.
 */
final class ResultFiles {

	private ResultFiles() {
	}

	static Path write(Path file, String content) {
		try {
			Path parent = file.toAbsolutePath().getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			Files.writeString(file, content, StandardCharsets.UTF_8);
			System.out.println("wrote " + file);
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String environment() {
		return "JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
				+ "; OS: " + System.getProperty("os.name") + " " + System.getProperty("os.arch") + "; cores: "
				+ Runtime.getRuntime().availableProcessors();
	}

}
