#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The server's CPU per verified document, another jar against this tree's, interleaved so that both
# see the same load: two `neardup serve` (their defaults, -Xmx HEAP) on two ports, warmed with the
# same WARM documents, then ROUNDS rounds in which each gets the same fresh DOCS documents by
# `neardup send --batch 100` (this tree's send), the order of the two servers alternating. Per round
# and server: the CPU of its worker threads (parse, analyse, decide, store, answer) and of the whole
# process per document, from /proc. Meant for a loaded machine, where rates mean nothing but CPU per
# document measured side by side still does.
# In two phases, each with fresh servers: the old jar's server started first, then the new one's;
# then the new one first. The server started second read 0.84-0.86x the first's worker CPU per
# short text in every round of an A/A (the same jar on both sides, with the same flags), and 1.19x
# once the order was reversed (docs/BENCHMARKS.md, the eighteenth session: not the flags, the
# warm-up's order, the ports or a jar shared with the client); the single-phase form of this script
# gave new/old 0.775 in an A/A on the quiet machine. So each phase's median of new / old carries
# that start-order factor once each way, and their geometric mean cancels it: the figure. Run it
# A/A too (NEW_JAR set to OTHER_NEARDUP_JAR): the phases then show the factor, and the figure
# should be near 1.
# Usage: benchmarks/service-cpu-ab.sh OTHER_NEARDUP_JAR [ROUNDS (4 per phase)] [DOCS (10000)] [LENGTH (short|news)]
#   env WARM (40000 short, 10000 news), WARM_PARTS (2), HEAP (1500m: two servers and the client
#   within ~4 GB), NO_BUILD=1, BASE (the dev set's docs.jsonl), NEW_JAR and BENCH_JAR (instead of
#   this tree's cli/target/neardup.jar and benchmarks.jar); OTHER_DEFAULTS: the other tree's
#   dist/src/bin/java-defaults.sh, so that its server runs with that tree's launcher flags for serve
#   (without it, both with this tree's).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
other="${1:?usage: service-cpu-ab.sh OTHER_NEARDUP_JAR [ROUNDS] [DOCS] [LENGTH]}"
rounds="${2:-4}"
# An even number of rounds per phase, so that each server goes first in as many rounds as the other.
[ $((rounds % 2)) = 0 ] || rounds=$((rounds + 1))
docs="${3:-10000}"
length="${4:-short}"
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
heap="${HEAP:-1500m}"
[ -f "$other" ] || { echo "no jar at $other" >&2; exit 2; }
[ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
if [ "$length" = short ]; then min=150 max=250 warm="${WARM:-40000}"; else min=1500 max=3000 warm="${WARM:-10000}"; fi
work="$(mktemp -d)"
[ -n "${NO_BUILD:-}" ] || (cd "$root" && mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli,benchmarks -am package)
cp "${NEW_JAR:-$root/cli/target/neardup.jar}" "$work/new.jar"
cp "${BENCH_JAR:-$root/benchmarks/target/benchmarks.jar}" "$work/benchmarks.jar"
cp "$other" "$work/old.jar"
. "$root/dist/src/bin/java-defaults.sh"
port="" url="" pids=()
. "$root/benchmarks/service-lib.sh"
ports=($((20000 + RANDOM % 10000)) $((30000 + RANDOM % 10000)))
cleanup() {
  stop_servers
  rm -rf "$work"
}
trap cleanup EXIT
# start_servers FIRST SECOND: fresh servers, index 0 the old jar's and 1 the new one's, started in
# that order; service-lib keeps one in $pid, so each is started and its pid kept here.
start_servers() {
  local i jar
  for i in "$@"; do
    jar=$([ "$i" = 0 ] && echo old || echo new)
    port=${ports[$i]} url="http://127.0.0.1:$port"
    rm -rf "$work/data-$jar"
    # The old jar's server with its own tree's launcher flags when OTHER_DEFAULTS names them.
    [ "$jar" = new ] || [ -z "${OTHER_DEFAULTS:-}" ] || . "$OTHER_DEFAULTS"
    serve_start "$work/$jar.jar" "$heap" --data "$work/data-$jar"
    . "$root/dist/src/bin/java-defaults.sh"
    pids[$i]=$pid
    pid=""
  done
}
stop_servers() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; wait "$p" 2> /dev/null || true; done
  pids=()
}
java -Xmx2g -cp "$work/benchmarks.jar" org.neardup.benchmarks.NewsCorpus "$base" $((warm + 2 * rounds * docs)) "$work/corpus.jsonl" 20261125 "$min" "$max" > /dev/null
# cpu_by_thread PID: the process's CPU ticks (exited threads included: the JIT's compiler threads
# and idle pool threads come and go) and each live worker thread's, as a Python literal; a worker
# that ends between two readings is left out of the difference (its last ticks are lost).
cpu_by_thread() {
  python3 - "$1" <<'PY'
import os, re, sys
pid = sys.argv[1]
s = open("/proc/%s/stat" % pid).read()
f = s[s.rindex(")") + 2:].split()
out = {"all": int(f[11]) + int(f[12]), "threads": {}}
for t in os.listdir("/proc/%s/task" % pid):
    try:
        s = open("/proc/%s/task/%s/stat" % (pid, t)).read()
    except OSError:
        continue
    if re.search(r"^neardup-(worker|single)", s[s.index("(") + 1:s.rindex(")")]):
        f = s[s.rindex(")") + 2:].split()
        out["threads"][t] = int(f[11]) + int(f[12])
print(repr(out))
PY
}
send() { # INDEX FILE
  java $(NEARDUP_JAVA_OPTS=-Xmx1g neardup_java_defaults send) -Xmx1g -jar "$work/new.jar" send "$2" --url "http://127.0.0.1:${ports[$1]}" --batch 100 > /dev/null
}
# phase N FIRST SECOND: servers started in that order, warmed, then the rounds; each round's new /
# old appended to $work/ratios with the phase's number.
phase() {
  local n="$1" p r i order before after w a
  shift
  start_servers "$@"
  # The warm-up in WARM_PARTS parts, the servers' order alternating part by part as the rounds' does
  # (0 1, 1 0, 0 1, ...), so that neither compiles its code while the other is idle.
  parts="${WARM_PARTS:-2}"
  for p in $(seq 0 $((parts - 1))); do
    sed -n "$((p * warm / parts + 1)),$(((p + 1) * warm / parts))p" "$work/corpus.jsonl" > "$work/warm.jsonl"
    for i in $([ $((p % 2)) = 0 ] && echo "0 1" || echo "1 0"); do send "$i" "$work/warm.jsonl"; done
  done
  for i in 0 1; do
    echo "server $i ($([ $i = 0 ] && echo old || echo new)): $(tr '\0' ' ' < "/proc/${pids[$i]}/cmdline" | sed "s|$work/||g")"
  done
  echo "phase $n, the $([ "$1" = 0 ] && echo old || echo new) jar's server started first: load $(cut -d' ' -f1-3 /proc/loadavg)"
  for r in $(seq 1 "$rounds"); do
    # each phase's rounds on other documents, so that both phases' servers see fresh ones
    local from=$((warm + ((n - 1) * rounds + r - 1) * docs))
    sed -n "$((from + 1)),$((from + docs))p" "$work/corpus.jsonl" > "$work/round.jsonl"
    order=$([ $((r % 2)) = 1 ] && echo "0 1" || echo "1 0")
    declare -A workers=() all=()
    for i in $order; do
      before=$(cpu_by_thread "${pids[$i]}")
      send "$i" "$work/round.jsonl"
      after=$(cpu_by_thread "${pids[$i]}")
      read -r w a < <(python3 -c 'import sys
b, a, n, hz = eval(sys.argv[1]), eval(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
w = sum(t - b["threads"].get(k, 0) for k, t in a["threads"].items())
print("%.1f %.1f" % (w * 1e6 / hz / n, (a["all"] - b["all"]) * 1e6 / hz / n))' "$before" "$after" "$docs" "$(getconf CLK_TCK)")
      workers[$i]=$w all[$i]=$a
    done
    echo "round $r: us of CPU per document, old / new: workers ${workers[0]} / ${workers[1]}, all threads ${all[0]} / ${all[1]} (load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$n ${workers[1]} ${workers[0]} ${all[1]} ${all[0]}" >> "$work/ratios"
  done
  stop_servers
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(cd "$root" && git rev-parse --short HEAD), other jar: $other; $length texts ($min-$max characters), $warm stored before, $rounds rounds of $docs per phase"
: > "$work/ratios"
phase 1 0 1
phase 2 1 0
python3 - "$work/ratios" <<'PY'
import math, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
def medians(k):
    out = []
    for n in ("1", "2"):
        r = [float(x[k]) / float(x[k + 1]) for x in rows if x[0] == n]
        out.append((statistics.median(r), " ".join("%.2f" % v for v in r)))
    return out
for name, k in (("workers", 1), ("all threads", 3)):
    (m1, r1), (m2, r2) = medians(k)
    print("new / old, %s: phase 1 (old started first) %.3f (%s), phase 2 (new first) %.3f (%s);"
          " the figure, their geometric mean: %.3f; the start order's own factor: %.3f"
          % (name, m1, r1, m2, r2, math.sqrt(m1 * m2), math.sqrt(m1 / m2)))
PY
