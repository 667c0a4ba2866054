package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cooldowns scoped below the origin: one route's {@code 429} holds that route, the other
 * routes probe whether the whole origin refuses, and what the server or the configuration
 * scoped never widens. On a fixed clock, with no jitter.
 */
class OriginProtectionScopeTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("https", "api.example", -1));

	private static final CooldownKey SEARCH = ORIGIN.withScope(CooldownScope.route("/search/issues"));

	private static final CooldownKey ITEMS = ORIGIN.withScope(CooldownScope.route("/items/42"));

	private static final CooldownKey USERS = ORIGIN.withScope(CooldownScope.route("/users"));

	private static final CooldownKey CORE = ORIGIN.withScope(CooldownScope.bucket("core"));

	private static final CooldownKey SEARCH_BUCKET = ORIGIN.withScope(CooldownScope.bucket("search"));

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private static final Duration RESERVE = Duration.ofMillis(500);

	private final FakeClock clock = new FakeClock();

	private final OriginProtection cooldowns = new OriginProtection(100);

	@Test
	void whenOneRouteIsRefusedThenItsNextRequestIsHeldAndAnotherRoutesFirstRequestGoesAtOnce() {
		record(SEARCH, 30);

		assertThat(admit(SEARCH, BUDGET)).isEqualTo(new Admission.Refuse(Duration.ofSeconds(30)));
		assertThat(admit(SEARCH, Duration.ofSeconds(40))).isEqualTo(new Admission.Wait(Duration.ofSeconds(30)));
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.remaining(ORIGIN, now())).isZero();
	}

	@Test
	void whenAProbeIsOutThenAnotherRoutesRequestWaitsForItsAnswerAtMostTheAttemptReserve() {
		record(SEARCH, 30);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);

		this.clock.advance(Duration.ofMillis(200));
		assertThat(admit(USERS, BUDGET)).isEqualTo(new Admission.Wait(Duration.ofMillis(300), HoldReason.PROBE));
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(new Admission.Wait(Duration.ofMillis(300), HoldReason.PROBE));
		// A wait that does not fit the budget is not taken: a probe never costs a call.
		assertThat(admit(USERS, Duration.ofMillis(700))).isEqualTo(Admission.PROCEED);

		// A probe that never answers (an I/O failure) is given up after the reserve: the next
		// request is the next probe.
		this.clock.advance(Duration.ofMillis(300));
		assertThat(admit(USERS, BUDGET)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenTheProbeIsAcceptedThenEveryOtherRouteGoesFreelyAndTheRefusedRouteStaysHeld() {
		record(SEARCH, 30);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);
		this.cooldowns.accepted(ITEMS, now());

		assertThat(admit(USERS, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(admit(SEARCH, BUDGET)).isInstanceOf(Admission.Refuse.class);
	}

	@Test
	void whenASecondRouteIsRefusedWhileTheFirstCoolsThenTheCooldownWidensToTheWholeOrigin() {
		record(SEARCH, 30);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);

		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.cooldowns.recordKey(ITEMS, now())).isEqualTo(ORIGIN);
		record(this.cooldowns.recordKey(ITEMS, now()), 20);

		assertThat(admit(USERS, Duration.ofSeconds(25))).isEqualTo(new Admission.Wait(Duration.ofSeconds(20)));
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(new Admission.Refuse(Duration.ofSeconds(20)));
		// Once the origin is held, a third route's refusal keeps to it.
		assertThat(this.cooldowns.recordKey(USERS, now())).isEqualTo(ORIGIN);
	}

	@Test
	void whenTheSameRouteIsRefusedAgainThenItsCooldownStaysOnTheRoute() {
		record(SEARCH, 30);
		this.clock.advance(Duration.ofSeconds(1));

		assertThat(this.cooldowns.recordKey(SEARCH, now())).isEqualTo(SEARCH);
	}

	@Test
	void whenTheRouteCooldownHasEndedThenAnotherRoutesRefusalStaysOnItsRoute() {
		record(SEARCH, 2);
		this.clock.advance(Duration.ofSeconds(3));

		assertThat(this.cooldowns.recordKey(ITEMS, now())).isEqualTo(ITEMS);
		assertThat(admit(USERS, BUDGET)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenTheServerNamedBucketsThenTheyNeverWidenAndOtherBucketsNeverWaitForAProbe() {
		record(SEARCH_BUCKET, 30);

		assertThat(this.cooldowns.recordKey(CORE, now())).isEqualTo(CORE);
		assertThat(admit(CORE, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(admit(USERS, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(admit(SEARCH_BUCKET, BUDGET)).isInstanceOf(Admission.Refuse.class);
	}

	@Test
	void whenAConfiguredScopeIsRefusedThenItNeverWidens() {
		CooldownKey api = ORIGIN.withScope(CooldownScope.prefix(java.util.List.of("/api/search"), "/api/search/x"));
		record(api, 30);

		assertThat(this.cooldowns.recordKey(ITEMS, now())).isEqualTo(ITEMS);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(admit(api, BUDGET)).isInstanceOf(Admission.Refuse.class);
	}

	@Test
	void whenTheWholeOriginCoolsThenEveryScopeIsHeldAndItsRefusalsExtendTheOrigins() {
		record(ORIGIN, 30);

		assertThat(admit(CORE, BUDGET)).isInstanceOf(Admission.Refuse.class);
		assertThat(admit(ITEMS, Duration.ofSeconds(40))).isEqualTo(new Admission.Wait(Duration.ofSeconds(30)));
		assertThat(this.cooldowns.recordKey(ITEMS, now())).isEqualTo(ORIGIN);
	}

	@Test
	void whenARetryAsksThenAProbeNeverHoldsIt() {
		record(SEARCH, 30);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);

		assertThat(this.cooldowns.admit(new AdmissionRequest(USERS, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.0,
				new FixedRandom(0.5), false)))
			.isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenTheOperatorEndsTheOriginThenItsScopedCooldownsAndProbesEnd() {
		record(SEARCH, 30);
		assertThat(admit(ITEMS, BUDGET)).isEqualTo(Admission.PROCEED);

		assertThat(this.cooldowns.endAll(ORIGIN.origin())).containsExactly(SEARCH);
		assertThat(admit(SEARCH, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(admit(USERS, BUDGET)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.recordKey(USERS, now())).isEqualTo(USERS);
	}

	@Test
	void whenManyOriginsCoolARouteThenTheProbeStateStaysWithinTheBound() {
		OriginProtection small = new OriginProtection(4);
		for (int i = 0; i < 50; i++) {
			CooldownKey key = CooldownKey.of(Origin.of("https", "h" + i + ".example", -1))
				.withScope(CooldownScope.route("/search"));
			small.record(key, Duration.ofSeconds(30), now());
		}
		assertThat(small.size()).isLessThanOrEqualTo(5);
		assertThat(small.probeFamilies()).isLessThanOrEqualTo(4);
	}

	private void record(CooldownKey key, int seconds) {
		this.cooldowns.record(key, Duration.ofSeconds(seconds), now());
	}

	private Admission admit(CooldownKey key, Duration budget) {
		return this.cooldowns.admit(new AdmissionRequest(key, now(), budget, RESERVE, CooldownMode.WAIT, 0.0,
				new FixedRandom(0.5), true));
	}

	private long now() {
		return this.clock.nanoTime();
	}

}
