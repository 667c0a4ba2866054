package dev.retryafter.call;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetrySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warnings about a cooldown key that could not be split by its partition headers: once per
 * client and origin, and bounded however many origins a hostile or dynamic host set brings.
 */
@ExtendWith(OutputCaptureExtension.class)
class PartitionWarningsTests {

	private static final RetrySettings PARTITIONED = RetrySettings.defaults()
		.withCooldown(new RetrySettings.Cooldown(true, CooldownMode.WAIT, Set.of(429), List.of("Authorization")));

	private final PartitionWarnings warnings = new PartitionWarnings();

	@Test
	void aRequestWithoutPartitionHeadersIsWarnedOncePerClientAndOrigin(CapturedOutput output) {
		CooldownKey key = CooldownKey.of(Origin.of("https", "api.example.com", 443));
		this.warnings.noPartitionAsSent("default", PARTITIONED, key);
		this.warnings.noPartitionAsSent("default", PARTITIONED, key);
		this.warnings.noPartitionAsSent("payments", PARTITIONED, key);

		assertThat(count(output, "are sent without any of retry-after.cooldown.partition-headers")).isEqualTo(2);
		assertThat(output.getOut()).contains("client 'default' to https://api.example.com:443")
			.contains("client 'payments' to https://api.example.com:443");
	}

	@Test
	void aKeyWithAPartitionOrAClientWithoutPartitionHeadersIsNotWarned(CapturedOutput output) {
		Origin origin = Origin.of("https", "api.example.com", 443);
		this.warnings.noPartitionAsSent("default", PARTITIONED, new CooldownKey(origin, "0".repeat(32)));
		this.warnings.noPartitionAsSent("default", RetrySettings.defaults(), CooldownKey.of(origin));
		this.warnings.notSeenAsSent("default", RetrySettings.defaults(), "https://api.example.com:443");

		assertThat(output.getOut()).doesNotContain("partition");
	}

	@Test
	void manyOriginsAreWarnedAboutUpToTheBoundThenOnceMore(CapturedOutput output) {
		for (int i = 0; i < PartitionWarnings.MAX_WARNED + 500; i++) {
			this.warnings.notSeenAsSent("default", PARTITIONED, "https://h" + i + ".example.com:443");
		}

		assertThat(count(output, "go through a request factory or connector")).isEqualTo(PartitionWarnings.MAX_WARNED);
		assertThat(count(output, "Further warnings about cooldown partitions are not logged")).isEqualTo(1);
	}

	private static int count(CapturedOutput output, String text) {
		Matcher matcher = Pattern.compile(Pattern.quote(text)).matcher(output.getOut());
		int count = 0;
		while (matcher.find()) {
			count++;
		}
		return count;
	}

}
