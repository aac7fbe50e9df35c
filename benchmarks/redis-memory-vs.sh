#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Redis memory per verified document, two builds side by side on one redis-server (flushed between
# them): DOCS short texts (StoreLoad texts, 30% near-copies, sketches, 6 band keys) checked and
# inserted in batches of 100 into a collection laid out for DOCS (expected-documents), then Redis's
# used_memory per stored document (StoreLoad) and MEMORY USAGE per document by kind of key
# (redis-memory.py: k band keys or band buckets, s sketches, d records, b block keys, ...).
# Memory does not depend on the load of the machine; the rates printed here do.
# KIND=fingerprints: random fingerprints, no verification, instead of texts.
# Usage: BUILD=0 [KIND=fingerprints] benchmarks/redis-memory-vs.sh JAR_A JAR_B [DOCS]   (default 200000)
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
a="$1"; b="$2"; docs="${3:-200000}"; kind="${KIND:-texts}"
url="url=redis://127.0.0.1:$port"
for side in A B; do
  jar_="$a"; [ "$side" = B ] && jar_="$b"
  redis-cli -p "$port" flushall > /dev/null
  echo "== $side: $jar_"
  java -Xmx3g -cp "$jar_" org.neardup.benchmarks.StoreLoad redis "$kind" "$docs" 16 100 "$url" \
    expire-interval=0 expected-documents="$docs" collection=mem 2>&1 | grep 'docs/s' || echo failed
  python3 benchmarks/redis-memory.py "$port" \
    "$(redis-cli -p "$port" hget neardup:collections mem | cut -d';' -f1 \
      | xargs -I{} redis-cli -p "$port" hget 'neardup:{mem:{}}:st' documents)"
done
