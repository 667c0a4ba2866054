package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.Objects;

import dev.retryafter.core.CooldownKey;
import org.jspecify.annotations.Nullable;

/**
 * Everything that can hold a first attempt under one cooldown key, read at one moment: the
 * cooldown's instant, the requests it held that are still leaving, and the learned pacing
 * rate with the next free slot. Each {@link dev.retryafter.core.HoldReason} is explained by one of these. Times
 * are measured from the reading the view was taken at.
 *
 * @param key the cooldown key
 * @param instant the time until the cooldown's instant, zero or negative once it has passed,
 * or {@code null} when no cooldown is kept for the key
 * @param releaseWindow the time until the last request the cooldown held leaves, or
 * {@code null} when none is still to leave
 * @param leaving how many requests the cooldown held are still to leave
 * @param pacedRate the learned rate in requests per second, or {@code NaN} before one is
 * learned
 * @param nextSlot the wait a first attempt asking now would get for its paced slot (before
 * its jitter), or {@code null} when pacing would not hold it
 * @since 0.1.0
 */
public record KeyProtection(CooldownKey key, @Nullable Duration instant, @Nullable Duration releaseWindow,
		int leaving, double pacedRate, @Nullable Duration nextSlot) {

	public KeyProtection {
		Objects.requireNonNull(key, "key");
	}

}
