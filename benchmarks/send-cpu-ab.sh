#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The client's CPU per document: `neardup send` of an old tree against this tree's, side by side,
# to one running service (this tree's `neardup serve`, its defaults), each run into a fresh
# collection, in rounds whose order alternates; each jar run as its own tree's launcher runs it
# (that tree's JVM flags for send from dist/src/bin/java-defaults.sh and its class-data archive
# made by its dist/src/bin/cds.sh, when the tree has one).
# A third column sends with the old tree again (A/A): the spread between the two old columns is
# what the machine's noise gives; a gain inside it is not shown.
# Per run: the client's user + system CPU (/usr/bin/time, its JVM start included) in us per
# document, and two counts the load does not change: the methods its JIT compiled
# (-XX:+PrintCompilation lines, into a log file) and its threads (/proc/PID/task, sampled). Every run prints one
# line per document (--show all): each jar's lines must be the same, or the script fails.
# Usage: benchmarks/send-cpu-ab.sh OLD_TREE [DOCS (20000)] [ROUNDS (3)]
#   OLD_TREE: a built tree (cli/target/neardup.jar), e.g. /work/s12/base.
#   env NO_BUILD=1; WORK (a temporary directory, removed); BASE (the dev set's docs.jsonl);
#   MIN / MAX text length (150 / 250); BATCH (100).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="${1:?usage: send-cpu-ab.sh OLD_TREE [DOCS] [ROUNDS]}"
docs="${2:-20000}"
rounds="${3:-3}"
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
[ -f "$old/cli/target/neardup.jar" ] || { echo "no jar at $old/cli/target/neardup.jar" >&2; exit 2; }
[ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
for tool in curl python3 /usr/bin/time; do command -v $tool > /dev/null || { echo "needs $tool" >&2; exit 1; }; done
port="$((20000 + RANDOM % 20000))"
url="http://127.0.0.1:$port"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
. "$root/dist/src/bin/java-defaults.sh"
. "$root/benchmarks/service-lib.sh"
trap serve_cleanup EXIT
[ -n "${NO_BUILD:-}" ] || (cd "$root" && mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli,benchmarks -am package)
cp "$root/cli/target/neardup.jar" "$work/new.jar"
cp "$old/cli/target/neardup.jar" "$work/old.jar"
# Each tree's flags and archive, as its launcher makes them.
for side in old new; do
  tree="$root"
  [ "$side" = old ] && tree="$old"
  (. "$tree/dist/src/bin/java-defaults.sh" && neardup_java_defaults send) > "$work/$side.flags"
  : > "$work/$side.cds"
  if [ -f "$tree/dist/src/bin/cds.sh" ] && [ "${NEARDUP_CDS:-1}" != 0 ]; then
    if (. "$tree/dist/src/bin/cds.sh" && neardup_cds_archive "$work/$side.jsa" "$work/$side.jar" java -jar "$work/$side.jar"); then
      echo "-XX:SharedArchiveFile=$work/$side.jsa -Xlog:cds=off,cds+dynamic=off" > "$work/$side.cds"
    fi
  fi
  echo "$side: send flags $(cat "$work/$side.flags") $(cat "$work/$side.cds" | cut -d' ' -f1)"
done
java -Xmx1g -cp "$old/benchmarks/target/benchmarks.jar:$root/benchmarks/target/benchmarks.jar" \
  org.neardup.benchmarks.NewsCorpus "$base" "$docs" "$work/corpus.jsonl" 20261125 "${MIN:-150}" "${MAX:-250}" > /dev/null
serve_start "$work/new.jar" 3g --data "$work/data"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(cd "$root" && git rev-parse --short HEAD), old tree $old"
: > "$work/results"
n=0
for r in $(seq 1 "$rounds"); do
  order="old new old"
  [ $((r % 2)) -eq 0 ] && order="new old old"
  col=0
  for side in $order; do
    n=$((n + 1))
    name="$side"
    if [ "$side" = old ]; then col=$((col + 1)); [ $col -eq 2 ] && name=old-again; fi
    curl -sf -X POST "$url/v1/collections" -H 'Content-Type: application/json' -d "{\"name\":\"r$n\"}" > /dev/null
    # shellcheck disable=SC2046
    /usr/bin/time -f '%U %S' -o "$work/time.out" java $(cat "$work/$side.flags") $(cat "$work/$side.cds") \
      -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -XX:-DisplayVMOutput -XX:+LogVMOutput \
      -XX:LogFile="$work/jit.$n" -Xmx3g -jar "$work/$side.jar" send "$work/corpus.jsonl" \
      --url "$url" --collection "r$n" --batch "${BATCH:-100}" --show all > "$work/out.$n" &
    tpid=$!
    threads=0
    while kill -0 $tpid 2>/dev/null; do
      jp=$(pgrep -P $tpid java | head -1 || true)
      if [ -n "$jp" ]; then
        t=$(ls "/proc/$jp/task" 2>/dev/null | wc -l || true)
        [ "$t" -le "$threads" ] || threads=$t
      fi
      sleep 0.05
    done
    wait $tpid
    compiled=$(grep -c '^ *[0-9][0-9]* *[0-9][0-9]* ' "$work/jit.$n" || true)
    grep -v '^sent ' "$work/out.$n" > "$work/lines.$n" || true
    [ "$(wc -l < "$work/lines.$n")" -eq "$docs" ] || { echo "run $n ($side): $(wc -l < "$work/lines.$n") lines, not $docs" >&2; exit 1; }
    cmp -s "$work/lines.1" "$work/lines.$n" || { echo "run $n ($side): its lines differ from run 1's" >&2; exit 1; }
    cpu=$(awk -v n="$docs" '{ printf "%.1f", ($1 + $2) * 1e6 / n }' "$work/time.out")
    echo "round $r $name: client CPU $cpu us per document, $compiled methods compiled, $threads threads at most (load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$name $cpu $compiled $threads" >> "$work/results"
  done
done
echo "same lines from every run (one per document, --show all): yes"
python3 - "$work/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, cpu, comp, thr = line.split()
    rows.setdefault(name, []).append((float(cpu), int(comp), int(thr)))
med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in rows.items()}
for k in ("old", "old-again", "new"):
    print("%-10s median: client CPU %.1f us per document, %d methods compiled, %d threads" % (k, *med[k]))
print("new / old: CPU %.2f, compiled methods %.2f; A/A (old-again / old): CPU %.2f"
      % (med["new"][0] / med["old"][0], med["new"][1] / med["old"][1], med["old-again"][0] / med["old"][0]))
PY
