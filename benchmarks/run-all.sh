#!/usr/bin/env bash
# Reproduces every table in benchmarks/README.md and docs/herd.png, in one run, from the
# repository root: bash benchmarks/run-all.sh. Takes about 5 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -B -ntp -pl benchmarks -am package -DskipTests
JAR=benchmarks/target/benchmarks.jar
OUT=benchmarks/results
JMH_OPTS=(-f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc)
mkdir -p "$OUT"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "nproc: $(nproc)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	java -version 2>&1 | sed 's/^/java: /'
} > "$OUT/environment.txt"
cat "$OUT/environment.txt"

java -jar "$JAR" HappyPathBenchmark "${JMH_OPTS[@]}" -rf csv -rff "$OUT/jmh-happy-path.csv"
java -cp "$JAR" dev.retryafter.benchmarks.JmhReport --csv="$OUT/jmh-happy-path.csv" --out="$OUT/happy-path.md"

java -jar "$JAR" ParserBenchmark "${JMH_OPTS[@]}" -rf csv -rff "$OUT/jmh-parser.csv"
java -cp "$JAR" dev.retryafter.benchmarks.JmhReport --csv="$OUT/jmh-parser.csv" --out="$OUT/parser.md"
java -cp "$JAR" dev.retryafter.benchmarks.ParserCorrectness --out="$OUT"

java -cp "$JAR" dev.retryafter.benchmarks.HerdBenchmark --out="$OUT" --png=docs/herd.png
java -cp "$JAR" dev.retryafter.benchmarks.RateLimitBenchmark --out="$OUT"

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/environment.txt"
