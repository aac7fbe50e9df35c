#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The heap and the open CPU a stored document really adds, two builds side by side (issue 18,
# part 1): service-open.sh opens a small and a large data directory with each jar (alternating),
# and this prints, per jar, the live heap per added document between the two sizes (the slope: the
# fixed part of the heap, jieba's dictionary, classes and buffers, cancels out), the collections'
# ramBytes per added document, and the server's CPU seconds to /ready per million added documents.
# The goal of issue 18 is a slope <= 120 B plus the id's bytes (~11 B for NewsCorpus's ids).
# Usage: benchmarks/service-slope.sh SMALL_DATA LARGE_DATA JAR_A JAR_B [ROUNDS]
#   env: as service-open.sh (PORT, NEARDUP_JAVA_OPTS, COPY, HISTOGRAMS); SMALL_B and LARGE_B are
#   the directories JAR_B opens instead (service-open.sh's DATA_B), e.g. the same documents
#   rewritten in JAR_B's snapshot format by its Checkpoint.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 4 ] || { echo "usage: $0 SMALL_DATA LARGE_DATA JAR_A JAR_B [ROUNDS]" >&2; exit 2; }
small="$1"
large="$2"
rounds="${5:-1}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
DATA_B="${SMALL_B:-$small}" "$root/benchmarks/service-open.sh" "$small" "$3" "$4" "$rounds" | sed 's/^result /result small /' | tee -a "$out"
DATA_B="${LARGE_B:-$large}" "$root/benchmarks/service-open.sh" "$large" "$3" "$4" "$rounds" | sed 's/^result /result large /' | tee -a "$out"
python3 - "$out" "$3" "$4" <<'PY'
import sys
from collections import defaultdict
path, jars = sys.argv[1], sys.argv[2:]
runs = defaultdict(list)  # (size, jar) -> [figures]
for line in open(path):
    if not line.startswith("result "):
        continue
    parts = line.split()
    size = parts[1]
    f = dict(p.split("=", 1) for p in parts[2:])
    runs[(size, int(f["jar"]))].append({k: float(v) for k, v in f.items()})
def mean(size, j, key):
    v = [r[key] for r in runs[(size, j)]]
    return sum(v) / len(v)
print("per added document, between %d and %d documents (mean of the rounds):" % (
    mean("small", 0, "docs"), mean("large", 0, "docs")))
for j, jar in enumerate(jars):
    dn = mean("large", j, "docs") - mean("small", j, "docs")
    heap = (mean("large", j, "heap") - mean("small", j, "heap")) / dn
    ram = (mean("large", j, "ram") - mean("small", j, "ram")) / dn
    cpu = (mean("large", j, "cpu") - mean("small", j, "cpu")) / dn * 1e6
    fixed = mean("small", j, "heap") - heap * mean("small", j, "docs")
    print("  %-50s live heap %6.1f B  ramBytes %6.1f B  open %5.1f CPU s per million  (fixed heap %.1f MB)"
          % (jar, heap, ram, cpu, fixed / 2**20))
PY
