package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Jitter;
import org.jspecify.annotations.Nullable;

/**
 * The admission of a {@link OriginProtection} for one key, once the key is known: rules 1-3
 * of {@link OriginProtection#admit} (its cooldown's hold, its release window, its learned
 * pace), on one reading of the key's hold. Carved off the state holder, which it reads and
 * purges the ended entries of.
 * <p>
 * Rules 1 and 2 say what the key's hold asks of the request: a refusal, or a wait not yet
 * drawn. Rule 3 then replaces that wait with the learned pace's slot, which is never earlier
 * than the cooldown's instant; only the wait that stands draws its jitter and is counted
 * among the requests the cooldown releases, so a paced key holds each request once, with
 * one draw.
 */
final class KeyAdmission {

	private final ConcurrentHashMap<CooldownKey, CooldownHold> notBefore;

	private final ConcurrentHashMap<CooldownKey, LearnedPacer> pacers;

	/** Whether the origin announced a quota for a key (see {@link #pacing}). */
	private final Predicate<CooldownKey> announced;

	KeyAdmission(ConcurrentHashMap<CooldownKey, CooldownHold> notBefore,
			ConcurrentHashMap<CooldownKey, LearnedPacer> pacers, Predicate<CooldownKey> announced) {
		this.announced = announced;
		this.notBefore = notBefore;
		this.pacers = pacers;
	}

	/**
	 * Rules 1-3 of {@link OriginProtection} for one key, in their order. A retry let go is not
	 * paced, but it spends a slot of the learned rate all the same (see {@link #spent}).
	 */
	Admission admit(AdmissionRequest request, CooldownKey key) {
		Admission admission = admitInOrder(request, key);
		if (!request.firstAttempt() && !(admission instanceof Admission.Refuse)) {
			spent(request, key, admission);
		}
		return admission;
	}

	/**
	 * A retry spends a slot of the key's learned rate when it goes: the origin counts it as it
	 * counts any request. Not paced itself (it has waited out the server's delay), it pushes
	 * the first attempts' next slot one interval later; else the retries a cooldown releases
	 * within its jitter window go on top of the slots spaced at the whole rate, and the
	 * origin turns away as many first attempts.
	 */
	private void spent(AdmissionRequest request, CooldownKey key, Admission admission) {
		LearnedPacer pacer = this.pacers.get(key);
		if (pacer != null) {
			long wait = (admission instanceof Admission.Wait held) ? held.delay().toNanos() : 0;
			pacer.spent(request.nowNanos() + wait, request.nowNanos());
		}
	}

	private Admission admitInOrder(AdmissionRequest request, CooldownKey key) {
		CooldownHold hold = this.notBefore.get(key);
		if (hold != null && !hold.holds(request)) {
			// A follow-up holds first attempts only; a retry is never paced or queued either.
			return Admission.PROCEED;
		}
		boolean cooling = hold != null && hold.until - request.nowNanos() > 0;
		HeldBy held = null;
		if (hold != null) {
			held = cooling ? cooldown(request, hold) : releaseWindow(request, key, hold);
			if (held != null && held.refusal() != null) {
				return held.refusal();
			}
		}
		Admission.Wait paced = pacing(request, key, hold, cooling);
		if (paced != null) {
			return paced;
		}
		return (held != null) ? held.draw(request) : Admission.PROCEED;
	}

	/**
	 * Rule 1, the cooldown: before its instant the request waits for it plus jitter scaled by
	 * the server's whole delay (so that held requests spread over the same window as the
	 * origin's own retries), trimmed so that the wait plus the reserve fits the budget; a wait
	 * that does not fit at all, or mode {@code fail-fast}, refuses. No pace can save a
	 * refused request: its slot is never earlier than the instant.
	 */
	private HeldBy cooldown(AdmissionRequest request, CooldownHold hold) {
		long left = hold.until - request.nowNanos();
		Duration timeLeft = Duration.ofNanos(left);
		long afterWait = request.budgetNanos() - left;
		if (request.mode() == CooldownMode.FAIL_FAST || afterWait < request.reserveNanos()) {
			return HeldBy.refused(new Admission.Refuse(timeLeft));
		}
		Duration limit = timeLeft.plusNanos(afterWait - request.reserveNanos());
		return new HeldBy(timeLeft, hold, request.jitter(), limit, HoldReason.COOLDOWN, true, null);
	}

