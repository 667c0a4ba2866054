package dev.retryafter.benchmarks;

import java.util.Arrays;
import java.util.Locale;

/**
 * Small statistics on measured samples.
 */
final class Stats {

	private Stats() {
	}

	/**
	 * Nearest-rank percentile.
	 * @param sorted the samples, ascending
	 * @param percentile in (0, 100]
	 * @return the percentile, or NaN without samples
	 */
	static double percentile(double[] sorted, double percentile) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
		return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
	}

	/**
	 * The largest number of instants within any window of {@code windowNanos}.
	 * @param instants the instants, in nanoseconds, any order
	 * @param windowNanos the window length
	 * @return the peak count
	 */
	static int peakInWindow(long[] instants, long windowNanos) {
		long[] sorted = instants.clone();
		Arrays.sort(sorted);
		int peak = 0;
		int start = 0;
		for (int end = 0; end < sorted.length; end++) {
			while (sorted[end] - sorted[start] >= windowNanos) {
				start++;
			}
			peak = Math.max(peak, end - start + 1);
		}
		return peak;
	}

	static String format2(double value) {
		return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
	}

	static String format3(double value) {
		return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.3f", value);
	}

	static String format(double value) {
		return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
	}

}
