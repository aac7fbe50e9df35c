#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The server's CPU per verified document, another jar against this tree's, interleaved so that both
# see the same load: two `neardup serve` (their defaults, -Xmx HEAP) on two ports, each warmed with
# the same WARM documents, then ROUNDS rounds in which each gets the same fresh DOCS documents by
# `neardup send --batch 100` (this tree's send), the order of the two servers alternating. Per round
# and server: the CPU of its worker threads (parse, analyse, decide, store, answer) and of the whole
# process per document, from /proc; at the end the median of new / old per round. Meant for a
# loaded machine, where rates mean nothing but CPU per document measured side by side still does.
# Run it A/A too (NEW_JAR set to OTHER_NEARDUP_JAR): with the same jar on both sides the second
# server read ~5% lower than the first (docs/BENCHMARKS.md, 2026-11-25 eleventh session).
# Usage: benchmarks/service-cpu-ab.sh OTHER_NEARDUP_JAR [ROUNDS (5)] [DOCS (10000)] [LENGTH (short|news)]
#   env WARM (40000 short, 10000 news), HEAP (3g), NO_BUILD=1, BASE (the dev set's docs.jsonl),
#   NEW_JAR and BENCH_JAR (instead of this tree's cli/target/neardup.jar and benchmarks.jar);
#   OTHER_DEFAULTS: the other tree's dist/src/bin/java-defaults.sh, so that its server runs with
#   that tree's launcher flags for serve (without it, both with this tree's).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
other="${1:?usage: service-cpu-ab.sh OTHER_NEARDUP_JAR [ROUNDS] [DOCS] [LENGTH]}"
rounds="${2:-5}"
docs="${3:-10000}"
length="${4:-short}"
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
heap="${HEAP:-3g}"
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
  local p
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; wait "$p" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
# Two servers; service-lib keeps one in $pid, so each is started and its pid kept here.
for i in 0 1; do
  jar=$([ $i = 0 ] && echo old || echo new)
  port=${ports[$i]} url="http://127.0.0.1:$port"
  # The old jar's server with its own tree's launcher flags when OTHER_DEFAULTS names them.
  [ "$jar" = new ] || [ -z "${OTHER_DEFAULTS:-}" ] || . "$OTHER_DEFAULTS"
  serve_start "$work/$jar.jar" "$heap" --data "$work/data-$jar"
  . "$root/dist/src/bin/java-defaults.sh"
  pids[$i]=$pid
  pid=""
done
java -Xmx2g -cp "$work/benchmarks.jar" org.neardup.benchmarks.NewsCorpus "$base" $((warm + rounds * docs)) "$work/corpus.jsonl" 20261125 "$min" "$max" > /dev/null
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
head -n "$warm" "$work/corpus.jsonl" > "$work/warm.jsonl"
for i in 0 1; do send $i "$work/warm.jsonl"; done
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(cd "$root" && git rev-parse --short HEAD), other jar: $other; $length texts ($min-$max characters), $warm stored before, rounds of $docs"
: > "$work/ratios"
for r in $(seq 1 "$rounds"); do
  sed -n "$((warm + (r - 1) * docs + 1)),$((warm + r * docs))p" "$work/corpus.jsonl" > "$work/round.jsonl"
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
  echo "${workers[1]} ${workers[0]} ${all[1]} ${all[0]}" >> "$work/ratios"
done
python3 - "$work/ratios" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
w = [a / b for a, b, _, _ in rows]
t = [c / d for _, _, c, d in rows]
print("new / old, median of %d rounds: workers %.3f (%s), all threads %.3f (%s)" % (
    len(rows), statistics.median(w), " ".join("%.2f" % x for x in w),
    statistics.median(t), " ".join("%.2f" % x for x in t)))
PY
