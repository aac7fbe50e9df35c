#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Redis store at 10M stored fingerprint-only documents (issue 15): a fresh redis-server on a
# free loopback port (no persistence, on the same cores), DOCS documents imported through the
# store's CollectionTransfer (StoreLoad preload=; ids p0, p1, ...), then check-and-insert of 200,000
# more in batches of 100 and of 20,000 single documents (16 threads) into that collection, Redis
# used_memory per document after each step, and where the memory goes by kind of key
# (redis-memory.py). The collections are created with id-bucket-bits=17 (2^17 id buckets: up to
# ~16M documents at Redis's default of 128 fields per compact hash).
# Usage: benchmarks/redis-10m.sh [DOCS]   (default 10000000; BUILD=0 skips the build, JAR=other jar)
# Takes about DOCS / (import rate) + 1-2 minutes; Redis needs about 1 GB per 10M documents.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
docs="${1:-10000000}"
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
opts=(url="redis://127.0.0.1:$port" expire-interval=0 id-bucket-bits=17 collection=big)
java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad redis fingerprints 200000 16 100 \
  "${opts[@]}" preload="$docs" 2>&1 | grep -E 'preloaded|docs/s'
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad redis fingerprints 20000 16 1 \
  "${opts[@]}" part=0/1 ids=s seed=13 2>&1 | grep -E 'docs/s'
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 benchmarks/redis-memory.py "$port" "$((docs + 220000))"
