package dev.retryafter.core;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.retryafter.core.header.CoreDependentReader;
import dev.retryafter.core.header.RetryAfterParser;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core is split by job, and the jobs are stacked: header parsing at the bottom, knowing
 * nothing of the plan or the protection built on it, and no two of core's packages using
 * each other. What the core as a whole may use (no Spring, no adapter, no I/O) is
 * {@code LayeringTests}' and {@link CorePurityTests}' to check, not this class's.
 */
class CorePackagesArchitectureTests {

	private static final String CORE = "dev.retryafter.core";

	private static final String HEADER = CORE + ".header";

	/** Main classes only: a test may use any package it tests. */
	private static final JavaClasses CORE_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages(CORE);

	/**
	 * The root package counts as a slice of its own: with {@code matching(CORE + ".(*)..")}
	 * its classes would be in no slice, and a cycle through them would go unseen.
	 */
	private static final ArchRule NO_CYCLES = slices().assignedFrom(corePackages())
		.should()
		.beFreeOfCycles();

	private static final ArchRule HEADER_USES_NOTHING_ELSE_IN_CORE = classes().that()
		.resideInAPackage(HEADER + "..")
		.should()
		.onlyDependOnClassesThat()
		.resideInAnyPackage(HEADER + "..", "java..", "org.jspecify..");

	@Test
	void whenImportedThenTheRootPackageAndTheHeaderPackageAreBothChecked() {
		assertThat(CORE_CLASSES.contain(RetryPlanner.class)).isTrue();
		assertThat(CORE_CLASSES.contain(RetryAfterParser.class)).isTrue();
		assertThat(CORE_CLASSES.contain(CorePackagesArchitectureTests.class)).isFalse();
	}

	@Test
	void coresPackagesShouldBeFreeOfCycles() {
		NO_CYCLES.check(CORE_CLASSES);
	}

	@Test
	void headerShouldDependOnNothingElseInCore() {
		HEADER_USES_NOTHING_ELSE_IN_CORE.check(CORE_CLASSES);
	}

	@Test
	void whenAHeaderClassUsesTheRestOfCoreThenTheRuleNamesTheDependency() {
		JavaClasses offender = new ClassFileImporter().importClasses(CoreDependentReader.class);
		List<String> details = HEADER_USES_NOTHING_ELSE_IN_CORE.evaluate(offender).getFailureReport().getDetails();
		assertThat(details).isNotEmpty().allMatch((detail) -> detail.contains("<" + RetrySettings.class.getName()));
	}

	/**
	 * Each class to the slice of the core package it is in: {@code core} for the root,
	 * {@code header} for {@code core.header} and what is under it.
	 */
	private static SliceAssignment corePackages() {
		return new SliceAssignment() {

			@Override
			public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
				String name = javaClass.getPackageName();
				if (name.equals(CORE)) {
					return SliceIdentifier.of("core");
				}
				if (name.startsWith(CORE + ".")) {
					return SliceIdentifier.of(name.substring(CORE.length() + 1).split("\\.")[0]);
				}
				return SliceIdentifier.ignore();
			}

			@Override
			public String getDescription() {
				return "the packages of the core: its root and each sub-package";
			}

		};
	}

}
