#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Restart cost of two (or more) builds side by side (issue 18, part 1): each round opens every DIR
# with every JAR in turn, each open a fresh JVM running OpenTime (a cold start, as a restart is),
# and prints per directory and jar the median wall and CPU seconds of the open, the wall seconds
# per million documents, and each jar's ratio to the first. The open deletes scratch files and adds
# an empty log segment, nothing else (no snapshot on close): the directories are reused as they are.
# Alternating the jars in one run is what makes the ratios comparable on a busy machine.
# Usage: benchmarks/open-ab.sh ROUNDS DIR[,DIR...] JAR_A JAR_B [JAR...]
#   e.g. benchmarks/open-ab.sh 3 /work/open-runs/d1m,/work/open-runs/d4m old.jar new.jar
#   env NEARDUP_JAVA_OPTS (default -Xmx3g)
#   env CACHE: "cold" drops the directory's own files from the page cache before each open
#     (posix_fadvise DONTNEED on each file: nobody else's pages, so it is fair to a shared machine),
#     "warm" reads every file but the sketch files (which an open does not read) before each open;
#     unset leaves the page cache as it is. Each result line then says cache=cold|warm and the
#     directory's bytes in the page cache just before the open (cached=, from fincore).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 ROUNDS DIR[,DIR...] JAR_A JAR_B [JAR...]" >&2; exit 2; }
rounds="$1"
IFS=, read -r -a dirs <<<"$2"
shift 2
jars=("$@")
opts="${NEARDUP_JAVA_OPTS:--Xmx3g}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for round in $(seq 1 "$rounds"); do
  for dir in "${dirs[@]}"; do
    for j in "${!jars[@]}"; do
      extra=""
      if [ -n "${CACHE:-}" ]; then
        python3 - "$dir" "$CACHE" <<'PY'
import os, sys
d, mode = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(d)):
    p = os.path.join(d, name)
    if not os.path.isfile(p):
        continue
    fd = os.open(p, os.O_RDONLY)
    try:
        if mode == "cold":
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        elif not name.endswith(".ndsketch"):
            while os.read(fd, 1 << 20):
                pass
    finally:
        os.close(fd)
PY
        cached="$(fincore -b -n -o RES "$dir"/* 2>/dev/null | awk '{s += $1} END {printf "%.0f", s}')"
        extra=" cache=$CACHE cached=$cached"
      fi
      # shellcheck disable=SC2086
      line="$(java $opts -cp "${jars[$j]}" org.neardup.store.embedded.OpenTime 1 "$dir" | grep '^result ')"
      echo "$line jar=$j load=$(cut -d' ' -f1 /proc/loadavg)$extra" | tee -a "$out"
    done
  done
done
python3 - "$out" "${jars[@]}" <<'PY'
import sys
from collections import defaultdict
path, jars = sys.argv[1], sys.argv[2:]
runs = defaultdict(list)
for line in open(path):
    f = dict(p.split("=", 1) for p in line.split()[1:])
    runs[(f["dir"], int(f["jar"]))].append(f)
def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
for d in sorted({k[0] for k in runs}):
    base = None
    for j, jar in enumerate(jars):
        r = runs[(d, j)]
        docs = int(r[0]["docs"])
        wall = median([float(x["wall"]) for x in r])
        cpu = median([float(x["cpu"]) for x in r])
        if base is None:
            base = (wall, cpu)
        print("%s %s: %d documents, open %.2f s wall (%.2f s per million), %.2f CPU s; "
              "x%.2f wall, x%.2f CPU of the first jar (median of %d)"
              % (d, jar, docs, wall, wall / docs * 1e6, cpu, wall / base[0], cpu / base[1], len(r)))
# With two sizes or more: per jar, the slope between the smallest and the largest directory (the
# fixed part, JVM start, JIT, dictionary, cancels out) and the straight line's value at 50M.
dirs = sorted({k[0] for k in runs}, key=lambda d: int(runs[(d, 0)][0]["docs"]))
if len(dirs) >= 2:
    small, large = dirs[0], dirs[-1]
    for j, jar in enumerate(jars):
        pts = []
        for d in (small, large):
            r = runs[(d, j)]
            pts.append((int(r[0]["docs"]), median([float(x["wall"]) for x in r]),
                        median([float(x["cpu"]) for x in r])))
        (n0, w0, c0), (n1, w1, c1) = pts
        ws = (w1 - w0) / (n1 - n0) * 1e6
        cs = (c1 - c0) / (n1 - n0) * 1e6
        print("%s: per added million %.2f s wall, %.2f CPU s; straight line to 50M: %.1f s wall, "
              "%.1f CPU s (goal: <= 30 s wall)"
              % (jar, ws, cs, w1 + ws * (50 - n1 / 1e6), c1 + cs * (50 - n1 / 1e6)))
PY
