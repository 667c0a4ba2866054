package dev.retryafter.benchmarks;

/**
 * {@link TracedCallBenchmark}'s four clients measured as {@link HappyPathInterleaved} measures
 * the happy path: rounds of one batch per client in a shuffled order, ratios as medians of
 * per-round ratios, steadier than JMH's times on a shared machine. Read (b) against (a) and
 * (d) against (c).
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.TracedCallInterleaved}
 * with options {@code --rounds=60 --warmup-rounds=20 --batch=10000 --out=benchmarks/results}.
 */
public final class TracedCallInterleaved {

	private TracedCallInterleaved() {
	}

	/**
	 * Runs the rounds.
	 * @param args see the class description
	 */
	public static void main(String[] args) {
		try (TracedClients clients = TracedClients.create()) {
			HappyPathInterleaved.run(args, clients.all(), TracedClients.NAMES, "traced-call-interleaved.md");
		}
	}

}
