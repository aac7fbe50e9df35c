#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Group commit on and off, alternated in one run (issue 15, speed): single-document
# check-and-inserts (StoreLoad, 16 threads, one document per call, random fingerprints) into a
# fresh collection each row, with the Redis store's group-commit=true and =false, ROUNDS times
# each; per row docs/s, p50 and p99 per call, and redis-server's CPU and commands per document.
# One fresh redis-server on a free loopback port (redis-lib.sh), flushed between rows.
# Usage: benchmarks/redis-group-commit.sh [DOCS] [ROUNDS]   (default 100000 2; BUILD=0, JAR=...)
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
docs="${1:-100000}"
rounds="${2:-2}"
for r in $(seq "$rounds"); do
  for gc in true false; do
    redis-cli -p "$port" flushall > /dev/null
    per_doc "(reset)" 1 > /dev/null
    echo "== group-commit=$gc, round $r, load $(cut -d' ' -f1 /proc/loadavg)"
    java -Xmx2g -cp "$jar" org.neardup.benchmarks.StoreLoad redis fingerprints "$docs" 16 1 \
      url="redis://127.0.0.1:$port" expire-interval=0 expected-documents="$docs" group-commit="$gc" \
      2>&1 | grep -E 'docs/s' || echo "failed"
    per_doc "group-commit=$gc" "$docs"
  done
done
