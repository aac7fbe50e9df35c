#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The live heap right at /ready, two builds side by side, several rounds (issue 18, part 1): each
# round starts `neardup serve` (the launcher's flags, NEARDUP_JAVA_OPTS=-Xmx4g by default) on DATA
# with OLD_JAR, then NEW_JAR; as soon as /ready answers it reads the server's CPU seconds and the
# live heap after a full GC (class histogram), then kills the server (SIGKILL: no snapshot, DATA
# stays as it is). What an open leaves reachable only for a moment (the fifteenth session found
# finished restore threads holding their batches) shows in some rounds and not others, so the
# script prints every round and, per jar, the rounds' smallest, median and largest heap per
# document without the arrays holding the ids' bytes (the goal: <= 120 B plus the id).
# Usage: benchmarks/ready-heap-ab.sh ROUNDS DATA OLD_JAR NEW_JAR
#   e.g. benchmarks/ready-heap-ab.sh 3 /work/data-full/data10m /work/s15/base/cli/target/neardup.jar \
#            cli/target/neardup.jar
#   env OLD_DEFAULTS: the launcher's java-defaults.sh to start OLD_JAR with (the old build's own,
#     e.g. /work/s15/base/dist/src/bin/java-defaults.sh); this tree's by default, for both.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 4 ] || { echo "usage: $0 ROUNDS DATA OLD_JAR NEW_JAR" >&2; exit 2; }
rounds="$1"
data="$2"
[ -d "$data" ] || { echo "no data directory $data" >&2; exit 2; }
. "$root/benchmarks/service-lib.sh"
serve_bench_init
for round in $(seq 1 "$rounds"); do
  for side in old new; do
    jar="$3"
    defaults="${OLD_DEFAULTS:-$root/dist/src/bin/java-defaults.sh}"
    [ "$side" = old ] || { jar="$4"; defaults="$root/dist/src/bin/java-defaults.sh"; }
    . "$defaults" # neardup_java_defaults, which serve_open calls
    # The open's files in the page cache, as for every open here: not the sketch files, which the
    # open does not read (and which at 50M do not fit in the machine's memory).
    find "$data" -maxdepth 1 -type f ! -name '*.ndsketch' ! -name '*.tmp' -exec cat {} + > /dev/null
    load=$(cut -d' ' -f1 /proc/loadavg)
    serve_open "$jar" "$opts" --data "$data"
    cpu=$(server_cpu)
    heap=$(live_heap)
    read -r docs _ < <(collection_stats default)
    read -r idbytes _ < <(id_stats default)
    echo "round $round $side: load $load, /ready $ready s, $cpu server CPU s, live heap $heap B, docs $docs, id arrays $idbytes B; flags $(neardup_java_defaults serve | grep -o -- '-XX:+UseTransparentHugePages' || echo 'no THP flag')" | tee -a "$work/rounds.txt"
    serve_kill
  done
done
python3 - "$work/rounds.txt" <<'PY'
import re, statistics, sys
rows = {"old": [], "new": []}
for line in open(sys.argv[1]):
    m = re.match(r"round \d+ (old|new): load \S+, /ready (\S+) s, (\S+) server CPU s, live heap (\d+) B, docs (\d+), id arrays (\d+) B", line)
    if m:
        side, ready, cpu, heap, docs, ids = m.groups()
        rows[side].append((float(ready), float(cpu), (int(heap) - int(ids)) / int(docs)))
med = {}
for side in ("old", "new"):
    r = rows[side]
    per = sorted(x[2] for x in r)
    med[side] = (statistics.median(x[0] for x in r), statistics.median(x[1] for x in r), statistics.median(per))
    print("%s: %d rounds; live heap at /ready without the ids' bytes, B/document: min %.1f, median %.1f, max %.1f;"
          " /ready median %.2f s wall, %.1f server CPU s" % (side, len(r), per[0], med[side][2], per[-1], med[side][0], med[side][1]))
o, n = med["old"], med["new"]
print("new/old medians: heap at /ready x%.2f, /ready x%.2f wall, x%.2f server CPU" % (n[2] / o[2], n[0] / o[0], n[1] / o[1]))
PY
