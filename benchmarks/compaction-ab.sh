#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A compaction's cost, two builds side by side (issue 18, part 1): for each round and each build
# in turn, a fresh copy of DATA (a data directory whose snapshot is followed by a log, e.g. one
# that service-curve.sh probed) is opened by `Checkpoint` (org.neardup.store.embedded), which
# writes one snapshot of everything and closes. It prints the seconds to open and to write the
# snapshot, the bytes the snapshot wrote, the bytes the directory then holds, and the process'
# CPU seconds, then per build the mean, and B's bytes written and snapshot seconds over A's.
# Format 4 (a compaction keeps the earlier sketch files) against a build that copies every sketch:
# JAR_A the old build, JAR_B the new, or the same new build twice with FLAGS_A=--copy (A copies
# every sketch, as before format 4). A checkpoint rebuilds the collections (every sketch read
# whole); FLAGS_A and FLAGS_B "--no-rebuild" measure a background compaction's snapshot instead.
# Usage: benchmarks/compaction-ab.sh DATA CP_A CP_B [ROUNDS]
#   CP_A, CP_B: java class paths (a neardup.jar, or classes:neardup.jar to put a build's classes
#   first). env COPY (where the copies go; default a temp dir, needs twice DATA's size free),
#   JAVA_OPTS (default -Xmx3g; a 1M news directory's rebuild needs -Xmx4g), FLAGS_A, FLAGS_B
#   (Checkpoint's flags for each build: --copy, --no-rebuild; a build before format 4 takes none).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 DATA CP_A CP_B [ROUNDS]" >&2; exit 2; }
data="$1"
cps=("$2" "$3")
rounds="${4:-2}"
opts="${JAVA_OPTS:--Xmx3g}"
[ -d "$data" ] || { echo "no data directory $data" >&2; exit 2; }
copy="${COPY:-$(mktemp -d)}"
mkdir -p "$copy"
out="$(mktemp)"
cleanup() {
  rm -rf "$copy/data" "$out"
  [ -n "${COPY:-}" ] || rm -rf "$copy"
}
trap cleanup EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); data $(du -sb "$data" | cut -f1) bytes"
for round in $(seq 1 "$rounds"); do
  for side in 0 1; do
    rm -rf "$copy/data"
    mkdir -p "$copy/data"
    for f in "$data"/*.nd*; do cp "$f" "$copy/data/"; done
    cat "$copy"/data/*.nd* > /dev/null # the same warm page cache for both
    flag="${FLAGS_B:-}"
    [ "$side" = 0 ] && flag="${FLAGS_A:-}"
    line=$( { /usr/bin/time -f "cpu %U %S" java $opts -cp "${cps[$side]}" \
      org.neardup.store.embedded.Checkpoint $flag "$copy/data"; } 2>&1 | grep -E "opened in|^cpu" | tr '\n' ' ')
    held=$(du -sb "$copy/data" | cut -f1)
    echo "round $round build $side: $line held=$held"
    python3 - "$side" "$line" "$held" >> "$out" <<'PY'
import re, sys
side, line, held = sys.argv[1], sys.argv[2], sys.argv[3]
m = re.search(r"opened in ([\d.]+) s, snapshot written in ([\d.]+) s: (\d+) bytes written", line)
old = re.search(r"opened in ([\d.]+) s, snapshot of (\d+) bytes \(both files\) written in ([\d.]+) s", line)
c = re.search(r"cpu ([\d.]+) ([\d.]+)", line)
if old:  # a build before format 4: its snapshot wrote every byte it holds
    m, written = None, old.group(2)
    print("result side=%s open=%s snap=%s written=%s held=%s cpu=%.2f" % (
        side, old.group(1), old.group(3), written, held, float(c.group(1)) + float(c.group(2))))
if m and c:
    written = m.group(3)
    print("result side=%s open=%s snap=%s written=%s held=%s cpu=%.2f" % (
        side, m.group(1), m.group(2), written, held, float(c.group(1)) + float(c.group(2))))
PY
  done
done
python3 - "$out" "${cps[@]}" <<'PY'
import sys
from collections import defaultdict
path, cps = sys.argv[1], sys.argv[2:]
runs = defaultdict(list)
for line in open(path):
    f = dict(p.split("=", 1) for p in line.split()[1:])
    runs[int(f["side"])].append({k: float(v) for k, v in f.items()})
def mean(s, k):
    v = [r[k] for r in runs[s]]
    return sum(v) / len(v) if v else float("nan")
for s in (0, 1):
    print("build %d (%s), %d runs: open %.1f s, snapshot %.1f s, written %.0f MB, directory %.0f MB after, process CPU %.1f s" % (
        s, cps[s], len(runs[s]), mean(s, "open"), mean(s, "snap"), mean(s, "written") / 1e6,
        mean(s, "held") / 1e6, mean(s, "cpu")))
if runs[0] and runs[1] and mean(0, "written") > 0:
    print("B/A: bytes written %.3f, snapshot seconds %.3f" % (
        mean(1, "written") / mean(0, "written"), mean(1, "snap") / mean(0, "snap")))
PY
