package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import dev.retryafter.core.header.RateLimitReading;

/**
 * The slots of one cooldown key whose origin announces its quota: what the last response
 * said, and the next free slot. The rules, each with its reason, are docs/PACING.md's:
 * <ul>
 * <li>Before the reset, at most the {@code r} requests said to remain go, one every
 * {@code t / r}; after it, at most {@code q} in any {@code w} divided by {@value #SHARE}
 * ({@link LogPacing}: a fixed window's allowance goes at its reset), or one every
 * {@code w / q} divided by {@value #SHARE} for an origin seen to refill or one that refused a
 * request within the quiet period ({@link #crowded}). Without a policy, requests beyond
 * {@code r} wait for the reset.</li>
 * <li>A schedule, and a new window until the log has seen one, starts one interval after
 * its response: requests sent before it may not be in its count yet. Slots are handed out in
 * order and never move earlier.</li>
 * <li>A response within a second of the same reset only lowers the count and only moves the
 * reset earlier ({@link WindowReset}); one naming the last window's reset is ignored.</li>
 * <li>Once the schedule is a window old, a response after the reset (or any, from an origin
 * seen to refill) saying at least {@value #SPARE_MARGIN} remain, plus one per request let go
 * this way in the last second, lets one request go outside the slots, at most one an
 * interval.</li>
 * <li>While at least {@value #FREE_FLOOR} are left before the reset (plus those let go this
 * way in the last second), a request goes at once and only counts against what is left.</li>
 * <li>A slot is taken only if it leaves half the budget past the reserve: room for a
 * retry.</li>
 * <li>Two accepted answers of one window reporting the same {@code r} before its reset show
 * an origin that refills ({@link RefillWatch}); a refusal saying nothing is left ends it.</li>
 * <li>Two partition keys ({@code pk}) within the quiet period: not paced until one is heard
 * alone for that long.</li>
 * </ul>
 * It is forgotten once the reset has passed and neither a response nor a slot has come for
 * 10 s, or for two windows if longer.
 * <p>
 * Times are monotonic nanosecond readings, compared only as differences. Thread-safe: every
 * method locks the schedule, which only requests to one key contend for.
 */
final class RateLimitSchedule {

	/** The share of the announced quota that requests are paced at after a reset. */
	static final double SHARE = 0.99;

	private static final long SECOND_NANOS = 1_000_000_000L;

	/**
	 * The fewest requests a response must say remain to let one go outside the slots: one for
	 * the request let go, and room for a request of each kind still on its way.
	 */
	static final long SPARE_MARGIN = 3;

	/**
	 * The fewest requests left before the reset for a request to go at once, outside the
	 * slots: room for the requests of a burst still on their way, which no count has seen.
	 */
	static final long FREE_FLOOR = 64;

	/** When requests last went at once because the quota is far from spent, and how many in that second. */
	private long freeSecond;

	private long freeInSecond;

	/** Until when the key is not paced: its responses named two partition keys. */
	private long mixedUntil;

	private boolean mixed;

	private final long createdAt;

	/** Whether the last response lets one request go at once, outside the slots. */
	private boolean spare;

	/** When the last request went outside the slots. */
	private long lastSpare;

	/** The second in which requests went outside the slots, and how many did. */
	private long spareSecond;

	private long sparesInSecond;

	private final RefillWatch refills = new RefillWatch();

	private RateLimitReading reading;

	private long readAt;

	private long resetAt;

	/** The reset of the window the answers name, this.resetAt's source. */
	private final WindowReset window;

	private long left;

	/** The fewest left this window's answers counted, for a fleet (rule 15). */
	private final WindowCount count;

	private long intervalBefore;

	private long intervalAfter;

	private long nextSlot;

	private long lastActive;

	/** When the last requests went, and whether that paces the slots. */
	private final LogPacing log;

