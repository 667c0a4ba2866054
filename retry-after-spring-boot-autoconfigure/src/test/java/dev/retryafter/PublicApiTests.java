package dev.retryafter;

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
 * Every public type in the jar is one that {@code docs/API.md} names and says what it is for,
 * and every type it names is public: new public API is a decision written down, never an
 * accident of a {@code public} keyword. The page also lists the types of the test-support jar
 * (package {@code dev.retryafter.test}), which that module's own test checks.
 */
class PublicApiTests {

	private static final String ROOT = "dev.retryafter.";

	private static final Path API_LIST = Path.of("..", "docs", "API.md");

	/** A type named in the first column of a row: {@code | `core.RetrySettings` | ...}. */
	private static final Pattern LISTED = Pattern.compile("^\\| `([a-z]+(?:\\.[A-Za-z0-9]+)+)` \\|", Pattern.MULTILINE);

	/** The package of {@code retry-after-spring-boot-test}, whose rows its own test checks. */
	private static final String TEST_SUPPORT = "test.";

	private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.retryafter");

	@Test
	void everyPublicTypeIsListedAndEveryListedTypeIsPublic() throws IOException {
		Set<String> publicTypes = publicTypes();
		Set<String> listed = listed();

		assertThat(publicTypes).as("public types that docs/API.md does not list").isSubsetOf(listed);
		assertThat(listed).as("types docs/API.md lists that are not public").isSubsetOf(publicTypes);
	}

	private static Set<String> publicTypes() {
		Set<String> names = new TreeSet<>();
		for (JavaClass type : MAIN_CLASSES) {
			if (isPublicApi(type)) {
				names.add(type.getName().substring(ROOT.length()).replace('$', '.'));
			}
		}
		return names;
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

	private static Set<String> listed() throws IOException {
		Set<String> names = new TreeSet<>();
		Matcher row = LISTED.matcher(Files.readString(API_LIST, StandardCharsets.UTF_8));
		while (row.find()) {
			if (!row.group(1).startsWith(TEST_SUPPORT)) {
				names.add(row.group(1));
			}
		}
		return names;
	}

}
