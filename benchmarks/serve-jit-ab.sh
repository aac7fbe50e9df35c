#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The service's CPU per verified document under several sets of JVM flags, side by side: the JIT
# compilers of a fresh `neardup serve` take as much CPU as its workers for the first ~20,000 short
# texts (docs/BENCHMARKS.md, 2026-11-25 evening), so the flags that shape the compilers are decided
# here by measurement. Per round and per variant (the order rotating between rounds): a fresh
# server of this tree's jar with the launcher's serve flags (this tree's java-defaults.sh, -Xmx
# HEAP), then the variant's flags after them (so they win); three sends of `neardup send --batch
# 100` (this tree's client with its launcher's flags): DOCS texts into the default collection
# (fresh), DOCS other texts into it (warm), and the first DOCS again into a new collection
# (steady: the same analysis work, later in the server's life). For each send, the server's CPU
# per document: the whole process from /proc/PID/stat (compiler threads may end and leave their
# CPU uncounted by thread) and by kind of thread (workers, jit, http, log, gc, other).
# Medians per variant and phase at the end. CPU per document is readable at any load; rates are
# not printed.
# Usage: benchmarks/serve-jit-ab.sh LENGTH ROUNDS NAME=FLAGS...
#   LENGTH short (150-250 characters, DOCS 20000) or news (1,500-3,000, DOCS 5000); FLAGS
#   comma-separated JVM options, empty for the launcher's own (e.g. base=
#   c1=-XX:TieredStopAtLevel=1).
#   env DOCS; HEAP (3g); BASE (the dev set's docs.jsonl); JAR (this tree's cli/target/neardup.jar);
#   WORK (a temporary directory, removed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
length="${1:?usage: serve-jit-ab.sh LENGTH ROUNDS NAME=FLAGS...}"
rounds="${2:?rounds}"
shift 2
[ $# -ge 1 ] || { echo "name at least one variant: NAME=FLAGS" >&2; exit 2; }
variants=("$@")
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
jar="${JAR:-$root/cli/target/neardup.jar}"
heap="${HEAP:-3g}"
[ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
[ -f "$jar" ] || { echo "no jar at $jar (build it, or set JAR)" >&2; exit 2; }
if [ "$length" = short ]; then
  min=150 max=250 docs="${DOCS:-20000}"
else
  min=1500 max=3000 docs="${DOCS:-5000}"
fi
port="$((20000 + RANDOM % 20000))"
url="http://127.0.0.1:$port"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
. "$root/dist/src/bin/java-defaults.sh"
. "$root/benchmarks/service-lib.sh"
trap serve_cleanup EXIT
cp "$jar" "$work/neardup.jar"
send_flags="$(neardup_java_defaults send)"
: > "$work/send.cds"
if [ "${NEARDUP_CDS:-1}" != 0 ] \
    && (. "$root/dist/src/bin/cds.sh" && neardup_cds_archive "$work/neardup.jsa" "$work/neardup.jar" java -jar "$work/neardup.jar"); then
  echo "-XX:SharedArchiveFile=$work/neardup.jsa -Xlog:cds=off,cds+dynamic=off" > "$work/send.cds"
fi
java -Xmx1g -cp "$root/benchmarks/target/benchmarks.jar" org.neardup.benchmarks.NewsCorpus \
  "$base" $((2 * docs)) "$work/corpus.jsonl" 20261125 "$min" "$max" > /dev/null
head -n "$docs" "$work/corpus.jsonl" > "$work/a.jsonl"
tail -n "$docs" "$work/corpus.jsonl" > "$work/b.jsonl"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(cd "$root" && git rev-parse --short HEAD); serve flags: $(NEARDUP_JAVA_OPTS=-Xmx$heap neardup_java_defaults serve) -Xmx$heap, then the variant's"
: > "$work/results"
n=${#variants[@]}
for r in $(seq 1 "$rounds"); do
  for j in $(seq 0 $((n - 1))); do
    v="${variants[$(((j + r) % n))]}"
    name="${v%%=*}"
    flags="${v#*=}"
    rm -rf "$work/data"
    JAVA_EXTRA="${flags//,/ }" serve_start "$work/neardup.jar" "$heap" --data "$work/data"
    for phase in fresh warm steady; do
      input="$work/a.jsonl" collection=default
      [ "$phase" = warm ] && input="$work/b.jsonl"
      if [ "$phase" = steady ]; then
        collection=steady
        curl -sf -X POST "$url/v1/collections" -H 'Content-Type: application/json' \
          -d '{"name":"steady"}' > /dev/null
      fi
      before=$(thread_cpu "$pid")
      p0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
      # shellcheck disable=SC2046,SC2086
      java $send_flags $(cat "$work/send.cds") -jar "$work/neardup.jar" send "$input" --url "$url" \
        --collection "$collection" --batch 100 > "$work/send.out"
      after=$(thread_cpu "$pid")
      p1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
      python3 - "$docs" "$(getconf CLK_TCK)" "$p0" "$p1" "$before" "$after" "$name" "$phase" "$r" \
        "$(cut -d' ' -f1 /proc/loadavg)" "$work/results" <<'PY'
import sys
n, hz = int(sys.argv[1]), int(sys.argv[2])
proc = (int(sys.argv[4]) - int(sys.argv[3])) * 1e6 / hz / n
kinds = [(int(y) - int(x)) * 1e6 / hz / n for x, y in zip(sys.argv[5].split(), sys.argv[6].split())]
name, phase, r, load = sys.argv[7:11]
print("round %s %s %s: server %.0f us per document (workers %.0f, jit %.0f, http %.0f, log %.0f, gc %.0f, other %.0f; load %s)"
      % (r, name, phase, proc, *kinds, load))
with open(sys.argv[11], "a") as f:
    f.write("%s %s %.1f %.1f %.1f\n" % (name, phase, proc, kinds[0], kinds[1]))
PY
    done
    serve_stop
  done
done
python3 - "$work/results" "$length" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, phase, proc, workers, jit = line.split()
    rows.setdefault((name, phase), []).append((float(proc), float(workers), float(jit)))
print("medians, %s texts, us of server CPU per document (process / workers / jit by thread):" % sys.argv[2])
for (name, phase), v in rows.items():
    print("  %-10s %-6s %6.0f / %5.0f / %5.0f  (%d rounds)"
          % (name, phase, *(statistics.median(x[i] for x in v) for i in range(3)), len(v)))
PY
