package dev.retryafter.core;

/**
 * {@link RetryPermits} that grant or refuse as told and count every call.
 */
final class CountingPermits implements RetryPermits {

	private final boolean grant;

	private int acquires;

	private int refunds;

	CountingPermits(boolean grant) {
		this.grant = grant;
	}

	static CountingPermits granting() {
		return new CountingPermits(true);
	}

	static CountingPermits refusing() {
		return new CountingPermits(false);
	}

	@Override
	public boolean tryAcquire() {
		this.acquires++;
		return this.grant;
	}

	@Override
	public void refund() {
		this.refunds++;
	}

	int acquires() {
		return this.acquires;
	}

	/** Permits actually handed out: every acquire when granting, none when refusing. */
	int granted() {
		return this.grant ? this.acquires : 0;
	}

	int refunds() {
		return this.refunds;
	}

}
