#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# neardup store export / import rates (issue 15 part 5, issue 19 part 3): a collection of DOCS
# fingerprint-only documents and one of TEXTS verified documents (with sketches and band keys) are
# written into an embedded data directory (BulkLoad), then moved embedded -> file -> Redis, Redis ->
# file and file -> embedded, and embedded -> Redis through a pipe (both JVMs at once). Each step
# prints documents/s, wall seconds and peak RSS. The Redis legs run with a small heap (-Xmx HEAP,
# default 96m) to show they stream: their memory does not grow with the collection. redis-server
# (Debian package) runs on a free loopback port in the work directory, without persistence.
# Usage: benchmarks/store-transfer.sh [DOCS] [TEXTS]
#   env WORK=dir (default: a temporary directory, removed at the end), HEAP=96m
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs="${1:-1000000}"
texts="${2:-200000}"
heap="${HEAP:-96m}"
command -v redis-server >/dev/null || { echo "needs redis-server: apt-get install redis-server" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time: apt-get install time" >&2; exit 1; }
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
  --logfile "$work/redis.log" --daemonize no &
redis_pid=$!
cleanup() {
  kill "$redis_pid" 2>/dev/null || true
  wait "$redis_pid" 2>/dev/null || true
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

(cd "$root" && mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli -am package)
jar="$root/cli/target/neardup.jar"
url="redis://127.0.0.1:$port"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(cd "$root" && git rev-parse --short HEAD)$(cd "$root" && git diff --quiet || echo '+changes'), redis: $(redis-server --version | cut -d' ' -f3)"

# step NAME DOCUMENTS XMX ARGS...: runs neardup store ARGS, prints the rate, wall time and peak RSS.
step() {
  local name="$1" n="$2" xmx="$3"
  shift 3
  /usr/bin/time -f "%e %M" -o "$work/time" java -Xmx"$xmx" -jar "$jar" store "$@" --quiet 2>"$work/err" \
    || { cat "$work/err" >&2; exit 1; }
  read -r wall rss <"$work/time"
  printf '%-34s %9d docs %7.1f s %10.0f docs/s  peak RSS %5d MB  (-Xmx%s)\n' \
    "$name" "$n" "$wall" "$(echo "$n / $wall" | bc -l)" $((rss / 1024)) "$xmx"
}

for kind in fingerprints text; do
  if [ "$kind" = fingerprints ]; then n=$docs; else n=$texts; fi
  [ "$n" -gt 0 ] || continue
  data="$work/$kind"
  rm -rf "$data" "$work/back-$kind"
  java -Xmx4g -cp "$jar" org.neardup.store.embedded.BulkLoad "$data" c "$n" "$kind" >/dev/null
  echo "--- $n documents, $kind ($(du -sm "$data" | cut -f1) MB snapshot)"
  step "export embedded -> file" "$n" 4g export --data "$data" c --out "$work/$kind.ndump"
  echo "    dump: $(( $(stat -c %s "$work/$kind.ndump") / 1000000 )) MB"
  step "import file -> redis" "$n" "$heap" import --store redis --store-option url="$url" \
    --store-option prefix="$kind" --in "$work/$kind.ndump"
  echo "    redis used_memory: $(redis-cli -p "$port" info memory | grep '^used_memory:' | cut -d: -f2 | tr -d '\r') bytes"
  step "export redis -> file" "$n" "$heap" export --store redis --store-option url="$url" \
    --store-option prefix="$kind" c --out "$work/$kind-redis.ndump"
  step "import file -> embedded" "$n" 4g import --data "$work/back-$kind" --in "$work/$kind-redis.ndump"
  # Both JVMs at once on the same cores, as a user moving a collection in one line would run them.
  t0=$(date +%s.%N)
  java -Xmx4g -jar "$jar" store export --data "$data" c --out - --quiet 2>"$work/err1" \
    | java -Xmx"$heap" -jar "$jar" store import --store redis --store-option url="$url" \
        --store-option prefix="$kind-pipe" --in - --quiet 2>"$work/err2" \
    || { cat "$work/err1" "$work/err2" >&2; exit 1; }
  t1=$(date +%s.%N)
  printf '%-34s %9d docs %7.1f s %10.0f docs/s\n' "embedded -> redis (one pipe)" "$n" \
    "$(echo "$t1 - $t0" | bc -l)" "$(echo "$n / ($t1 - $t0)" | bc -l)"
  redis-cli -p "$port" flushall >/dev/null
done