	/**
	 * A schedule from a first response's reading, {@code accepted} when it was a success;
	 * {@code logsWindows} says whether a log may pace it ({@link RateLimitPacing#logWindows}).
	 */
	RateLimitSchedule(RateLimitReading reading, boolean accepted, long roundTripNanos, long nowNanos,
			BooleanSupplier logsWindows) {
		this.createdAt = nowNanos;
		this.reading = reading;
		this.readAt = nowNanos;
		this.resetAt = nowNanos + reading.resetIn().toNanos();
		this.window = new WindowReset(this.resetAt, reading.remaining());
		this.window.bound(reading, roundTripNanos, nowNanos);
		this.left = reading.remaining();
		this.count = new WindowCount(reading.remaining(), roundTripNanos, nowNanos);
		this.intervalAfter = QuotaIntervals.after(reading);
		this.intervalBefore = QuotaIntervals.before(this.left, this.resetAt - nowNanos);
		this.nextSlot = firstSlot(nowNanos);
		this.lastActive = nowNanos;
		this.refills.note(this.left, accepted, this.intervalAfter > 0, this.resetAt, nowNanos);
		this.log = new LogPacing(reading, logsWindows);
	}

	/** A newer response's reading, of a response not known to be a success. */
	void update(RateLimitReading reading, long nowNanos) {
		update(reading, false, nowNanos);
	}

	/** A newer response's reading, {@code accepted} when it was a success, its round trip unknown. */
	void update(RateLimitReading reading, boolean accepted, long nowNanos) {
		update(reading, accepted, -1, nowNanos);
	}

	/**
	 * A newer response's reading.
	 * @param accepted whether the response was a success, which the origin counted
	 * @param roundTripNanos from sending its request to reading it, or negative when not known
	 */
	synchronized void update(RateLimitReading reading, boolean accepted, long roundTripNanos, long nowNanos) {
		long announced = nowNanos + reading.resetIn().toNanos();
		if (!reading.partitionKey().equals(this.reading.partitionKey())) {
			this.mixed = true;
			this.mixedUntil = nowNanos + QuotaIntervals.quietNanos(reading);
		}
		WindowReset.Seen seen = this.window.see(announced, reading.window().toNanos(), reading.remaining(), nowNanos,
				this.refills.refilling());
		if (seen == WindowReset.Seen.LATE) {
			this.lastActive = nowNanos;
			return;
		}
		this.window.bound(reading, roundTripNanos, nowNanos);
		boolean sameWindow = seen == WindowReset.Seen.SAME;
		long resetAt = this.window.at();
		this.left = sameWindow ? Math.min(this.left, reading.remaining()) : reading.remaining();
		this.count.see(sameWindow, reading.remaining(), roundTripNanos, nowNanos);
		if (!sameWindow || !reading.policy().equals(this.reading.policy())) {
			this.refills.newWindow();
		}
		this.reading = reading;
		this.readAt = nowNanos;
		this.resetAt = resetAt;
		this.intervalAfter = QuotaIntervals.after(reading);
		this.log.read(reading);
		this.refills.note(reading.remaining(), accepted, this.intervalAfter > 0, announced, nowNanos);
		this.intervalBefore = QuotaIntervals.before(this.left, resetAt - nowNanos);
		if (this.refills.refilling()) {
			// What is left goes no slower than the rate: the origin gives more back meanwhile.
			this.intervalBefore = Math.min(this.intervalBefore, this.intervalAfter);
		}
		this.spare = this.intervalAfter > 0 && (this.refills.refilling() || resetAt - nowNanos <= 0)
				&& reading.remaining() >= SPARE_MARGIN + sparesInLastSecond(nowNanos)
				&& nowNanos - this.createdAt >= Math.max(SECOND_NANOS, reading.window().toNanos())
				&& (this.sparesInSecond == 0 || nowNanos - this.lastSpare >= this.intervalAfter);
		if (!sameWindow && !(this.log.primed() && logging(nowNanos))) {
			// A new window starts as a new schedule does: one interval after this response. A
			// schedule whose log has seen a window already knows what went in this one.
			long first = firstSlot(nowNanos);
			if (first - this.nextSlot > 0) {
				this.nextSlot = first;
			}
		}
		else if (this.left == 0 && !this.refills.refilling()) {
			// Nothing left before the reset: the first request after it waits one interval,
			// since an origin that refills as it goes (a token bucket) has only begun to.
			long afterReset = ((resetAt - nowNanos > 0) ? resetAt : nowNanos) + this.intervalAfter;
			if (afterReset - this.nextSlot > 0) {
				this.nextSlot = afterReset;
			}
		}
		this.lastActive = nowNanos;
	}

