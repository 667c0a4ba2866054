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
 * shared call over both, the listeners that watch calls over the call ({@code logging},
 * {@code metrics}, {@code observation} and the {@code actuate} endpoint, beneath the adapters
 * so that every adapter's calls can report to them), the adapters side by side over the
 * listeners ({@code client}, {@code reactive}, {@code springretry}, {@code frameworkretry},
 * none of which uses another), and the auto-configuration, with a sub-package per feature
 * ({@code autoconfigure.client}, {@code .reactive}, {@code .redis}, {@code .frameworkretry},
 * {@code .logging}, {@code .metrics}, {@code .observation}, {@code .actuate}), on top.
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
			.layer("api").definedBy("dev.retryafter.api..")
			.layer("spi").definedBy("dev.retryafter.spi..")
			.layer("call").definedBy("dev.retryafter.call..")
			.layer("listeners")
			.definedBy("dev.retryafter.logging..", "dev.retryafter.metrics..", "dev.retryafter.actuate..",
					"dev.retryafter.observation..")
			.layer("client").definedBy("dev.retryafter.client..")
			.layer("reactive").definedBy("dev.retryafter.reactive..")
			.layer("springretry").definedBy("dev.retryafter.springretry..")
			.layer("frameworkretry").definedBy("dev.retryafter.frameworkretry..")
			.layer("autoconfigure").definedBy("dev.retryafter.autoconfigure..")
			.whereLayer("autoconfigure").mayNotBeAccessedByAnyLayer()
			.whereLayer("client").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("reactive").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("springretry").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("frameworkretry").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("listeners")
			.mayOnlyBeAccessedByLayers("client", "reactive", "springretry", "frameworkretry", "autoconfigure")
			.whereLayer("call")
			.mayOnlyBeAccessedByLayers("listeners", "client", "reactive", "springretry", "frameworkretry",
					"autoconfigure")
			.whereLayer("api")
			.mayOnlyBeAccessedByLayers("call", "listeners", "client", "reactive", "springretry", "frameworkretry",
					"autoconfigure")
			.whereLayer("spi")
			.mayOnlyBeAccessedByLayers("call", "listeners", "client", "reactive", "springretry", "frameworkretry",
					"autoconfigure")
			.whereLayer("store")
			.mayOnlyBeAccessedByLayers("call", "listeners", "client", "reactive", "springretry", "frameworkretry",
					"autoconfigure")
			.whereLayer("core")
			.mayOnlyBeAccessedByLayers("store", "api", "spi", "call", "listeners", "client", "reactive",
					"springretry", "frameworkretry", "autoconfigure")
			.whereLayer("header")
			.mayNotAccessAnyLayer()
			.check(MAIN_CLASSES);
	}

}
