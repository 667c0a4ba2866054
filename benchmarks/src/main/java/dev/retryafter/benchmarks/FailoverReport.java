package dev.retryafter.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * The table of the Sentinel failover scenario ({@link SentinelFailover}): one row per run,
 * times in ms after the master was killed unless a column says otherwise.
 */
final class FailoverReport {

	private static final String HEADER = "| run | replica promoted | A not connected from / connected for good from "
			+ "| B not connected from / connected for good from | said connected with no master, last, A / B "
			+ "| said connected, then not: last, A / B | 429 during the failover answered in (ms), A / B "
			+ "| it reached the other, A→B / B→A | 429 once it said not connected (else 5 s after the kill) reached the other, A→B / B→A "
			+ "| sharing both ways again "
			+ "| new 429 after it reached the other (ms after the 429), A→B / B→A | checks passed | calls failed |\n"
			+ "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";

	private FailoverReport() {
	}

	static String markdown(List<FailoverRun.Result> results, String boot, Duration downAfter, String load) {
		long passed = results.stream().filter(FailoverRun.Result::passed).count();
		StringBuilder md = new StringBuilder();
		md.append("Spring Boot ").append(boot).append(", two sample-app jars, a master, a replica and three sentinels ")
			.append("(down-after ").append(downAfter.toMillis()).append(" ms, failover-timeout ")
			.append(Math.max(3000, 3 * downAfter.toMillis())).append(" ms), the master killed with SIGKILL; ")
			.append(ResultFiles.environment()).append("; load average at the end ").append(load).append(". ")
			.append(passed).append(" of ").append(results.size()).append(" runs passed. ")
			.append("Times in ms after the kill unless a column says otherwise; -1: never; \"never\" as not ")
			.append("connected: the instance said connected throughout. Calls failed: relay calls that did not get the answer the scenario expects ")
			.append("(a 429 passed back, a refusal for a tenant cooling down, a 200 for a paced request).\n\n");
		md.append(HEADER);
		for (FailoverRun.Result result : results) {
			md.append(row(result)).append('\n');
		}
		md.append('\n');
		for (FailoverRun.Result result : results) {
			for (FailoverRun.Check check : result.checks()) {
				if (!check.passed()) {
					md.append("* run ").append(result.run()).append(" failed: ").append(check.name()).append(": ")
						.append(check.detail()).append('\n');
				}
			}
		}
		return md.toString();
	}

	static String row(FailoverRun.Result r) {
		long checks = r.checks().stream().filter(FailoverRun.Check::passed).count();
		long[] during = r.duringSharedMs();
		long[] outage = r.outageSharedMs();
		long bothWays = (during[0] < 0 || during[1] < 0) ? -1 : Math.max(during[0], during[1]);
		return "| " + r.run() + " | " + r.promotedMs() + " | " + pair(r.disconnectedMs(), r.connectedMs(), 0) + " | "
				+ pair(r.disconnectedMs(), r.connectedMs(), 1) + " | " + both(r.connectedWithoutMasterMs()) + " | "
				+ both(r.connectedBeforeDropMs()) + " | " + both(r.duringRelayMs()) + " | " + both(during) + " | "
				+ both(outage) + " | " + bothWays + " | " + both(r.afterSharedMs()) + " | " + checks + " of " + r.checks().size() + " | "
				+ r.failedCalls() + " |";
	}

	private static String pair(long[] disconnected, long[] connected, int instance) {
		return ((disconnected[instance] < 0) ? "never" : Long.toString(disconnected[instance])) + " / "
				+ connected[instance];
	}

	private static String both(long[] values) {
		return values[0] + " / " + values[1];
	}

}