	/**
	 * The request's slot as a wait from now: 0 when its slot is now, -1 when the quota has no
	 * say (no rate is known after the reset) or the slot does not fit the budget, and the
	 * slot is then not taken.
	 * @param nowNanos the current monotonic reading
	 * @param notBefore the earliest instant the request may go (a cooldown's), or now
	 * @param budgetNanos the request's remaining budget
	 * @param reserveNanos the time kept back for the attempt
	 * @return the wait in nanoseconds, or -1
	 */
	synchronized long take(long nowNanos, long notBefore, long budgetNanos, long reserveNanos) {
		if (hasNoSay(nowNanos)) {
			return -1;
		}
		if (notBefore - nowNanos <= 0 && goesAtOnce(nowNanos)) {
			return 0;
		}
		if (this.spare && notBefore - nowNanos <= 0) {
			this.spare = false;
			this.sparesInSecond = sparesInLastSecond(nowNanos) + 1;
			this.lastSpare = nowNanos;
			this.log.wentOutside(nowNanos);
			this.lastActive = QuotaIntervals.latest(this.lastActive, nowNanos);
			return 0;
		}
		long slot = QuotaIntervals.latest(nowNanos, QuotaIntervals.latest(notBefore, this.nextSlot));
		boolean logging = logging(nowNanos);
		if (logging) {
			slot = this.log.earliest(slot);
		}
		boolean beforeReset = slot - this.resetAt < 0 && this.left > 0;
		long next;
		if (beforeReset) {
			// Spread over what is left until the reset, unless the log has seen a window: the
			// requests still arriving from before the count are then in it.
			next = (logging && this.log.primed()) ? slot : slot + this.intervalBefore;
		}
		else {
			if (!this.refills.refilling()) {
				// A refilling origin's reset only says when it is full again: it is not waited for.
				slot = QuotaIntervals.latest(slot, this.resetAt);
			}
			if (this.intervalAfter == 0) {
				// No rate is known after the reset: the quota only holds requests until it.
				if (slot - nowNanos <= 0) {
					return -1;
				}
				next = this.nextSlot;
			}
			else if (logging) {
				// The log placed the slot above (a later reset only moves it on); it gives the next.
				next = slot;
			}
			else {
				next = slot + this.intervalAfter;
			}
		}
		long wait = slot - nowNanos;
		if (wait > 0 && !QuotaIntervals.fits(wait, budgetNanos, reserveNanos)) {
			return -1;
		}
		this.nextSlot = next;
		if (beforeReset) {
			this.left--;
		}
		this.log.went(slot);
		if (logging && !beforeReset) {
			this.log.windowSeen();
		}
		this.lastActive = QuotaIntervals.latest(this.lastActive, slot);
		return Math.max(0, wait);
	}

	/**
	 * As {@link #take} with nothing else holding the request, when that needs no slot (the
	 * quota has no say, or is far from spent); {@code false}, nothing taken, when it does.
	 */
	synchronized boolean takeAtOnce(long nowNanos) {
		return hasNoSay(nowNanos) || goesAtOnce(nowNanos);
	}

	/**
	 * Whether the next request that nothing else holds would take a slot, though maybe one
	 * that is now: the quota has a say, is not far from spent, and lets none go outside the
	 * slots. Takes nothing.
	 */
	synchronized boolean spaces(long nowNanos) {
		boolean beforeReset = this.resetAt - nowNanos > 0;
		return !hasNoSay(nowNanos) && !farFromSpent(nowNanos) && !this.spare
				&& (this.intervalAfter > 0 || (beforeReset && this.left > 0));
	}

	/** Whether the key's responses name two partition keys: it is not paced meanwhile. */
	private boolean hasNoSay(long nowNanos) {
		if (this.mixed) {
			if (this.mixedUntil - nowNanos > 0) {
				return true;
			}
			this.mixed = false;
		}
		return false;
	}

