#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where Redis's time goes per verified document, two builds one after the other on one
# redis-server (flushed and its command stats reset between them): DOCS short texts (StoreLoad
# texts, 16 threads, BATCH per call) into a collection laid out for DOCS, then INFO commandstats:
# calls and microseconds per document of each command (EVALSHA: the fetch and commit scripts, their
# inner calls counted again under their own names; MGET: one per probe of a document, so MGET
# calls per document = probes per document, retries included).
# Usage: BUILD=0 benchmarks/redis-commit-cost.sh JAR_A JAR_B [DOCS] [BATCH]   (default 20000 100)
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
a="$1"; b="$2"; docs="${3:-20000}"; batch="${4:-100}"
url="url=redis://127.0.0.1:$port"
for side in A B; do
  jar_="$a"; [ "$side" = B ] && jar_="$b"
  redis-cli -p "$port" flushall > /dev/null
  redis-cli -p "$port" config resetstat > /dev/null
  echo "== $side: $jar_, load $(cut -d' ' -f1 /proc/loadavg)"
  java -Xmx2g -cp "$jar_" org.neardup.benchmarks.StoreLoad redis texts "$docs" 16 "$batch" "$url" \
    expire-interval=0 expected-documents="$docs" 2>&1 | grep 'docs/s' || echo failed
  redis-cli -p "$port" info commandstats | tr -d '\r' \
    | sed -n 's/^cmdstat_\([a-z|]*\):calls=\([0-9]*\),usec=\([0-9]*\),.*/\1 \2 \3/p' \
    | awk -v n="$docs" '$1 != "info" && $1 != "config|resetstat" && $1 != "flushall" {printf "%s %.2f calls %.1f us per document\n", $1, $2 / n, $3 / n}'
done
