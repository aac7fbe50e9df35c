#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Redis store at 10M stored fingerprint-only documents (issue 15), or at DOCS: a fresh
# redis-server on a free loopback port (no persistence, on the same cores; redis-lib.sh), DOCS
# documents imported through the store's CollectionTransfer (StoreLoad preload=; ids p0, p1, ...),
# then check-and-insert of 200,000 more in batches of 100 and of 20,000 single documents (16
# threads) into that collection, Redis used_memory per document after each step, redis-server's CPU
# per document of each step, and where the memory goes by kind of key (redis-memory.py). The
# collection is laid out for its size (expected-documents=DOCS + 220,000: at 10M, 2^17 id buckets
# and 16-bit block keys; at 1M, 2^14 and 14-bit; see the store's Layout); LAYOUT='...' replaces
# that option, e.g. LAYOUT='id-bucket-bits=16 block-key-bits=16' for the default layout.
# Usage: benchmarks/redis-10m.sh [DOCS]   (default 10000000; BUILD=0 skips the build, JAR=other jar)
# Takes about DOCS / (import rate) + 1-2 minutes; Redis needs about 1 GB per 10M documents.
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
docs="${1:-10000000}"
read -r -a layout <<< "${LAYOUT:-expected-documents=$((docs + 220000))}"
echo "layout options: ${layout[*]}"
opts=(url="redis://127.0.0.1:$port" expire-interval=0 "${layout[@]}" collection=big)
java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad redis fingerprints 200000 16 100 \
  "${opts[@]}" preload="$docs" 2>&1 | grep -E 'preloaded|docs/s'
per_doc "import and batches" "$((docs + 200000))"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx3g -cp "$jar" org.neardup.benchmarks.StoreLoad redis fingerprints 20000 16 1 \
  "${opts[@]}" part=0/1 ids=s seed=13 2>&1 | grep -E 'docs/s'
per_doc "singles" 20000
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 benchmarks/redis-memory.py "$port" "$((docs + 220000))"
