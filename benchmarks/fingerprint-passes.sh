#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where a whole `neardup fingerprint` process loses against a warm benchmark: the same texts
# fingerprinted PASSES times in one JVM on one core (taskset -c 0), the thread CPU of each pass, so
# the first passes (interpreted, then C1, while C2 compiles on the same core) read beside the warm
# ones. With several jars, they alternate for ROUNDS rounds; the line ends with the sum of all
# fingerprints, which must agree between builds that give the same fingerprints.
#
#   benchmarks/fingerprint-passes.sh INPUT.jsonl PASSES ROUNDS JAR [JAR...]
#
# INPUT.jsonl: records with a "text" field (e.g. benchmarks/target/fp-baseline/zh-once.jsonl, which
# fingerprint-vs-baseline.sh writes: the dev set's zh documents once, 8.8 MB). JAR: a build's
# cli/target/neardup.jar. NEARDUP_JAVA_OPTS is passed to every run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
input="$(realpath "$1")"
passes="$2"
rounds="$3"
shift 3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$input" "$work/texts" <<'PY'
import json, sys
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("\0".join(json.loads(line)["text"] for line in open(sys.argv[1], encoding="utf-8")))
PY
javac -d "$work/classes" -cp "$(realpath "$1")" "$root/benchmarks/passes/FingerprintPasses.java"
for r in $(seq 1 "$rounds"); do
  for jar in "$@"; do
    printf 'round %s %s: ' "$r" "$jar"
    taskset -c 0 java -Xss4m ${NEARDUP_JAVA_OPTS:-} -cp "$(realpath "$jar"):$work/classes" \
      FingerprintPasses "$work/texts" jieba "$passes"
  done
done
