package dev.retryafter.testsupport;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The tests resolve host names through a hosts file of their own (the build sets
 * {@code jdk.net.hosts.file}), so a test of an unknown host is answered by the JVM at once
 * and never by the system resolver or the network. These tests fail if that rule is dropped
 * from the build.
 */
class HostResolutionTests {

	@Test
	void theTestsResolveThroughTheirOwnHostsFile() {
		String hostsFile = System.getProperty("jdk.net.hosts.file");

		assertThat(hostsFile).as("jdk.net.hosts.file").isNotNull();
		assertThat(Path.of(hostsFile)).exists();
	}

	@Test
	void localhostIsLoopback() throws UnknownHostException {
		assertThat(InetAddress.getByName("localhost").isLoopbackAddress()).isTrue();
	}

	@Test
	void aNameTheHostsFileDoesNotListIsUnknownEvenIfTheNetworkKnowsIt() throws Exception {
		assertThat(Files.readString(Path.of(System.getProperty("jdk.net.hosts.file"))))
			.doesNotContain("example.com");

		assertThatExceptionOfType(UnknownHostException.class).isThrownBy(() -> InetAddress.getByName("example.com"));
		assertThatExceptionOfType(UnknownHostException.class)
			.isThrownBy(() -> InetAddress.getByName("retry-after-test.invalid"));
	}

}
