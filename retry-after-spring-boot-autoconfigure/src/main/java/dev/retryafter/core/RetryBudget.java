package dev.retryafter.core;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

import dev.retryafter.core.header.RetryAfter;
import org.jspecify.annotations.Nullable;

/**
 * A retry budget per named client, after Finagle's {@code RetryBudget}:
 * within any {@code window}, the retries allowed are {@code minPerSecond x window seconds}
 * (a reserve, so a quiet client can still retry) plus {@code ratio x} the requests made in
 * that window. Retries beyond that are refused, so retries cannot multiply the load on an
 * origin that is failing.
 * <p>
 * The window slides in {@value #SLOTS} time slots on the injected monotonic clock: a request
 * or retry counts while its slot is one of the last {@value #SLOTS}. Recording a request is
 * lock-free; taking a retry is serialised (as in Finagle's {@code LeakyTokenBucket.tryGet})
 * so that concurrent callers can never spend more than the formula allows. Amounts are kept
 * in integer millionths of a retry, so a ratio such as {@code 0.29} gives exactly 29 retries
 * per 100 requests.
 *
 * @since 0.1.0
 */
public final class RetryBudget {

	/** How many time slots the window is divided into. */
	public static final int SLOTS = 10;

	// Millionths of a retry: exact for any ratio given with up to six decimals.
	private static final long SCALE = 1_000_000L;

	private static final Duration MAX_WINDOW = RetryAfter.MAX_DELAY;

	private final MonotonicClock clock;

	private final Duration window;

	private final long slotNanos;

	private final long startNanos;

	private final long depositUnits;

	private final long reserveUnits;

	private final AtomicReferenceArray<Slot> slots = new AtomicReferenceArray<>(SLOTS);

	private final Object withdrawLock = new Object();

	/** The slot the last {@link #recordRequest(long)} counted in, a hint for the next. */
	private volatile Slot latest;

	/**
	 * Creates a budget.
	 * @param ratio retries allowed per request made in the window, zero or more
	 * @param minPerSecond retries always allowed per second, zero or more
	 * @param window the window the ratio is measured over, positive, at most
	 * {@link RetryAfter#MAX_DELAY}
	 * @param clock the monotonic clock the window slides on
	 * @throws IllegalArgumentException if a value is out of range
	 */
	public RetryBudget(double ratio, int minPerSecond, Duration window, MonotonicClock clock) {
		Objects.requireNonNull(window, "window");
		Objects.requireNonNull(clock, "clock");
		if (!(ratio >= 0) || Double.isInfinite(ratio)) {
			throw new IllegalArgumentException("budget ratio must be a finite number >= 0: " + ratio);
		}
		if (minPerSecond < 0) {
			throw new IllegalArgumentException("budget min-per-second must not be negative: " + minPerSecond);
		}
		if (window.isNegative() || window.isZero() || window.compareTo(MAX_WINDOW) > 0) {
			throw new IllegalArgumentException(
					"budget window must be positive and at most " + MAX_WINDOW + ": " + window);
		}
		this.clock = clock;
		this.window = window;
		this.slotNanos = Math.max(1, window.toNanos() / SLOTS);
		this.startNanos = clock.nanoTime();
		this.depositUnits = (ratio * SCALE >= Long.MAX_VALUE) ? Long.MAX_VALUE : Math.round(ratio * SCALE);
		// minPerSecond x window seconds, in units: minPerSecond x window millis x (SCALE / 1000).
		this.reserveUnits = saturatedMultiply(saturatedMultiply(minPerSecond, window.toMillis()), SCALE / 1000);
		long index = currentIndex();
		for (int i = 0; i < SLOTS; i++) {
			this.slots.set(i, new Slot(index - SLOTS, this.slotNanos));
		}
		this.latest = this.slots.get(0);
	}

	/**
	 * Creates a budget from a client's settings.
	 * @param budget the settings (whether it is enabled is the caller's concern)
	 * @param clock the monotonic clock the window slides on
	 * @return the budget
	 */
	public static RetryBudget of(RetrySettings.Budget budget, MonotonicClock clock) {
		return new RetryBudget(budget.ratio(), budget.minPerSecond(), budget.window(), clock);
	}

	/**
	 * Records one logical request (not a retry), which adds {@code ratio} to the retries
	 * allowed in the window.
	 */
	public void recordRequest() {
		currentSlot(currentIndex()).requests.increment();
	}

	/**
	 * Records one logical request, as {@link #recordRequest()} does, at a reading of this
	 * budget's clock that the caller has just taken for its own timing: one clock read per
	 * request instead of two.
	 * @param nanoTime a reading of the clock this budget slides on (see {@link #ticksOn})
	 */
	public void recordRequest(long nanoTime) {
		// Most readings fall in the slot the previous request counted in: checking that
		// spares the division that finds a slot from a reading.
		Slot latest = this.latest;
		long offset = nanoTime - this.startNanos;
		long intoSlot = offset - latest.fromNanos;
		if (offset >= 0 && intoSlot >= 0 && intoSlot < this.slotNanos
				&& this.slots.get(Math.floorMod(latest.index, SLOTS)) == latest) {
			latest.requests.increment();
			return;
		}
		Slot slot = currentSlot(indexAt(nanoTime));
		this.latest = slot;
		slot.requests.increment();
	}

