package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Jitter;
import org.jspecify.annotations.Nullable;

/**
 * The admission of a {@link OriginProtection} for one key, once the key is known: its
 * cooldown's hold, its release window and its paced slot, as {@link OriginProtection#admit}
 * describes them. Carved off the state holder, which it reads and purges the ended entries
 * of.
 */
final class KeyAdmission {

	private final ConcurrentHashMap<CooldownKey, CooldownHold> notBefore;

	private final ConcurrentHashMap<CooldownKey, LearnedPacer> pacers;

	KeyAdmission(ConcurrentHashMap<CooldownKey, CooldownHold> notBefore,
			ConcurrentHashMap<CooldownKey, LearnedPacer> pacers) {
		this.notBefore = notBefore;
		this.pacers = pacers;
	}

	/**
	 * Rules 1-3 of {@link OriginProtection} for one key, on one reading of its hold.
	 */
	Admission admit(AdmissionRequest request, CooldownKey key) {
		CooldownHold hold = this.notBefore.get(key);
		// A retry is not paced: it has waited out the server's delay for its own request.
		if (request.mode() == CooldownMode.WAIT && request.firstAttempt()) {
			Admission paced = pacing(request, key, hold);
			if (paced != null) {
				return paced;
			}
		}
		if (hold == null) {
			return Admission.PROCEED;
		}
		return (hold.until - request.nowNanos() > 0) ? cooldown(request, hold) : releaseWindow(request, key, hold);
	}

	/**
	 * Rule 2, the cooldown: before its instant the request waits for it plus jitter scaled by
	 * the server's whole delay (so that held requests spread over the same window as the
	 * origin's own retries), trimmed so that the wait plus the reserve fits the budget; a wait
	 * that does not fit at all, or mode {@code fail-fast}, refuses.
	 */
	private Admission cooldown(AdmissionRequest request, CooldownHold hold) {
		long nowNanos = request.nowNanos();
		long left = hold.until - nowNanos;
		Duration timeLeft = Duration.ofNanos(left);
		if (request.mode() == CooldownMode.FAIL_FAST) {
			return new Admission.Refuse(timeLeft);
		}
		long budget = request.budgetNanos();
		long reserve = request.reserveNanos();
		long afterWait = budget - left;
		if (afterWait < reserve) {
			return new Admission.Refuse(timeLeft);
		}
		Duration limit = timeLeft.plusNanos(afterWait - reserve);
		Duration wait = Jitter.apply(timeLeft, Duration.ofNanos(hold.spread), request.jitter(), request.random(),
				limit);
		hold.releases.add(nowNanos + wait.toNanos());
		return new Admission.Wait(wait, HoldReason.COOLDOWN);
	}

	/**
	 * Rule 3, the release window: past the cooldown's instant, the requests it held leave at their
	 * jittered instants. A first attempt arriving while any of them is still to leave queues
	 * behind the last one (plus its own jitter) instead of cutting in; that is its one hold.
	 * Only requests the cooldown really held count: a cooldown that held none (every request
	 * refused, or none came) has ended for everyone at its instant.
	 */
	private Admission releaseWindow(AdmissionRequest request, CooldownKey key, CooldownHold hold) {
		long untilLast = hold.releases.untilLast(request.nowNanos());
		if (untilLast <= 0) {
			this.notBefore.remove(key, hold);
			return Admission.PROCEED;
		}
		if (!request.firstAttempt() || request.mode() == CooldownMode.FAIL_FAST) {
			return Admission.PROCEED;
		}
		long budget = request.budgetNanos();
		long reserve = request.reserveNanos();
		long afterWait = budget - untilLast;
		if (afterWait < reserve) {
			// A queue that does not fit the budget is not taken, as a paced slot is not: the
			// origin's instant has passed, so nothing may refuse the request now.
			return Admission.PROCEED;
		}
		Duration queue = Duration.ofNanos(untilLast);
		Duration limit = queue.plusNanos(afterWait - reserve);
		// A first attempt queued behind the release window of an origin that turned away more
		// than one request is the next wave: spread over the server's whole delay rather than
		// its jitter window, it does not land all at once on an origin whose allowance the
		// released requests have just used up.
		double spread = turnedAwayMoreThanOnce(key) ? 1.0 : request.jitter();
		return new Admission.Wait(Jitter.apply(queue, Duration.ofNanos(hold.spread), spread, request.random(), limit),
				HoldReason.RELEASE_WINDOW);
	}

	/**
	 * Rule 1, the learned pace: the slot a learned rate gives the request, or {@code null} when the key has no pacer,
	 * no rate yet, or a slot that does not fit the budget.
	 */
	private @Nullable Admission pacing(AdmissionRequest request, CooldownKey key, @Nullable CooldownHold hold) {
		LearnedPacer pacer = this.pacers.get(key);
		if (pacer == null) {
			return null;
		}
		long nowNanos = request.nowNanos();
		boolean cooling = hold != null && hold.until - nowNanos > 0;
		if (!cooling && pacer.quiet(nowNanos)) {
			this.pacers.remove(key, pacer);
			return null;
		}
		long budget = request.budgetNanos();
		long reserve = request.reserveNanos();
		Admission admission = pacer.admit(nowNanos, cooling ? hold.until : nowNanos, budget, reserve,
				request.jitter(), request.random());
		if (cooling && admission instanceof Admission.Wait wait) {
			// Held while the key cools down: a request the cooldown releases.
			hold.releases.add(nowNanos + wait.delay().toNanos());
		}
		return admission;
	}

	private boolean turnedAwayMoreThanOnce(CooldownKey key) {
		LearnedPacer pacer = this.pacers.get(key);
		return pacer != null && pacer.rejections() > 1;
	}

}