	/**
	 * Rule 2, the release window: past the cooldown's instant, the requests it held leave at
	 * their jittered instants. A first attempt arriving while any of them is still to leave
	 * queues behind the last one (plus its own jitter) instead of cutting in; that is its one
	 * hold. Only requests the cooldown really held count: a cooldown that held none (every
	 * request refused, or none came) has ended for everyone at its instant. {@code null} when
	 * the window does not hold the request.
	 */
	private @Nullable HeldBy releaseWindow(AdmissionRequest request, CooldownKey key, CooldownHold hold) {
		long untilLast = hold.releases.untilLast(request.nowNanos());
		if (untilLast <= 0) {
			this.notBefore.remove(key, hold);
			return null;
		}
		if (!request.firstAttempt() || request.mode() == CooldownMode.FAIL_FAST) {
			return null;
		}
		long afterWait = request.budgetNanos() - untilLast;
		if (afterWait < request.reserveNanos()) {
			// A queue that does not fit the budget is not taken, as a paced slot is not: the
			// origin's instant has passed, so nothing may refuse the request now.
			return null;
		}
		Duration queue = Duration.ofNanos(untilLast);
		Duration limit = queue.plusNanos(afterWait - request.reserveNanos());
		// A first attempt queued behind the release window of an origin that turned away more
		// than one request is the next wave: spread over the server's whole delay rather than
		// its jitter window, it does not land all at once on an origin whose allowance the
		// released requests have just used up.
		double spread = turnedAwayMoreThanOnce(key) ? 1.0 : request.jitter();
		return new HeldBy(queue, hold, spread, limit, HoldReason.RELEASE_WINDOW, false, null);
	}

	/**
	 * Rule 3, the learned pace: the slot a learned rate gives a first attempt in mode
	 * {@code wait}, at or after the cooldown's instant, or {@code null} when the key has no
	 * pacer, no rate yet, or a slot that does not fit the budget. A retry is not paced: it
	 * has waited out the server's delay for its own request.
	 */
	private Admission.@Nullable Wait pacing(AdmissionRequest request, CooldownKey key, @Nullable CooldownHold hold,
			boolean cooling) {
		if (!paced(request, key, this.announced)) {
			return null;
		}
		LearnedPacer pacer = this.pacers.get(key);
		if (pacer == null) {
			return null;
		}
		long nowNanos = request.nowNanos();
		if (!cooling && pacer.quiet(nowNanos)) {
			this.pacers.remove(key, pacer);
			return null;
		}
		Admission.Wait wait = pacer.admit(nowNanos, cooling ? hold.until : nowNanos, request.budgetNanos(),
				request.reserveNanos(), request.jitter(), request.random());
		if (cooling && wait != null) {
			// Held while the key cools down: a request the cooldown releases.
			hold.release(nowNanos + wait.delay().toNanos());
		}
		return wait;
	}

	/**
	 * Whether rule 3 may pace {@code request} under {@code key}: a first attempt in mode
	 * {@code wait}, whose origin announces no quota the client reads. The quota the origin
	 * announces knows its rate better than one guessed from two rejections; guessed from a
	 * fleet's rejections too, a learned rate only ratchets down (every instance hears every
	 * 429). The quota's own slot (rule 5) paces instead.
	 */
	static boolean paced(AdmissionRequest request, CooldownKey key, Predicate<CooldownKey> announced) {
		return request.mode() == CooldownMode.WAIT && request.firstAttempt()
				&& !(request.readsQuotas() && announced.test(key.declared()));
	}

	/**
	 * What rule 1 or 2 asks for: a refusal, or a wait drawn only when rule 3 does not replace
	 * it.
	 * @param base the wait before jitter
	 * @param hold the cooldown, whose server delay scales the jitter
	 * @param jitter the largest extra as a fraction of that delay
	 * @param limit the longest wait the budget allows
	 * @param reason the rule
	 * @param released whether the wait counts among the requests the cooldown releases
	 * @param refusal the refusal, when rule 1 refuses (then nothing else counts)
	 */
	private record HeldBy(@Nullable Duration base, @Nullable CooldownHold hold, double jitter,
			@Nullable Duration limit, @Nullable HoldReason reason, boolean released,
			Admission.@Nullable Refuse refusal) {

		static HeldBy refused(Admission.Refuse refusal) {
			return new HeldBy(null, null, 0, null, null, false, refusal);
		}

		Admission.Wait draw(AdmissionRequest request) {
			Duration wait = Jitter.apply(this.base, Duration.ofNanos(this.hold.spread), this.jitter,
					request.random(), this.limit);
			if (this.released) {
				this.hold.release(request.nowNanos() + wait.toNanos());
			}
			return new Admission.Wait(wait, this.reason);
		}

	}

	private boolean turnedAwayMoreThanOnce(CooldownKey key) {
		LearnedPacer pacer = this.pacers.get(key);
		return pacer != null && pacer.rejections() > 1;
	}

}
