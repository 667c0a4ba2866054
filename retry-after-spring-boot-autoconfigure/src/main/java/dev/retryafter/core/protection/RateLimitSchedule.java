package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.header.RateLimitReading;

/**
 * The slots of one cooldown key whose origin announces its quota: what the last response
 * said, and the next free slot.
 * <p>
 * How:
 * <ul>
 * <li>Before the reset, at most the {@code r} requests the origin said remain go out, one
 * every {@code t / r}. After it, requests follow the policy's {@code q} per {@code w}, one
 * every {@code w / q} divided by {@value #SHARE}: a little under the quota, so that a late
 * slot never meets an allowance the previous one has not given back yet. Without a policy,
 * requests beyond {@code r} wait for the reset and then go, until the next response says
 * more.</li>
 * <li>A schedule starts one interval after the response that created it, not at once: the
 * requests sent before any response had said anything are still arriving at the origin and
 * using up what that response said was left. From then on slots are handed out in order and
 * never move earlier.</li>
 * <li>A later response within a second of the same reset (the grain of the field) can only
 * lower the count left before it, since the requests sent meanwhile may not be in it yet,
 * and can only move the reset earlier, since a field in whole seconds rounded up names it
 * late by up to a second; one that names the last window's reset came late and is ignored;
 * one with another reset starts a new window, whose first slot is again one interval after
 * that response.</li>
 * <li>Paced a little under the quota, an origin that refills as it goes saves some
 * allowance, and one that started full has saved what it refilled before the first response.
 * Once the schedule is a window old (by then no request sent before it can still be
 * arriving), a response after the reset (or any, from an origin seen to refill) that says
 * at least {@value #SPARE_MARGIN} requests
 * remain, plus one for each request let go this way in the last second (those may not be in
 * the count yet), lets one more request go at once, outside the slots; at most one an
 * interval.</li>
 * <li>A quota far from spent delays nobody: while at least {@value #FREE_FLOOR} requests are
 * left before the reset, plus one for each request let go this way in the last second (those
 * may not be in the count yet), a request goes at once and only counts against what is left
 * (the draft lets the {@code r} remaining go out at once). Spreading starts only when what is
 * left is down to that floor.</li>
 * <li>A slot that does not fit the request's budget is not taken. A slot fits when it leaves
 * at least half of the budget past the attempt's reserve, so that a retry of the same call
 * (a transient {@code 503} after the slot) still fits.</li>
 * <li>An origin that refills as it goes (a token bucket) says so: two accepted answers of one
 * window report the same {@code r}, before the reset the first of them announced. A fixed
 * window cannot: each request it accepts lowers the count, whatever order the answers come
 * back in. Once that is seen, requests follow the policy's {@code w / q} (divided by
 * {@value #SHARE}) from now, without waiting for a reset that slides forward with every
 * answer ("full again"), until a refusal says nothing is left.</li>
 * <li>Readings that name two partition keys ({@code pk}) under one key, within the quiet
 * period, mean the requests of that key fall into partitions it cannot tell apart: the key
 * is then not paced at all until one partition key is heard alone for that long.</li>
 * </ul>
 * See docs/PACING.md for why.
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

	private static final long QUIET_NANOS = 10 * SECOND_NANOS;

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

	private long intervalBefore;

	private long intervalAfter;

	private long nextSlot;

	private long lastActive;

	RateLimitSchedule(RateLimitReading reading, long nowNanos) {
		this(reading, false, nowNanos);
	}

	/** A schedule from a first response's reading, {@code accepted} when it was a success. */
	RateLimitSchedule(RateLimitReading reading, boolean accepted, long nowNanos) {
		this.createdAt = nowNanos;
		this.reading = reading;
		this.readAt = nowNanos;
		this.resetAt = nowNanos + reading.resetIn().toNanos();
		this.window = new WindowReset(this.resetAt);
		this.left = reading.remaining();
		this.intervalAfter = intervalAfter(reading);
		this.intervalBefore = intervalBefore(this.left, this.resetAt - nowNanos);
		this.nextSlot = firstSlot(nowNanos);
		this.lastActive = nowNanos;
		this.refills.note(this.left, accepted, this.intervalAfter > 0, this.resetAt, nowNanos);
	}

	/** A newer response's reading, of a response not known to be a success. */
	void update(RateLimitReading reading, long nowNanos) {
		update(reading, false, nowNanos);
	}

	/**
	 * A newer response's reading.
	 * @param accepted whether the response was a success, which the origin counted
	 */
	synchronized void update(RateLimitReading reading, boolean accepted, long nowNanos) {
		long announced = nowNanos + reading.resetIn().toNanos();
		if (!reading.partitionKey().equals(this.reading.partitionKey())) {
			this.mixed = true;
			this.mixedUntil = nowNanos + quietNanos(reading);
		}
		WindowReset.Seen seen = this.window.see(announced, reading.window().toNanos());
		if (seen == WindowReset.Seen.LATE) {
			this.lastActive = nowNanos;
			return;
		}
		boolean sameWindow = seen == WindowReset.Seen.SAME;
		long resetAt = this.window.at();
		this.left = sameWindow ? Math.min(this.left, reading.remaining()) : reading.remaining();
		if (!sameWindow || !reading.policy().equals(this.reading.policy())) {
			this.refills.newWindow();
		}
		this.reading = reading;
		this.readAt = nowNanos;
		this.resetAt = resetAt;
		this.intervalAfter = intervalAfter(reading);
		this.refills.note(reading.remaining(), accepted, this.intervalAfter > 0, announced, nowNanos);
		this.intervalBefore = intervalBefore(this.left, resetAt - nowNanos);
		if (this.refills.refilling()) {
			// What is left goes no slower than the rate: the origin gives more back meanwhile.
			this.intervalBefore = Math.min(this.intervalBefore, this.intervalAfter);
		}
		this.spare = this.intervalAfter > 0 && (this.refills.refilling() || resetAt - nowNanos <= 0)
				&& reading.remaining() >= SPARE_MARGIN + sparesInLastSecond(nowNanos)
				&& nowNanos - this.createdAt >= Math.max(SECOND_NANOS, reading.window().toNanos())
				&& (this.sparesInSecond == 0 || nowNanos - this.lastSpare >= this.intervalAfter);
		if (!sameWindow) {
			// A new window starts as a new schedule does: one interval after this response.
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
			this.lastActive = latest(this.lastActive, nowNanos);
			return 0;
		}
		long slot = latest(nowNanos, latest(notBefore, this.nextSlot));
		boolean beforeReset = slot - this.resetAt < 0 && this.left > 0;
		long next;
		if (beforeReset) {
			next = slot + this.intervalBefore;
		}
		else {
			if (!this.refills.refilling()) {
				// A refilling origin's reset only says when it is full again: it is not waited for.
				slot = latest(slot, this.resetAt);
			}
			if (this.intervalAfter == 0) {
				// No rate is known after the reset: the quota only holds requests until it.
				if (slot - nowNanos <= 0) {
					return -1;
				}
				next = this.nextSlot;
			}
			else {
				next = slot + this.intervalAfter;
			}
		}
		long wait = slot - nowNanos;
		if (wait > 0 && !fits(wait, budgetNanos, reserveNanos)) {
			return -1;
		}
		this.nextSlot = next;
		if (beforeReset) {
			this.left--;
		}
		this.lastActive = latest(this.lastActive, slot);
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
			this.lastActive = latest(this.lastActive, nowNanos);
			return true;
		}
		return false;
	}

	/** What a fleet sharing the quota spaces its slots by, from now. */
	synchronized QuotaSpacing spacing(long nowNanos) {
		long resetIn = (this.refills.refilling() || this.resetAt - nowNanos <= 0) ? 0 : this.resetAt - nowNanos;
		return new QuotaSpacing(Duration.ofNanos((resetIn > 0 && this.left > 0) ? this.intervalBefore : 0),
				Duration.ofNanos(this.intervalAfter), Duration.ofNanos(resetIn));
	}

	/**
	 * Whether a hold of {@code waitNanos} leaves half the budget past the reserve: room for a
	 * retry of the same call after the slot, as the call would have without the fields.
	 */
	static boolean fits(long waitNanos, long budgetNanos, long reserveNanos) {
		// Both are clamped far below the long range by the caller, so the difference is exact.
		return waitNanos <= (budgetNanos - reserveNanos) / 2;
	}

	/** Whether the schedule has had nothing to do for long enough to be forgotten. */
	synchronized boolean quiet(long nowNanos) {
		long quiet = quietNanos(this.reading);
		return nowNanos - this.resetAt > 0 && nowNanos - this.lastActive > quiet;
	}

	/** The last reading, and the time left until its reset, for the endpoint. */
	synchronized RateLimitState state(long nowNanos) {
		long resetIn = this.resetAt - nowNanos;
		return new RateLimitState(this.reading.policy(), this.reading.remaining(), Duration.ofNanos(Math.max(0, resetIn)),
				Duration.ofNanos(Math.max(0, nowNanos - this.readAt)), this.reading.fields());
	}

	private static long quietNanos(RateLimitReading reading) {
		return Math.max(QUIET_NANOS, 2 * reading.window().toNanos());
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
				: (this.refills.refilling() ? nowNanos : latest(nowNanos, this.resetAt)) + this.intervalAfter;
	}

	private static long intervalAfter(RateLimitReading reading) {
		if (!reading.hasRate()) {
			return 0;
		}
		return Math.max(1, (long) (reading.window().toNanos() / (double) reading.quota() / SHARE));
	}

	private static long intervalBefore(long left, long resetInNanos) {
		return (left > 0 && resetInNanos > 0) ? Math.max(1, resetInNanos / left) : 0;
	}

	// The later of two monotonic readings.
	private static long latest(long a, long b) {
		return (b - a > 0) ? b : a;
	}

}
