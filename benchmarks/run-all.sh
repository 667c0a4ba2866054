#!/usr/bin/env bash
# Reproduces every table in benchmarks/README.md and docs/herd.png, in one run, from the
# repository root: bash benchmarks/run-all.sh. Takes about 6 minutes on 2 cores.
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

# JmhReport runs JMH in its own JVM (forks as usual) and adds medians and ratios to JMH's CSV.
"${REPORT[@]}" --out="$OUT/happy-path.md" HappyPathBenchmark "${JMH_OPTS[@]}" -rf csv -rff "$OUT/jmh-happy-path.csv"
java -cp "$JAR" dev.retryafter.benchmarks.HappyPathInterleaved --out="$OUT"
"${REPORT[@]}" --out="$OUT/parser.md" ParserBenchmark "${JMH_OPTS[@]}" -rf csv -rff "$OUT/jmh-parser.csv"
java -cp "$JAR" dev.retryafter.benchmarks.ParserCorrectness --out="$OUT"

java -cp "$JAR" dev.retryafter.benchmarks.HerdBenchmark --out="$OUT" --png=docs/herd.png
java -cp "$JAR" dev.retryafter.benchmarks.RateLimitBenchmark --out="$OUT"

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/environment.txt"
