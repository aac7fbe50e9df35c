#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Check-and-insert through the Redis store and the embedded store, side by side in one run
# (StoreLoad: documents analysed before the clock starts; 16 threads per process): one document
# per call and batches of 100, one node (one process) and two nodes (two processes on one
# collection, each half the documents), Redis used_memory per stored document, then an import of
# DOCS stored records into Redis through CollectionTransfer (StoreLoad preload=: records made in the
# JVM, what `neardup store import` writes; benchmarks/store-transfer.sh times the whole command). A fresh redis-server on a free loopback port, on the same cores, stopped at the end
# (redis-lib.sh). Each Redis row also says how much CPU redis-server took (it shares the cores with
# the loading JVMs), over the whole row including the JVMs' start and the documents' analysis (a
# second or two): use DOCS of 100,000 or more for a meaningful share; and its CPU and command time
# per document (INFO commandstats). Collections are laid out for DOCS documents
# (expected-documents; LAYOUT='...' replaces that option).
# Usage: benchmarks/redis-store-load.sh [DOCS] [fingerprints|texts]   (default 1000000 fingerprints)
# BUILD=0 skips the build; JAR=path runs another build of benchmarks.jar. Takes DOCS / (a few thousand per second) per row.
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
docs="${1:-1000000}"
kind="${2:-fingerprints}"
read -r -a layout <<< "${LAYOUT:-expected-documents=$docs}"
echo "layout options: ${layout[*]}"
load() { # STORE BATCH [options...]
  java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad "$1" "$kind" "$docs" 16 "$2" "${@:3}" \
    2>&1 | grep -E 'docs/s' || echo "$1 batch $2: failed"
}
url="url=redis://127.0.0.1:$port"
for batch in 1 100; do
  echo "== batch $batch, load $(cut -d' ' -f1 /proc/loadavg)"
  c0=$(rcpu); t0=$(date +%s.%N); per_doc "(reset)" 1 > /dev/null
  load redis "$batch" "$url" expire-interval=0 "${layout[@]}" | sed 's/^/one node: /'
  cpu "one node" "$c0" "$t0"
  per_doc "one node" "$docs"
  name="two$batch"
  c0=$(rcpu); t0=$(date +%s.%N)
  load redis "$batch" "$url" expire-interval=0 "${layout[@]}" collection="$name" part=0/2 | sed 's/^/two nodes, node 0: /' &
  load redis "$batch" "$url" expire-interval=0 "${layout[@]}" collection="$name" part=1/2 | sed 's/^/two nodes, node 1: /'
  wait
  cpu "two nodes" "$c0" "$t0"
  per_doc "two nodes" "$docs"
  echo "two nodes: $(redis-cli -p "$port" hget "neardup:collections" "$name" | cut -d';' -f1 | xargs -I{} redis-cli -p "$port" hget "neardup:{$name:{}}:st" documents) stored"
  redis-cli -p "$port" flushall > /dev/null
  load embedded "$batch" | sed 's/^/embedded: /'
done
echo "== import, load $(cut -d' ' -f1 /proc/loadavg)"
c0=$(rcpu); t0=$(date +%s.%N); per_doc "(reset)" 1 > /dev/null
java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad redis fingerprints 1 1 1 "$url" \
  expire-interval=0 "${layout[@]}" preload="$docs" 2>&1 | grep -E 'preloaded' || echo "import: failed"
cpu "import" "$c0" "$t0"
per_doc "import" "$docs"
