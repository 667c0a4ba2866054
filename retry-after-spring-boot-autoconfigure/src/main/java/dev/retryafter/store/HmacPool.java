package dev.retryafter.store;

import java.security.GeneralSecurityException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under one key, for any number of threads. A {@link Mac} is not thread-safe, and
 * copying an initialized one ({@link Mac#clone()}) fails on JCE providers that cannot copy a
 * key (some FIPS and PKCS#11 ones): each use borrows a Mac of its own from a small pool
 * instead, made and initialized on first need, so neither a thread per request (virtual
 * threads) nor a busy moment costs more than one {@code Mac.getInstance} per Mac kept.
 */
final class HmacPool {

	static final String ALGORITHM = "HmacSHA256";

	// Enough for every core to hash at once; Macs made beyond it are used once and dropped.
	private static final int KEPT = 64;

	private final SecretKeySpec key;

	private final Queue<Mac> idle = new ConcurrentLinkedQueue<>();

	private final AtomicInteger idleCount = new AtomicInteger();

	HmacPool(byte[] key) {
		this.key = new SecretKeySpec(key, ALGORITHM);
		// Fails at start-up rather than on the first request when the platform cannot do it.
		give(newMac());
	}

	/**
	 * The HMAC of {@code input}.
	 */
	byte[] hmac(byte[] input) {
		Mac mac = this.idle.poll();
		if (mac != null) {
			this.idleCount.decrementAndGet();
		}
		else {
			mac = newMac();
		}
		// doFinal resets the Mac to its initialized state, ready for the next use.
		byte[] result = mac.doFinal(input);
		give(mac);
		return result;
	}

	private void give(Mac mac) {
		if (this.idleCount.incrementAndGet() <= KEPT) {
			this.idle.offer(mac);
		}
		else {
			this.idleCount.decrementAndGet();
		}
	}

	private Mac newMac() {
		try {
			Mac mac = Mac.getInstance(ALGORITHM);
			mac.init(this.key);
			return mac;
		}
		catch (GeneralSecurityException ex) {
			// Every Java platform must provide HmacSHA256 (Mac javadoc).
			throw new IllegalStateException("No usable " + ALGORITHM + " provider", ex);
		}
	}

}
