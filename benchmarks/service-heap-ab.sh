#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The 10M service's heap and restart, two builds side by side (issue 18, part 1): runs
# service-curve.sh on DATA with OLD_JAR, then NEW_JAR (SINGLES=200 BATCHES=20 unless set), and
# prints per jar the time to /ready (wall, server CPU), the live heap per document after a full GC
# at /ready, the same without the arrays holding the ids' own bytes (the goal: <= 120 B per
# document plus the id), the server CPU seconds and heap once the work left at /ready is done, and
# NEW/OLD ratios. A build that does not report its id arrays (before
# 2026-11-25's twelfth session) is charged the other build's: the same ids, the log tail aside.
# Usage: benchmarks/service-heap-ab.sh DATA OLD_JAR NEW_JAR BENCHMARKS_JAR QUERIES.jsonl
#   e.g. benchmarks/service-heap-ab.sh /work/curve-runs/data10m /work/s12/base/cli/target/neardup.jar \
#            cli/target/neardup.jar benchmarks/target/benchmarks.jar /work/full-runs/base/queries.jsonl
#   Each run inserts the probes' documents into DATA's log (see service-curve.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 5 ] || { echo "usage: $0 DATA OLD_JAR NEW_JAR BENCHMARKS_JAR QUERIES.jsonl" >&2; exit 2; }
data="$1"
bench="$4"
queries="$5"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for side in old new; do
  jar="$2"
  [ "$side" = old ] || jar="$3"
  SINGLES="${SINGLES:-200}" BATCHES="${BATCHES:-20}" \
    "$root/benchmarks/service-curve.sh" "$data" "$jar" "$bench" "$queries" | sed "s/^/$side: /" | tee -a "$out"
done
python3 - "$out" <<'PY'
import sys
res = {}
for line in open(sys.argv[1]):
    side, _, rest = line.partition(": ")
    if rest.startswith("result "):
        res[side] = {k: float(v) for k, v in (p.split("=", 1) for p in rest.split()[1:])}
ids = max(r["idbytes"] for r in res.values())
lengths = max(r["idlengths"] for r in res.values())
for side in ("old", "new"):
    r = res[side]
    docs = r["docs"]
    idb = r["idbytes"] or ids
    print("%s: %d documents, /ready %.2f s wall, %.1f server CPU s (%.1f once idle); heap at /ready"
          " %.1f B/document, %.1f without the ids' bytes (%.0f MB of id arrays, ids %.1f bytes on"
          " average); once idle %.1f, %.1f without"
          % (side, docs, r["ready"], r["cpu"], r["settled"], r["heap"] / docs,
             (r["heap"] - idb) / docs, idb / 2**20, lengths / docs, r["heap2"] / docs,
             (r["heap2"] - idb) / docs))
o, n = res["old"], res["new"]
print("new/old: /ready x%.2f wall, x%.2f CPU (x%.2f once idle); heap x%.2f (without ids x%.2f)"
      % (n["ready"] / o["ready"], n["cpu"] / o["cpu"], n["settled"] / o["settled"],
         n["heap"] / o["heap"],
         (n["heap"] - (n["idbytes"] or ids)) / (o["heap"] - (o["idbytes"] or ids))))
PY