	/** Whether at least the floor is left before the reset, past what went at once lately. */
	private boolean farFromSpent(long nowNanos) {
		return this.resetAt - nowNanos > 0 && this.left >= FREE_FLOOR + freeInLastSecond(nowNanos);
	}

	/** Lets a request go at once, outside the slots, while the quota is far from spent. */
	private boolean goesAtOnce(long nowNanos) {
		if (farFromSpent(nowNanos)) {
			this.left--;
			this.freeInSecond++;
			this.lastActive = QuotaIntervals.latest(this.lastActive, nowNanos);
			this.log.wentOutside(nowNanos);
			return true;
		}
		return false;
	}

	/** What a fleet sharing the quota spaces its slots by, from now. */
	synchronized QuotaSpacing spacing(long nowNanos) {
		long resetIn = (this.refills.refilling() || this.resetAt - nowNanos <= 0) ? 0 : this.resetAt - nowNanos;
		boolean logging = logging(nowNanos);
		boolean primed = logging && this.log.primed();
		boolean spread = resetIn > 0 && this.left > 0 && !primed;
		long lateBy = (resetIn > 0) ? this.window.lateBy() : -1;
		return new QuotaSpacing(Duration.ofNanos(spread ? this.intervalBefore : 0), Duration.ofNanos(this.intervalAfter),
				Duration.ofNanos(resetIn), logging ? this.log.entries() : 0,
				Duration.ofNanos(logging ? this.log.spanNanos() : 0),
				(lateBy >= 0) ? Duration.ofNanos(lateBy) : QuotaSpacing.UNBOUNDED, this.reading.window(), primed,
				spread ? this.count.fewest() : -1,
				Duration.ofNanos(spread ? this.count.agoNanos(nowNanos) : 0));
	}

	/**
	 * The origin refused a request under this key (a cooldown started, here or in the fleet):
	 * others share the quota, or its count is not what the log says, so a window's allowance
	 * sent at once would meet refusals. Until the quiet period (10 s, or two windows if longer)
	 * passes without one, slots are spread as before the log saw a window: clients that do not
	 * share a schedule refuse each other again within seconds, and each refusal here costs a
	 * retry.
	 */
	synchronized void crowded(long nowNanos) {
		this.log.crowded(nowNanos, QuotaIntervals.quietNanos(this.reading));
	}

	private boolean logging(long nowNanos) {
		return this.log.paces(nowNanos, this.refills.refilling());
	}

	/** Whether the schedule has had nothing to do for long enough to be forgotten. */
	synchronized boolean quiet(long nowNanos) {
		long quiet = QuotaIntervals.quietNanos(this.reading);
		return nowNanos - this.resetAt > 0 && nowNanos - this.lastActive > quiet;
	}

	/** The last reading, and the time left until its reset, for the endpoint. */
	synchronized RateLimitState state(long nowNanos) {
		long resetIn = this.resetAt - nowNanos;
		return new RateLimitState(this.reading.policy(), this.reading.remaining(), Duration.ofNanos(Math.max(0, resetIn)),
				Duration.ofNanos(Math.max(0, nowNanos - this.readAt)), this.reading.fields());
	}

	private long freeInLastSecond(long nowNanos) {
		if (nowNanos - this.freeSecond >= SECOND_NANOS || this.freeInSecond == 0) {
			this.freeSecond = nowNanos;
			this.freeInSecond = 0;
		}
		return this.freeInSecond;
	}

	private long sparesInLastSecond(long nowNanos) {
		if (this.sparesInSecond > 0 && nowNanos - this.spareSecond >= SECOND_NANOS) {
			this.sparesInSecond = 0;
		}
		if (this.sparesInSecond == 0) {
			this.spareSecond = nowNanos;
		}
		return this.sparesInSecond;
	}

	private long firstSlot(long nowNanos) {
		return (this.left > 0 && this.resetAt - nowNanos > 0) ? nowNanos + this.intervalBefore
				: (this.refills.refilling() ? nowNanos : QuotaIntervals.latest(nowNanos, this.resetAt)) + this.intervalAfter;
	}

}
