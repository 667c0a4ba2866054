package dev.retryafter.frameworkretry;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring Framework retry adapter is a room of its own beside the other adapters: it uses
 * the shared call ({@code call}) and the policy core, never the spring-retry or reactive
 * adapters, and no adapter or the shared call uses it.
 */
class FrameworkRetryLayeringTests {

	private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.retryafter");

	@Test
	void whenImportedThenTheAdapterIsThere() {
		assertThat(MAIN_CLASSES.contain(RetryAfterRetryPolicy.class)).isTrue();
	}

	@Test
	void theAdapterUsesNeitherSpringRetryNorTheReactiveAdapter() {
		noClasses().that()
			.resideInAPackage("dev.retryafter.frameworkretry..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.retryafter.springretry..", "dev.retryafter.reactive..", "org.springframework.retry..")
			.check(MAIN_CLASSES);
	}

	@Test
	void noOtherAdapterNorTheSharedCallUsesTheAdapter() {
		noClasses().that()
			.resideInAnyPackage("dev.retryafter.core..", "dev.retryafter.call..", "dev.retryafter.client..",
					"dev.retryafter.reactive..", "dev.retryafter.springretry..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.retryafter.frameworkretry..")
			.check(MAIN_CLASSES);
	}

}
