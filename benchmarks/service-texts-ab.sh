#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# service-texts.sh for two jars side by side: ROUNDS rounds, each a run of the old jar's server and
# one of the new jar's on the same DATA directory (one server at a time: a 10M directory's server
# takes ~1.5 GB of heap), the order alternating round by round (old first in odd rounds), every run
# with the same arguments and this tree's launcher flags. Per run: its load, documents/s, the
# server's CPU per document (whole, and without the JIT's compiler threads) and by thread kind,
# the server-side p99 and the outcomes; then the medians per jar and the median of the rounds'
# new / old ratios. On a loaded machine the rates mean little; the CPU per document, side by side,
# is the figure.
# Usage: benchmarks/service-texts-ab.sh OLD_JAR NEW_JAR DATA BENCHMARKS_JAR ROUNDS single|batch SECONDS CONNECTIONS [BATCH]
#   env: as service-texts.sh (NEARDUP_JAVA_OPTS, TEXTS, WARM, PORT).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 8 ] || { echo "usage: $0 OLD_JAR NEW_JAR DATA BENCHMARKS_JAR ROUNDS single|batch SECONDS CONNECTIONS [BATCH]" >&2; exit 2; }
old="$1"; new="$2"; data="$3"; bench="$4"; rounds="$5"; shift 5
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for r in $(seq 1 "$rounds"); do
  order="old new"
  [ $((r % 2)) = 1 ] || order="new old"
  for side in $order; do
    jar="$old"
    [ "$side" = old ] || jar="$new"
    out="$("$root/benchmarks/service-texts.sh" "$data" "$jar" "$bench" "$@" 2>&1)" || { echo "$out" >&2; exit 1; }
    load=$(echo "$out" | grep -m1 '^machine:' | grep -o 'load [0-9.]*' || true)
    rps=$(echo "$out" | sed -n 's/^documents\/s: \([0-9]*\).*/\1/p')
    cpu=$(echo "$out" | sed -n 's/^server CPU per document: \([0-9]*\) us.*/\1/p')
    nojit=$(echo "$out" | sed -n "s/^server CPU per document without the JIT's compiler threads: \([0-9.]*\) us.*/\1/p")
    echo "round $r $side ($load): $rps documents/s; server CPU per document $cpu us, without the JIT's compiler threads $nojit us"
    echo "$out" | grep "by thread:" | sed 's/.*by thread: /  by thread (us per document): /'
    echo "$out" | grep "^server-side latency\|^outcomes" | sed 's/^/  /'
    echo "$r $side $rps $cpu $nojit" >> "$results"
  done
done
# Medians per jar, and the median over rounds of new / old (each round's two runs side by side).
python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
by = {}
for r, side, rps, cpu, nojit in rows:
    by.setdefault(side, []).append((float(rps), float(cpu), float(nojit)))
    by.setdefault((r, side), (float(rps), float(cpu), float(nojit)))
rounds = sorted({r for r, *_ in rows}, key=int)
names = ("documents/s", "server CPU us/doc", "without the JIT us/doc")
for k, name in enumerate(names):
    med = {s: statistics.median(v[k] for v in by[s]) for s in ("old", "new")}
    ratios = [by[(r, "new")][k] / by[(r, "old")][k] for r in rounds if by[(r, "old")][k] > 0]
    print("%-24s old %.1f  new %.1f  new/old per round: %s, median %.3f" % (
        name, med["old"], med["new"], " ".join("%.3f" % x for x in ratios), statistics.median(ratios)))
PY
