package dev.retryafter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every "(see X in the README)" of a POM comment names a section the README has, so that a
 * maintainer who follows it finds what it promises.
 */
class PomReadmeReferencesTests {

	private static final List<Path> POMS = List.of(Path.of("..", "pom.xml"), Path.of("pom.xml"),
			Path.of("..", "retry-after-spring-boot-starter", "pom.xml"), Path.of("..", "sample-app", "pom.xml"));

	private static final Pattern REFERENCE = Pattern.compile("\\(see ([^()]+?) in the README\\)");

	@Test
	void everyReadmeSectionAPomCommentCitesExists() throws IOException {
		String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
		List<String> cited = new ArrayList<>();
		for (Path pom : POMS) {
			Matcher reference = REFERENCE.matcher(Files.readString(pom, StandardCharsets.UTF_8));
			while (reference.find()) {
				cited.add(reference.group(1));
			}
		}
		assertThat(cited).as("README sections the POMs cite").isNotEmpty();
		assertThat(cited).allSatisfy((section) -> assertThat(readme).as("the README's headings")
			.containsPattern("(?m)^#+ " + Pattern.quote(section) + "$"));
	}

}
