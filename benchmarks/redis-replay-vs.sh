#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# redis-server's instructions per verified document of two builds, from the same load replayed
# under callgrind (a figure the machine's load does not move): each build's StoreLoad (DOCS short
# texts, one thread, batches of BATCH, rounds of 16: the same documents in the same order, so the
# same commands but for what the build changed) runs once through a capture proxy into a fresh
# redis-server; the client stream is rewritten to one collection name; then each stream is replayed
# into a fresh redis-server under valgrind callgrind (both at once), counting only while it reads and
# runs commands (--toggle-collect=readQueryFromClient: not serverCron's time-driven work, which
# follows how long a replay takes). Prints per build the instructions per document and B/A; AA=1
# also replays A's stream a second time (an A/A: the replay's own spread). Needs valgrind, python3.
# Usage: BUILD=0 benchmarks/redis-replay-vs.sh JAR_A JAR_B [DOCS] [BATCH]   (default 20000 100)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
a="$1"; b="$2"; docs="${3:-20000}"; batch="${4:-100}"
work="$(mktemp -d)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
[ "${BUILD:-1}" = 0 ] || mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl benchmarks -am package
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD); redis-server $(redis-server --version | cut -d' ' -f3); $(valgrind --version)"
capture() { # capture JAR OUT
  local rp lp d pp
  rp=$(free_port); lp=$(free_port); d="$work/cap-$2"; mkdir -p "$d"
  redis-server --port "$rp" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$d" --pidfile "$d/r.pid" --logfile "$d/r.log"
  until redis-cli -p "$rp" ping > /dev/null 2>&1; do sleep 0.2; done
  python3 benchmarks/redis-capture.py proxy "$lp" "$rp" "$d/raw.resp" & pp=$!; pids+=("$pp")
  until python3 -c "import socket; socket.create_connection(('127.0.0.1', $lp)).close()" 2> /dev/null; do sleep 0.2; done
  echo "$2: $(timeout 600 java -Xmx2g -cp "$1" org.neardup.benchmarks.StoreLoad redis texts "$docs" 1 "$batch" \
    "url=redis://127.0.0.1:$lp" expire-interval=0 expected-documents="$docs" timeout-ms=60000 2>&1 \
    | grep 'docs/s' || echo 'StoreLoad failed')"
  sleep 0.5; kill "$pp"; wait "$pp" 2> /dev/null || true
  redis-cli -p "$rp" shutdown nosave > /dev/null 2>&1 || true
  python3 benchmarks/redis-capture.py rename "$d/raw.resp" "$work/$2.resp"
  rm -rf "$d"
}
replay() { # replay NAME STREAM: prints instructions per document
  local p d vp
  p=$(free_port); d="$work/rep-$1"; mkdir -p "$d"
  valgrind --tool=callgrind --callgrind-out-file="$d/cg.out" --toggle-collect=readQueryFromClient \
    redis-server --port "$p" --bind 127.0.0.1 --save '' --appendonly no --dir "$d" > "$d/vg.log" 2>&1 &
  vp=$!
  until redis-cli -p "$p" ping > /dev/null 2>&1; do sleep 0.5; done
  redis-cli -p "$p" --pipe < "$2" > "$d/pipe.log" 2>&1 || true # Jedis's CLIENT SETINFO: 2 errors on 7.0
  redis-cli -p "$p" shutdown nosave > /dev/null 2>&1 || true
  wait "$vp" || true
  callgrind_annotate "$d/cg.out" 2> /dev/null \
    | awk -v n="$docs" -v name="$1" -v pipe="$(tail -n 1 "$d/pipe.log")" \
      '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); printf "%s %.0f instructions per document (replay: %s)\n", name, $1 / n, pipe; t = 1}' \
      > "$work/$1.ir"
}
capture "$a" A
capture "$b" B
cmp -s "$work/A.resp" "$work/B.resp" && echo "note: the two streams are identical"
replay A "$work/A.resp" & r1=$!
replay B "$work/B.resp" & r2=$!
wait "$r1" "$r2"
if [ "${AA:-0}" = 1 ]; then replay A2 "$work/A.resp"; fi
cat "$work"/*.ir
ia=$(awk '{print $2}' "$work/A.ir"); ib=$(awk '{print $2}' "$work/B.ir")
echo "B/A instructions per document: $(echo "$ib / $ia" | bc -l | xargs printf '%.4f')"
if [ -f "$work/A2.ir" ]; then
  echo "A2/A (A/A): $(echo "$(awk '{print $2}' "$work/A2.ir") / $ia" | bc -l | xargs printf '%.4f')"
fi
