#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Check-and-insert through the Redis store and the embedded store, side by side in one run
# (StoreLoad: documents analysed before the clock starts; 16 threads per process): one document
# per call and batches of 100, one node (one process) and two nodes (two processes on one
# collection, each half the documents), and Redis used_memory per stored document. A fresh
# redis-server on a free loopback port, on the same cores, stopped at the end. Each Redis row also
# says how much CPU redis-server took (it shares the cores with the loading JVMs), over the whole
# row including the JVMs' start and the documents' analysis (a second or two): use DOCS of 100,000
# or more for a meaningful share.
# Usage: benchmarks/redis-store-load.sh [DOCS] [fingerprints|texts]   (default 1000000 fingerprints)
# BUILD=0 skips the build; JAR=path runs another build of benchmarks.jar. Takes DOCS / (a few thousand per second) per row.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
docs="${1:-1000000}"
kind="${2:-fingerprints}"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --pidfile "$work/redis.pid" --logfile "$work/redis.log"
cleanup() {
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
[ "${BUILD:-1}" = 0 ] || mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl benchmarks -am package
jar="${JAR:-benchmarks/target/benchmarks.jar}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD); redis-server $(redis-server --version | cut -d' ' -f3)"
load() { # STORE BATCH [options...]
  java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad "$1" "$kind" "$docs" 16 "$2" "${@:3}" \
    2>&1 | grep 'docs/s' || echo "$1 batch $2: failed"
}
# redis-server's CPU seconds (user + sys, all threads) so far.
rcpu() { redis-cli -p "$port" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ {s += $2} END {printf "%.2f", s}'; }
# cpu TAG CPU0 T0: what fraction of the machine's cores redis-server used since T0.
cpu() {
  local c1 t1
  c1=$(rcpu); t1=$(date +%s.%N)
  echo "$1: redis-server used $(echo "$c1 - $2" | bc) s of CPU in $(printf '%.1f' "$(echo "$t1 - $3" | bc)") s" \
    "($(printf '%.0f' "$(echo "100 * ($c1 - $2) / ($t1 - $3) / $(nproc)" | bc -l)")% of the $(nproc) cores)"
}
url="url=redis://127.0.0.1:$port"
for batch in 1 100; do
  echo "== batch $batch, load $(cut -d' ' -f1 /proc/loadavg)"
  c0=$(rcpu); t0=$(date +%s.%N)
  load redis "$batch" "$url" expire-interval=0 | sed 's/^/one node: /'
  cpu "one node" "$c0" "$t0"
  name="two$batch"
  c0=$(rcpu); t0=$(date +%s.%N)
  load redis "$batch" "$url" expire-interval=0 collection="$name" part=0/2 | sed 's/^/two nodes, node 0: /' &
  load redis "$batch" "$url" expire-interval=0 collection="$name" part=1/2 | sed 's/^/two nodes, node 1: /'
  wait
  cpu "two nodes" "$c0" "$t0"
  echo "two nodes: $(redis-cli -p "$port" hget "neardup:collections" "$name" | cut -d';' -f1 | xargs -I{} redis-cli -p "$port" hget "neardup:{$name:{}}:st" documents) stored"
  redis-cli -p "$port" flushall > /dev/null
  load embedded "$batch" | sed 's/^/embedded: /'
done
