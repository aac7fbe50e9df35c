#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The compaction trigger, two builds side by side (issue 18, part 1): for each build in turn, a
# fresh copy of DATA (a data directory with one collection) takes N more texts from TEXTS (one per
# line) through `IngestLogPeak` (org.neardup.store.embedded: background maintenance on, batches of
# 500 check-and-inserts), which prints the log's peak, the directory's peak, and the compactions
# and rebuilds that ran. The log's peak is what the trigger lets the disk hold beside the snapshot.
# Usage: benchmarks/log-peak-ab.sh DATA TEXTS N CP_A CP_B
#   CP_A, CP_B: class paths; IngestLogPeak uses public API only, so a build without it runs it from
#   a newer build's class put first (e.g. DRIVER:old/neardup.jar with DRIVER a directory holding
#   org/neardup/store/embedded/IngestLogPeak.class). env COPY (where the copies go; default a temp
#   dir), JAVA_OPTS (default -Xmx3g).
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 DATA TEXTS N CP_A CP_B" >&2; exit 2; }
data="$1"; texts="$2"; n="$3"; cps=("$4" "$5")
opts="${JAVA_OPTS:--Xmx3g}"
copy="${COPY:-$(mktemp -d)}"
mkdir -p "$copy"
cleanup() { rm -rf "$copy/data"; [ -n "${COPY:-}" ] || rm -rf "$copy"; }
trap cleanup EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); data $(du -sb "$data" | cut -f1) bytes"
for side in 0 1; do
  rm -rf "$copy/data"
  mkdir -p "$copy/data"
  for f in "$data"/*.nd*; do cp "$f" "$copy/data/"; done
  echo "build $side (${cps[$side]}):"
  java $opts -cp "${cps[$side]}" org.neardup.store.embedded.IngestLogPeak "$copy/data" "$texts" "$n" 2>&1 \
    | grep -E "ingested|Exception|Error" || true
done
