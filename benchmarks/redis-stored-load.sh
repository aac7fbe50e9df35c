#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Verified check-and-insert against a large stored collection, Redis beside the embedded store
# (issue 15's "1M and 10M stored" figures). STORED verified documents are preloaded by import
# (StoreLoad preload=: random fingerprints and band keys, real sketches; the fast way to reach 1M),
# then DOCS generated short texts (analysed before the clock starts, 16 threads per process) are
# checked and inserted: singles on one node, singles on two nodes (two processes, half each),
# batches of 100 on one node, then on two nodes. The Redis rows share one preloaded collection, each
# row with new documents (the collection grows by DOCS per row: STORED to STORED + 4 x DOCS). The
# embedded store, beside, preloads STORED into its own process for singles and again for batches.
# Prints each row's docs/s and p99, redis-server's CPU per document, used_memory per document, and
# at the end one line per row with the Redis / embedded ratio. A fresh redis-server on a free
# loopback port (no persistence, same cores), stopped at the end (redis-lib.sh).
# Usage: benchmarks/redis-stored-load.sh [STORED] [DOCS]   (default 1000000 100000)
# BUILD=0 skips the build; JAR=path runs another build of benchmarks.jar. ~4 min quiet at the default.
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
stored="${1:-1000000}"
docs="${2:-100000}"
url="url=redis://127.0.0.1:$port"
opts=(expire-interval=0 expected-documents="$((stored + 4 * docs))" collection=big)
run() { # TAG STORE BATCH [options...]
  java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad "$2" texts "$docs" 16 "$3" "${@:4}" \
    2>&1 | grep -E 'docs/s' | sed "s/^/$1: /" || echo "$1: failed"
}
rate() { sed -n 's/.*batch [0-9]*: \([0-9]*\) docs\/s.*/\1/p' | paste -sd+ | bc; }
echo "== preload $stored verified documents into redis, load $(cut -d' ' -f1 /proc/loadavg)"
c0=$(rcpu); t0=$(date +%s.%N); per_doc "(reset)" 1 > /dev/null
java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad redis texts 0 1 1 "$url" "${opts[@]}" \
  preload="$stored" 2>&1 | grep -E 'preloaded' || echo "preload: failed"
cpu "preload" "$c0" "$t0"
per_doc "preload" "$stored" > /dev/null
declare -A got
for batch in 1 100; do
  echo "== batch $batch, one node, load $(cut -d' ' -f1 /proc/loadavg)"
  c0=$(rcpu); t0=$(date +%s.%N)
  out=$(run "one node" redis "$batch" "$url" "${opts[@]}" ids="a$batch" seed="$((20 + batch))")
  echo "$out"; got[redis1_$batch]=$(echo "$out" | rate)
  cpu "one node" "$c0" "$t0"; per_doc "one node" "$docs"
  echo "== batch $batch, two nodes, load $(cut -d' ' -f1 /proc/loadavg)"
  c0=$(rcpu); t0=$(date +%s.%N)
  out=$( (run "two nodes, node 0" redis "$batch" "$url" "${opts[@]}" ids="b$batch" seed="$((40 + batch))" part=0/2 &
    run "two nodes, node 1" redis "$batch" "$url" "${opts[@]}" ids="b$batch" seed="$((40 + batch))" part=1/2; wait) )
  echo "$out"; got[redis2_$batch]=$(echo "$out" | rate)
  cpu "two nodes" "$c0" "$t0"; per_doc "two nodes" "$docs"
  echo "stored now: $(redis-cli -p "$port" hget neardup:collections big | cut -d';' -f1 \
    | xargs -I{} redis-cli -p "$port" hget 'neardup:{big:{}}:st' documents)"
done
echo "redis used_memory: $(redis-cli -p "$port" info memory | tr -d '\r' | sed -n 's/^used_memory_human://p')"
redis-cli -p "$port" flushall > /dev/null
for batch in 1 100; do
  echo "== embedded, batch $batch, $stored preloaded, load $(cut -d' ' -f1 /proc/loadavg)"
  out=$(java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad embedded texts "$docs" 16 "$batch" \
    preload="$stored" 2>&1 | grep -E 'docs/s|preloaded' || echo "embedded: failed")
  echo "$out"; got[embedded_$batch]=$(echo "$out" | grep 'docs/s' | rate)
done
for batch in 1 100; do
  e=${got[embedded_$batch]:-0}
  for nodes in 1 2; do
    r=${got[redis${nodes}_$batch]:-0}
    echo "summary: batch $batch, $nodes node(s), $stored+ stored: redis $r docs/s, embedded $e docs/s," \
      "redis/embedded $( [ "$e" -gt 0 ] && echo "$r / $e" | bc -l | xargs printf '%.2f' || echo '?')"
  done
done
