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
# every sketch, as before format 4). A checkpoint rebuilds the collections that hold removed
# documents; FLAGS_A and FLAGS_B "--no-rebuild" measure a background compaction's snapshot instead.
# Each run also prints its exit status (an OutOfMemoryError ends the JVM: -XX:+ExitOnOutOfMemoryError),
# its peak RSS, and, from a build that prints them, the rebuild batch's most bytes and the heap's peak.
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
    line=$( { /usr/bin/time -f "cpu %U %S rss %M exit %x" java $opts -XX:+ExitOnOutOfMemoryError \
      -cp "${cps[$side]}" org.neardup.store.embedded.Checkpoint $flag "$copy/data" || true; } 2>&1 \
      | grep -E "opened in|^cpu|OutOfMemory|Command exited" | tr '\n' ' ')
    held=$(du -sb "$copy/data" | cut -f1)
    echo "round $round build $side: $line held=$held"
    python3 - "$side" "$line" "$held" >> "$out" <<'PY'
import re, sys
side, line, held = sys.argv[1], sys.argv[2], sys.argv[3]
m = re.search(r"opened in ([\d.]+) s, snapshot written in ([\d.]+) s: (\d+) bytes written", line)
old = re.search(r"opened in ([\d.]+) s, snapshot of (\d+) bytes \(both files\) written in ([\d.]+) s", line)
c = re.search(r"cpu ([\d.]+) ([\d.]+) rss (\d+) exit (\d+)", line)
extra = ""
if c:
    extra = " rss=%d status=%s" % (int(c.group(3)) * 1024, c.group(4))
    if c.group(4) != "0":
        print("result side=%s open=nan snap=nan written=nan held=%s cpu=%.2f%s" % (
            side, held, float(c.group(1)) + float(c.group(2)), extra))
        sys.exit(0)
b = re.search(r"batches of at most (\d+) bytes; heap peak (\d+) bytes", line)
if b:
    extra += " batch=%s heap=%s" % (b.group(1), b.group(2))
if old:  # a build before format 4: its snapshot wrote every byte it holds
    m, written = None, old.group(2)
    print("result side=%s open=%s snap=%s written=%s held=%s cpu=%.2f%s" % (
        side, old.group(1), old.group(3), written, held, float(c.group(1)) + float(c.group(2)), extra))
if m and c:
    written = m.group(3)
    print("result side=%s open=%s snap=%s written=%s held=%s cpu=%.2f%s" % (
        side, m.group(1), m.group(2), written, held, float(c.group(1)) + float(c.group(2)), extra))
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
    v = [r[k] for r in runs[s] if k in r]
    return sum(v) / len(v) if v else float("nan")
def most(s, k):
    v = [r[k] for r in runs[s] if k in r]
    return max(v) if v else float("nan")
for s in (0, 1):
    failed = sum(1 for r in runs[s] if r.get("status", 0) != 0)
    print("build %d (%s), %d runs (%d failed: exit status not 0, e.g. out of memory): open %.1f s, snapshot %.1f s, written %.0f MB, directory %.0f MB after, process CPU %.1f s, peak RSS %.0f MB, rebuild batch at most %.1f MB, heap peak %.0f MB" % (
        s, cps[s], len(runs[s]), failed, mean(s, "open"), mean(s, "snap"), mean(s, "written") / 1e6,
        mean(s, "held") / 1e6, mean(s, "cpu"), most(s, "rss") / 1e6, most(s, "batch") / 1e6,
        most(s, "heap") / 1e6))
if runs[0] and runs[1] and mean(0, "written") > 0:
    print("B/A: bytes written %.3f, snapshot seconds %.3f" % (
        mean(1, "written") / mean(0, "written"), mean(1, "snap") / mean(0, "snap")))
PY
