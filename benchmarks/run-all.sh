#!/usr/bin/env bash
# Reproduces every table in benchmarks/README.md and docs/herd.png, in one run, from the
# repository root: bash benchmarks/run-all.sh. Takes about 15 minutes on 2 cores.
# results/environment.txt records the commit, the JVM, and each step's duration and the load
# average when it started: the machine is shared, so read numbers beside the load they met.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -B -ntp -pl benchmarks -am clean package -DskipTests
JAR=benchmarks/target/benchmarks.jar
OUT=benchmarks/results
# The interceptor chain takes several seconds of JIT to settle on 2 cores: 8 warm-up iterations.
JMH_OPTS=(-f 1 -wi 8 -i 5 -w 1s -r 1s -prof gc)
REPORT=(java -cp "$JAR" dev.retryafter.benchmarks.JmhReport)
mkdir -p "$OUT"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "nproc: $(nproc)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	java -version 2>&1 | sed 's/^/java: /'
} > "$OUT/environment.txt"
cat "$OUT/environment.txt"

# Runs one step and notes its start, the load average then, and its duration.
step() {
	local name=$1
	shift
	local began=$SECONDS
	echo "step $name: started $(date -u +%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/environment.txt"
	"$@"
	echo "step $name: took $((SECONDS - began)) s" >> "$OUT/environment.txt"
}

# JmhReport runs JMH in its own JVM (forks as usual) and adds medians and ratios to JMH's CSV.
step happy-path "${REPORT[@]}" --out="$OUT/happy-path.md" HappyPathBenchmark "${JMH_OPTS[@]}" -rf csv \
	-rff "$OUT/jmh-happy-path.csv"
step happy-path-interleaved java -cp "$JAR" dev.retryafter.benchmarks.HappyPathInterleaved --out="$OUT"
step happy-path-floor java -cp "$JAR" dev.retryafter.benchmarks.HappyPathFloor --out="$OUT"
step happy-path-quota-fields java -cp "$JAR" dev.retryafter.benchmarks.HappyPathQuotaFields --out="$OUT"
# The happy path over loopback HTTP (HttpClient 5, the JDK client, and in memory), with and without quota fields.
step happy-path-loopback java -cp "$JAR" dev.retryafter.benchmarks.LoopbackHappyPathReport \
	--out="$OUT/happy-path-loopback.md" -f 1 -wi 3 -i 5 -w 1s -r 2s -prof gc
step happy-path-loopback-interleaved java -cp "$JAR" dev.retryafter.benchmarks.LoopbackHappyPathInterleaved --out="$OUT"
step retried-call java -jar "$JAR" RetriedCallBenchmark "${JMH_OPTS[@]}" -rf csv -rff "$OUT/jmh-retried-call.csv"
step parser "${REPORT[@]}" --out="$OUT/parser.md" ParserBenchmark "${JMH_OPTS[@]}" -rf csv -rff "$OUT/jmh-parser.csv"
step parser-correctness java -cp "$JAR" dev.retryafter.benchmarks.ParserCorrectness --out="$OUT"

# Herds of 50 and 200 on 503 and on 429, each first request answered as it arrives, 3 runs each.
step herd java -cp "$JAR" dev.retryafter.benchmarks.HerdBenchmark --out="$OUT" --png=docs/herd.png
# The laboratory herd of earlier versions (first requests held until all are in), once, for comparison.
step herd-sync java -cp "$JAR" dev.retryafter.benchmarks.HerdBenchmark --name=herd-sync --arrivals=sync \
	--callers=200 --statuses=503 --repeat=1 --out="$OUT" --png="$OUT/herd-sync.png"
step rate-limit java -cp "$JAR" dev.retryafter.benchmarks.RateLimitBenchmark --out="$OUT"
# The same origin announcing its quota (RateLimit, X-RateLimit-*), every client against each.
step rate-limit-fields java -cp "$JAR" dev.retryafter.benchmarks.RateLimitBenchmark \
	--fields=none,ietf,x-ratelimit --out="$OUT"
# A fixed-window origin per API dialect (4 per 2 s, 12 sequential calls), every client against each.
step rate-limit-dialects java -cp "$JAR" dev.retryafter.benchmarks.RateLimitBenchmark \
	--dialects=ietf,github,gitlab,openai,anthropic,discord --out="$OUT"
# Three client contexts sharing it, with local stores and with one Redis (started on loopback).
step rate-limit-shared java -cp "$JAR" dev.retryafter.benchmarks.SharedQuotaBenchmark --out="$OUT"
# One run per client: the 5 s Retry-After makes each run take 10-30 s.
step sick-backend java -cp "$JAR" dev.retryafter.benchmarks.SickBackendBenchmark --repeat=1 --out="$OUT"
step tenants java -cp "$JAR" dev.retryafter.benchmarks.TenantsBenchmark --out="$OUT"

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/environment.txt"
