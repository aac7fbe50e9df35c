#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of --han fold and of a 10,000-word jieba user dictionary in fingerprinting speed (and of
# jieba's mixed blocks: keep-hanruns is the tokenization before them), side by side in one run (JMH ChineseOptionsBenchmark, one thread, every variant in one invocation), twice,
# so the spread between the two runs shows how noisy the machine was. Compare ratios, not MB/s.
# Usage: benchmarks/chinese-options.sh [DEV_DIR]   (default ../shared/data/dev); about 15 minutes,
# or JMH=0 benchmarks/chinese-options.sh for the alternating rounds only (a few minutes).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dev="${1:-../shared/data/dev}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl benchmarks -am package
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD)"
# Alternating rounds in one JVM: the ratios to report on a shared machine.
java -Xmx2g -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.ChineseOptionsRounds \
  "$dev/docs.jsonl" "${ROUNDS:-15}"
[ "${JMH:-1}" = 0 ] && exit 0
for run in 1 2; do
  java -jar benchmarks/target/benchmarks.jar ChineseOptionsBenchmark -p corpus="$dev/docs.jsonl" \
    -rf csv -rff "$work/run$run.csv" | grep -E 'user dictionary .* loaded' || true
  python3 - "$work/run$run.csv" "$run" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
score = {(r["Param: lang"], r["Param: variant"]): float(r["Score"]) for r in rows}
err = {(r["Param: lang"], r["Param: variant"]): float(r["Score Error (99.9%)"] or 0) for r in rows}
print("run %s: corpus passes/s (one pass = every document of the language), and ratio to keep" % sys.argv[2])
for lang in ("zh", "en"):
    base = score[(lang, "keep")]
    for v in ("keep-hanruns", "keep", "fold", "fold-userdict10k"):
        s = score[(lang, v)]
        print("  %s %-17s %8.3f ± %.3f  %.3f" % (lang, v, s, err[(lang, v)], s / base))
PY
done
