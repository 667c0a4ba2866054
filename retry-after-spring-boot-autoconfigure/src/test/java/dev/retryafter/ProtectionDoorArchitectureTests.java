package dev.retryafter;

import java.util.List;
import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.KeyProtection;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.protection.RateLimitPacing;
import dev.retryafter.core.protection.RateLimitState;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Origin protection has one door, and the cooldown store holds it: outside {@code store} and
 * {@code core.protection} itself, code speaks to the store and the door's vocabulary (the
 * admissions, and the read-only views the endpoint shows), never to the maps behind it or to
 * the door's methods. The auto-configuration may build a door for its store, and read its
 * defaults, but calls nothing on it.
 */
class ProtectionDoorArchitectureTests {

	private static final String PROTECTION = "dev.retryafter.core.protection..";

	private static final String STORE = "dev.retryafter.store..";

	/** The types of {@code core.protection} that the rest of the code may name. */
	private static final Set<String> VOCABULARY = Set.of(Admission.class.getName(),
			Admission.Proceed.class.getName(), Admission.Wait.class.getName(), Admission.Refuse.class.getName(),
			AdmissionRequest.class.getName(), KeyProtection.class.getName(), RateLimitState.class.getName(),
			OriginProtection.class.getName());

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.retryafter");

	private static final ArchRule ONLY_THE_STORE_REACHES_THE_INTERNALS = noClasses().that()
		.resideOutsideOfPackages(PROTECTION, STORE)
		.should()
		.dependOnClassesThat(new DescribedPredicate<JavaClass>("are internals of core.protection") {

			@Override
			public boolean test(JavaClass target) {
				return target.getPackageName().startsWith("dev.retryafter.core.protection")
						&& !VOCABULARY.contains(target.getName());
			}

		});

	private static final ArchRule NOTHING_OUTSIDE_THE_STORE_CALLS_THE_DOOR = noClasses().that()
		.resideOutsideOfPackages(PROTECTION, STORE)
		.should()
		.callMethodWhere(DescribedPredicate.describe("the method is one of OriginProtection's",
				(call) -> call.getTargetOwner().isEquivalentTo(OriginProtection.class)));

	@Test
	void whenImportedThenTheAdaptersTheStoreAndTheDoorAreAllChecked() {
		assertThat(MAIN.containPackage("dev.retryafter.call")).isTrue();
		assertThat(MAIN.containPackage("dev.retryafter.store")).isTrue();
		assertThat(MAIN.contain(OriginProtection.class)).isTrue();
	}

	@Test
	void onlyTheStoreAndTheDoorShouldReachTheProtectionsInternals() {
		ONLY_THE_STORE_REACHES_THE_INTERNALS.check(MAIN);
	}

	@Test
	void nothingOutsideTheStoreShouldCallTheDoor() {
		NOTHING_OUTSIDE_THE_STORE_CALLS_THE_DOOR.check(MAIN);
	}

	@Test
	void whenAClassOutsideTheStoreReachesPastItThenBothRulesNameTheDependency() {
		JavaClasses offender = new ClassFileImporter().importClasses(PastTheStore.class);
		List<String> internals = ONLY_THE_STORE_REACHES_THE_INTERNALS.evaluate(offender)
			.getFailureReport()
			.getDetails();
		List<String> calls = NOTHING_OUTSIDE_THE_STORE_CALLS_THE_DOOR.evaluate(offender)
			.getFailureReport()
			.getDetails();
		assertThat(internals).isNotEmpty().anyMatch((detail) -> detail.contains(RateLimitPacing.class.getName()));
		assertThat(calls).isNotEmpty().anyMatch((detail) -> detail.contains(OriginProtection.class.getName()));
	}

	/** What the rules forbid: the quota pacing reached through the door, past the store. */
	static final class PastTheStore {

		boolean paced(OriginProtection protection) {
			RateLimitPacing quotas = protection.quotas();
			return quotas.isEmpty();
		}

	}

}
