#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every measurement docs/BENCHMARKS.md reports, one after the other, and prints the raw output.
# Usage: benchmarks/run-all.sh [DEV_DIR]   (DEV_DIR: the labelled dev set, default ../shared/data/dev)
# Takes about an hour on 2 cores, needs about 16 GB of RAM for the 50M-fingerprint index runs and
# about 15 GB of disk (the crowded corpus writes 10 GB of pairs).
# The eval report and its JSON are kept in benchmarks/target/run-all/.
# Run it on an otherwise idle machine: the figures are only comparable within one run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dev="${1:-../shared/data/dev}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

section() { printf '\n===== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

section "machine"
nproc; grep -m1 'model name' /proc/cpuinfo || true; free -g | head -2; java -version 2>&1 | head -1

command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time: apt-get install time" >&2; exit 1; }
mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli,benchmarks -am package

section "fingerprinting, one thread (JMH)"
java -jar benchmarks/target/benchmarks.jar FingerprintBenchmark -p corpus="$dev/docs.jsonl" -rf text -rff "$work/fp.txt" | grep 'MB per operation' | sort -u
cat "$work/fp.txt"

section "Chinese segmentation, one thread: JMH, then side by side with jieba-analysis 1.0.2"
python3 -c 'import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    d = json.loads(line)
    if d["lang"] == "zh":
        print(d["text"])' "$dev/docs.jsonl" > "$work/zh.txt"
java -jar benchmarks/target/benchmarks.jar SegmenterBenchmark -p corpus="$work/zh.txt" -rf text -rff "$work/seg.txt" >/dev/null
cat "$work/seg.txt"
mvn -q -B -pl segment-jieba test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$work/cp.txt"
java -cp "segment-jieba/target/test-classes:segment-jieba/target/classes:$(cat "$work/cp.txt")" \
  org.neardup.segment.jieba.SegmenterThroughput "$work/zh.txt"

section "check-and-insert of texts, verification on and off, one thread (JMH)"
java -jar benchmarks/target/benchmarks.jar CheckAndInsertBenchmark -rf text -rff "$work/cai.txt" >/dev/null
cat "$work/cai.txt"

section "Hamming index, k = 3, uniformly random fingerprints"
# -Xmn2g: ParallelGC gives the old generation two thirds of the heap by default (12 GB of 18), and
# 6:3 at 50M (6.7 GB) needs room for the base segment and its merged copy at once.
for size in 10000000 50000000; do
  for scheme in 4:1 5:2 6:3; do
    NEARDUP_JAVA_OPTS="-Xmx18g -Xmn2g -XX:+UseParallelGC" ./neardup bench index --size "$size" --k 3 --scheme "$scheme"
  done
done

NEARDUP_JAVA_OPTS="-Xmx18g -Xmn2g -XX:+UseParallelGC" ./neardup bench index --size 10000000 --k 3 --build mixed

section "all pairs, 10M random fingerprints, k = 3, 2 threads"
NEARDUP_JAVA_OPTS="-Xmx8g" ./neardup bench all-pairs --size 10000000 --k 3 --threads 2

section "neardup dedup, 1M generated documents, 2 cores"
./neardup bench generate --docs 1000000 --out "$work/corpus.jsonl.gz"
ls -l "$work/corpus.jsonl.gz"
for mode in "" "--no-verify"; do
  /usr/bin/time -f "peak RSS %M KB, wall %e s" ./neardup dedup "$work/corpus.jsonl.gz" --out "$work/out" --json $mode
done
NEARDUP_JAVA_OPTS="-Xmx1g" /usr/bin/time -f "peak RSS %M KB, wall %e s (-Xmx1g)" ./neardup dedup "$work/corpus.jsonl.gz" --out "$work/out" --json
rm -f "$work/corpus.jsonl.gz"

section "neardup dedup, 1M generated documents, crowded (skew stress: made-up English words crowd the fingerprints)"
./neardup bench generate --docs 1000000 --crowded --out "$work/crowded.jsonl.gz"
for mode in "" "--no-verify"; do
  /usr/bin/time -f "peak RSS %M KB, wall %e s" ./neardup dedup "$work/crowded.jsonl.gz" --out "$work/out" --json $mode
  ls -l "$work/out/pairs.jsonl"
done
rm -rf "$work/crowded.jsonl.gz" "$work/out"

section "the service: 10M documents stored, fsync always, wrk from a separate process on loopback"
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 1; }
jar=cli/target/neardup.jar
java -Xmx16g -cp "$jar" org.neardup.store.embedded.BulkLoad "$work/fp10m" default 10000000 fingerprints
server/src/test/resources/wrk/bench.sh "$jar" "$work/fp10m" default fingerprint 60 64
server/src/test/resources/wrk/bench.sh "$jar" "$work/fp10m" default batch-fingerprint 60 4 100
rm -rf "$work/fp10m"
java -Xmx16g -cp "$jar" org.neardup.store.embedded.BulkLoad "$work/text1m" default 1000000 text
server/src/test/resources/wrk/bench.sh "$jar" "$work/text1m" default text 60 64
server/src/test/resources/wrk/bench.sh "$jar" "$work/text1m" default batch-text 60 4 100
rm -rf "$work/text1m"

section "accuracy on the dev set (neardup eval)"
kept="$root/benchmarks/target/run-all"
mkdir -p "$kept"
./neardup eval "$dev" --out "$kept/report.html" --json "$kept/eval.json"
echo "report: $kept/report.html"

section "kill -9 loop (25 kills) and exactly one survivor (10,000 groups of 8 on 64 connections)"
mvn -B -pl server -am verify -Dtest=none -Dit.test='KillRestartIT,LinearizabilityIT' -Dneardup.kills=25 \
  -Dneardup.groups=10000 -Dsurefire.failIfNoSpecifiedTests=false | grep -E 'kill/restart|linearizab|Tests run:|BUILD'
