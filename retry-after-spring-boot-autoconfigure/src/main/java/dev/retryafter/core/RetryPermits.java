package dev.retryafter.core;

/**
 * Grants permission for one retry: the retry budget, as the planner sees it. Passed to the planner as an
 * argument so the decision stays a function of its inputs; a permit taken for a retry that a
 * later rule then stops is given back with {@link #refund()}.
 *
 * @since 0.1.0
 */
public interface RetryPermits {

	/** Permits that always allow a retry (no retry budget). */
	RetryPermits UNLIMITED = new RetryPermits() {

		@Override
		public boolean tryAcquire() {
			return true;
		}

		@Override
		public void refund() {
		}

	};

	/**
	 * Takes one retry permit if one is available.
	 * @return whether a permit was taken
	 */
	boolean tryAcquire();

	/**
	 * Gives back a permit taken by {@link #tryAcquire()} for a retry that did not happen.
	 */
	void refund();

}