	/**
	 * Whether this budget's window slides on {@code clock}, so that its readings may be
	 * passed to {@link #recordRequest(long)}.
	 * @param clock a monotonic clock
	 * @return whether it is the clock this budget was built with
	 */
	public boolean ticksOn(MonotonicClock clock) {
		return this.clock == clock;
	}

	/**
	 * Takes one retry if the budget allows it.
	 * @return whether the retry may happen
	 */
	public boolean tryWithdraw() {
		return withdraw() != null;
	}

	private @Nullable Slot withdraw() {
		synchronized (this.withdrawLock) {
			Totals totals = totals();
			if (totals.availableUnits() < SCALE) {
				return null;
			}
			Slot slot = currentSlot(currentIndex());
			slot.retries.increment();
			return slot;
		}
	}

	/**
	 * Gives a retry back to the slot it was taken from. A refund can come long after the
	 * withdrawal (a retry called off after its wait): if that slot has since been reused for
	 * a later time, the retry has already left the window and there is nothing to give back;
	 * crediting the current slot instead would count below zero and over-allow retries.
	 */
	private void refund(Slot slot) {
		synchronized (this.withdrawLock) {
			if (this.slots.get((int) (slot.index % SLOTS)) == slot) {
				slot.retries.decrement();
			}
		}
	}

	/**
	 * This budget as the planner's {@link RetryPermits}, for one logical request: its
	 * {@code tryAcquire} is {@link #tryWithdraw()}, and its {@code refund} gives back the
	 * retry it last took, to the slot it was taken from (nothing once that retry has left
	 * the window).
	 * @return a new view, to be used by one request
	 */
	public RetryPermits permits() {
		return new BudgetPermits();
	}

	/**
	 * The budget's state now, for the actuator endpoint.
	 * @return the requests and retries counted in the window and the retries available
	 */
	public Snapshot snapshot() {
		Totals totals = totals();
		return new Snapshot(totals.requests(), totals.retries(), Math.max(0, totals.availableUnits() / SCALE),
				this.window);
	}

	private Totals totals() {
		long index = currentIndex();
		long requests = 0;
		long retries = 0;
		for (int i = 0; i < SLOTS; i++) {
			Slot slot = this.slots.get(i);
			if (index - slot.index < SLOTS && slot.index <= index) {
				requests += slot.requests.sum();
				retries += slot.retries.sum();
			}
		}
		long allowed = saturatedAdd(this.reserveUnits, saturatedMultiply(requests, this.depositUnits));
		return new Totals(requests, retries, saturatedAdd(allowed, saturatedMultiply(retries, -SCALE)));
	}

	private long currentIndex() {
		return indexAt(this.clock.nanoTime());
	}

	private long indexAt(long nanoTime) {
		// Differences of nanoTime readings are exact even across a wrap of the counter.
		return Math.max(0, nanoTime - this.startNanos) / this.slotNanos;
	}

	private Slot currentSlot(long index) {
		int position = (int) (index % SLOTS);
		while (true) {
			Slot slot = this.slots.get(position);
			if (slot.index >= index) {
				// A slot from a later reading of a racing thread: counting there is as good.
				return slot;
			}
			Slot fresh = new Slot(index, this.slotNanos);
			if (this.slots.compareAndSet(position, slot, fresh)) {
				return fresh;
			}
		}
	}

	private static long saturatedMultiply(long a, long b) {
		long high = Math.multiplyHigh(a, b);
		long low = a * b;
		if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
			return low;
		}
		return ((a ^ b) < 0) ? Long.MIN_VALUE : Long.MAX_VALUE;
	}

	private static long saturatedAdd(long a, long b) {
		long sum = a + b;
		if (((a ^ sum) & (b ^ sum)) < 0) {
			return (a < 0) ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
		return sum;
	}

	/**
	 * The state of a budget at one moment.
	 *
	 * @param requests requests counted in the window
	 * @param retries retries taken in the window
	 * @param available retries that may still be taken now
	 * @param window the window
	 */
	public record Snapshot(long requests, long retries, long available, Duration window) {
	}

	private record Totals(long requests, long retries, long availableUnits) {
	}

	private static final class Slot {

		private final long index;

		/** Where the slot starts, in nanoseconds from the budget's start. */
		private final long fromNanos;

		private final LongAdder requests = new LongAdder();

		private final LongAdder retries = new LongAdder();

		Slot(long index, long slotNanos) {
			this.index = index;
			this.fromNanos = index * slotNanos;
		}

	}

	private final class BudgetPermits implements RetryPermits {

		private @Nullable Slot taken;

		@Override
		public boolean tryAcquire() {
			Slot slot = withdraw();
			if (slot == null) {
				return false;
			}
			this.taken = slot;
			return true;
		}

		@Override
		public void refund() {
			Slot slot = this.taken;
			this.taken = null;
			if (slot != null) {
				RetryBudget.this.refund(slot);
			}
		}

	}

}
