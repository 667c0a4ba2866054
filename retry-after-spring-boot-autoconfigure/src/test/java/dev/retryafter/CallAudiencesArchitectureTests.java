package dev.retryafter;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.call.CallContext;
import dev.retryafter.spi.OuterRetryDetector;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The call's three audiences stand apart: what applications call ({@code api}) and what the
 * code around the adapters implements ({@code spi}) depend on the policy core and the JDK only,
 * never on the adapters' plumbing ({@code call}), so that what an application imports or
 * implements does not move when the plumbing does.
 */
class CallAudiencesArchitectureTests {

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.retryafter");

	private static final ArchRule API_USES_NO_PLUMBING = classes().that()
		.resideInAPackage("dev.retryafter.api..")
		.should()
		.onlyDependOnClassesThat()
		.resideInAnyPackage("dev.retryafter.api..", "dev.retryafter.core..", "java..", "javax..", "org.jspecify..");

	private static final ArchRule SPI_USES_NO_PLUMBING = classes().that()
		.resideInAPackage("dev.retryafter.spi..")
		.should()
		.onlyDependOnClassesThat()
		.resideInAnyPackage("dev.retryafter.spi..", "dev.retryafter.core..", "java..", "org.jspecify..");

	@Test
	void whenImportedThenTheApiTheSpiAndThePlumbingAreAllChecked() {
		assertThat(MAIN.contain(RetryAfterAttributes.class)).isTrue();
		assertThat(MAIN.contain(OuterRetryDetector.class)).isTrue();
		assertThat(MAIN.contain(CallContext.class)).isTrue();
	}

	@Test
	void theApplicationFacingPackageShouldDependOnNoPlumbing() {
		API_USES_NO_PLUMBING.check(MAIN);
	}

	@Test
	void theAdapterSpiShouldDependOnNoPlumbing() {
		SPI_USES_NO_PLUMBING.check(MAIN);
	}

	@Test
	void whenAnApiClassUsesThePlumbingThenTheRuleNamesTheDependency() {
		JavaClasses offender = new ClassFileImporter().importClasses(PlumbingUser.class);
		List<String> details = classes().that()
			.haveSimpleName(PlumbingUser.class.getSimpleName())
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.retryafter.api..", "dev.retryafter.core..", "java..", "javax..", "org.jspecify..")
			.evaluate(offender)
			.getFailureReport()
			.getDetails();
		assertThat(details).isNotEmpty().anyMatch((detail) -> detail.contains(CallContext.class.getName()));
	}

	/** What the rule forbids an {@code api} class: reaching the call's collaborators. */
	static final class PlumbingUser {

		boolean watched(CallContext context) {
			return context.watched();
		}

	}

}
