package dev.retryafter.core;

import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.function.LongSupplier;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;
import org.springframework.util.StringUtils;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The policy core is pure: it depends only on {@code java.*} (minus
 * I/O and networking) and JSpecify, and never reads a clock, sleeps or logs. The one
 * exception is {@link MonotonicClock#SYSTEM}, the production clock that is injected
 * everywhere else.
 */
class CorePurityTests {

	private static final String CORE = "dev.retryafter.core..";

	/** Main classes only: the tests in this package may use anything. */
	private static final JavaClasses CORE_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.retryafter.core");

	private static final DescribedPredicate<JavaClass> PURE_DEPENDENCY = resideInAnyPackage(CORE, "java..",
			"org.jspecify..")
		.and(not(resideInAnyPackage("java.io..", "java.net..", "java.nio..", "java.util.logging..")))
		.as("reside in the core, java.* (except java.io, java.net, java.nio, java.util.logging) or org.jspecify");

	private static final ArchRule ONLY_PURE_DEPENDENCIES = classes().that()
		.resideInAPackage(CORE)
		.should()
		.onlyDependOnClassesThat(PURE_DEPENDENCY);

	private static final ArchRule NO_CLOCK_SLEEP_OR_LOG = classes().that()
		.resideInAPackage(CORE)
		.should(notReadAClockSleepOrLog());

	@Test
	void whenImportedThenOnlyMainClassesOfTheCoreAreChecked() {
		assertThat(CORE_CLASSES.contain(RetryPlanner.class)).isTrue();
		assertThat(CORE_CLASSES.contain(MonotonicClock.class)).isTrue();
		assertThat(CORE_CLASSES.contain(CorePurityTests.class)).isFalse();
		assertThat(CORE_CLASSES.contain(RetryPlannerTests.class)).isFalse();
	}

	@Test
	void coreShouldDependOnlyOnJavaWithoutIoAndOnJSpecify() {
		ONLY_PURE_DEPENDENCIES.check(CORE_CLASSES);
	}

	@Test
	void coreShouldNotReadAClockSleepOrLogExceptTheSystemMonotonicClock() {
		NO_CLOCK_SLEEP_OR_LOG.check(CORE_CLASSES);
	}

	@Test
	void whenTheSystemMonotonicClockIsImportedThenItsOneClockReadIsTheAllowedException() {
		JavaClass clock = CORE_CLASSES.get(MonotonicClock.class);
		assertThat(clock.getAccessesFromSelf()).filteredOn(CorePurityTests::isForbidden)
			.singleElement()
			.satisfies((access) -> {
				assertThat(access.getOrigin().getName()).isEqualTo("<clinit>");
				assertThat(isSystemMonotonicClock(access)).isTrue();
			});
	}

	@Test
	void whenAClassReadsClocksSleepsOrLogsThenEachAccessIsAViolation() {
		JavaClasses offenders = new ClassFileImporter().importClasses(Offenders.class);
		EvaluationResult result = NO_CLOCK_SLEEP_OR_LOG.evaluate(offenders);
		assertThat(result.getFailureReport().getDetails()).hasSize(6)
			.anyMatch((detail) -> detail.contains("System.nanoTime()"))
			.anyMatch((detail) -> detail.contains("System.currentTimeMillis()"))
			.anyMatch((detail) -> detail.contains("Instant.now()"))
			.anyMatch((detail) -> detail.contains("LocalDateTime.now()"))
			.anyMatch((detail) -> detail.contains("Thread.sleep(long)"))
			.anyMatch((detail) -> detail.contains("System.out"));
	}

	@Test
	void whenAClassUsesNetworkingIoOrSpringTypesThenEachDependencyIsAViolation() {
		JavaClasses offenders = new ClassFileImporter().importClasses(ImpureDependencies.class);
		List<String> details = ONLY_PURE_DEPENDENCIES.evaluate(offenders).getFailureReport().getDetails();
		assertThat(details).hasSize(6)
			.anyMatch((detail) -> detail.contains("<java.net.URI"))
			.anyMatch((detail) -> detail.contains("<java.io.File"))
			.anyMatch((detail) -> detail.contains("<java.nio.file.Path"))
			.anyMatch((detail) -> detail.contains("<org.springframework.util.StringUtils"))
			.allMatch((detail) -> detail.contains("ImpureDependencies"));
	}

	private static ArchCondition<JavaClass> notReadAClockSleepOrLog() {
		return new ArchCondition<>("not read a clock, sleep or log") {

			@Override
			public void check(JavaClass javaClass, ConditionEvents events) {
				for (JavaAccess<?> access : javaClass.getAccessesFromSelf()) {
					if (isForbidden(access) && !isSystemMonotonicClock(access)) {
						events.add(SimpleConditionEvent.violated(access, access.getDescription()));
					}
				}
			}

		};
	}

	/**
	 * Calls and method references alike ({@code System::nanoTime} is a reference, not a call).
	 */
	private static boolean isForbidden(JavaAccess<?> access) {
		String owner = access.getTargetOwner().getName();
		String name = access.getName();
		if (access instanceof JavaFieldAccess) {
			return owner.equals("java.lang.System") && (name.equals("out") || name.equals("err"));
		}
		return switch (owner) {
			case "java.lang.System" -> name.equals("currentTimeMillis") || name.equals("nanoTime")
					|| name.equals("getLogger");
			case "java.lang.Thread" -> name.equals("sleep");
			case "java.time.Clock" -> name.startsWith("system") || name.startsWith("tick");
			case "java.util.concurrent.locks.LockSupport" -> name.startsWith("park");
			case "java.util.concurrent.TimeUnit" -> name.equals("sleep");
			default -> owner.startsWith("java.time.") && name.equals("now");
		};
	}

	/**
	 * The {@code MonotonicClock.SYSTEM} constant: {@code System.nanoTime} referenced from the
	 * interface's static initializer (or a lambda in it), nowhere else.
	 */
	private static boolean isSystemMonotonicClock(JavaAccess<?> access) {
		String origin = access.getOrigin().getName();
		return access.getOriginOwner().isEquivalentTo(MonotonicClock.class)
				&& (origin.equals("<clinit>") || origin.startsWith("lambda$static$"))
				&& access.getTargetOwner().isEquivalentTo(System.class) && access.getName().equals("nanoTime");
	}

	/**
	 * Code the purity rule must reject: proves the rule sees calls, method references and
	 * field reads.
	 */
	@SuppressWarnings("unused")
	static final class Offenders {

		private final LongSupplier monotonic = System::nanoTime;

		long wall() {
			return System.currentTimeMillis();
		}

		Instant instant() {
			return Instant.now();
		}

		LocalDateTime local() {
			return LocalDateTime.now();
		}

		void pause() throws InterruptedException {
			Thread.sleep(1);
		}

		void log() {
			System.out.println("decided");
		}

	}

	/**
	 * Dependencies the dependency rule must reject.
	 */
	@SuppressWarnings("unused")
	static final class ImpureDependencies {

		URI target() {
			return URI.create("http://127.0.0.1/");
		}

		Path path(File file) {
			return file.toPath();
		}

		boolean hasText(String value) {
			return StringUtils.hasText(value);
		}

	}

}
