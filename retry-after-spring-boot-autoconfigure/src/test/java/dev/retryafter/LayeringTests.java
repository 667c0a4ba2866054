package dev.retryafter;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

/**
 * The packages are layers, and every arrow points down: the policy core with its header
 * parsing ({@code core.header}) beneath the rest of it, the cooldown store over the core, the
 * shared call over both, the adapters side by side over the call ({@code client},
 * {@code reactive}, {@code springretry}, {@code frameworkretry}, none of which uses another),
 * the listeners that watch calls ({@code metrics}, {@code actuate}, {@code observation}), and
 * the auto-configuration on top.
 */
class LayeringTests {

	private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.retryafter");

	@Test
	void everyArrowPointsDownAndNoAdapterUsesAnother() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("header").definedBy("dev.retryafter.core.header..")
			.layer("core")
			.definedBy(resideInAPackage("dev.retryafter.core..")
				.and(not(resideInAPackage("dev.retryafter.core.header.."))))
			.layer("store").definedBy("dev.retryafter.store..")
			.layer("call").definedBy("dev.retryafter.call..")
			.layer("client").definedBy("dev.retryafter.client..")
			.layer("reactive").definedBy("dev.retryafter.reactive..")
			.layer("springretry").definedBy("dev.retryafter.springretry..")
			.layer("frameworkretry").definedBy("dev.retryafter.frameworkretry..")
			.layer("listeners").definedBy("dev.retryafter.metrics..", "dev.retryafter.actuate..",
					"dev.retryafter.observation..")
			.layer("autoconfigure").definedBy("dev.retryafter.autoconfigure..")
			.whereLayer("autoconfigure").mayNotBeAccessedByAnyLayer()
			.whereLayer("listeners").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("client").mayOnlyBeAccessedByLayers("listeners", "autoconfigure")
			.whereLayer("reactive").mayOnlyBeAccessedByLayers("listeners", "autoconfigure")
			.whereLayer("springretry").mayOnlyBeAccessedByLayers("listeners", "autoconfigure")
			.whereLayer("frameworkretry").mayOnlyBeAccessedByLayers("listeners", "autoconfigure")
			.whereLayer("call")
			.mayOnlyBeAccessedByLayers("client", "reactive", "springretry", "frameworkretry", "listeners",
					"autoconfigure")
			.whereLayer("store")
			.mayOnlyBeAccessedByLayers("call", "client", "reactive", "springretry", "frameworkretry", "listeners",
					"autoconfigure")
			.whereLayer("core")
			.mayOnlyBeAccessedByLayers("store", "call", "client", "reactive", "springretry", "frameworkretry",
					"listeners", "autoconfigure")
			.whereLayer("header")
			.mayNotAccessAnyLayer()
			.check(MAIN_CLASSES);
	}

}
