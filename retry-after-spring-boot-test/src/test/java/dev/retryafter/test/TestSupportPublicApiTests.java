package dev.retryafter.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every public type of the test-support jar is one that {@code docs/API.md} lists under
 * {@code dev.retryafter.test}, and every type listed there is public, as the autoconfigure
 * module's {@code PublicApiTests} holds its own jar to the same page.
 */
class TestSupportPublicApiTests {

	private static final String ROOT = "dev.retryafter.";

	private static final Path API_LIST = Path.of("..", "docs", "API.md");

	/** A row of this package: {@code | `test.RetryRecorder` | ...}. */
	private static final Pattern LISTED = Pattern.compile("^\\| `(test(?:\\.[A-Za-z0-9]+)+)` \\|", Pattern.MULTILINE);

	private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.retryafter.test");

	@Test
	void everyPublicTypeIsListedAndEveryListedTypeIsPublic() throws IOException {
		Set<String> publicTypes = new TreeSet<>();
		for (JavaClass type : MAIN_CLASSES) {
			if (isPublicApi(type)) {
				publicTypes.add(type.getName().substring(ROOT.length()).replace('$', '.'));
			}
		}
		Set<String> listed = new TreeSet<>();
		Matcher row = LISTED.matcher(Files.readString(API_LIST, StandardCharsets.UTF_8));
		while (row.find()) {
			listed.add(row.group(1));
		}

		assertThat(publicTypes).as("public types that docs/API.md does not list").isNotEmpty().isSubsetOf(listed);
		assertThat(listed).as("types docs/API.md lists that are not public").isSubsetOf(publicTypes);
	}

	/** Public, named, and reachable: every type that encloses it is public too. */
	private static boolean isPublicApi(JavaClass type) {
		if (type.isAnonymousClass() || type.isLocalClass() || type.getSimpleName().isEmpty()
				|| type.getName().endsWith("package-info")) {
			return false;
		}
		for (JavaClass current = type; current != null; current = current.getEnclosingClass().orElse(null)) {
			if (!current.getModifiers().contains(JavaModifier.PUBLIC)) {
				return false;
			}
		}
		return true;
	}

}
