#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Verified check-and-insert through the Redis store of two builds side by side, alternating: DOCS
# short texts (StoreLoad texts: analysed before the clock starts, 16 threads, one process) into a
# fresh collection of the one redis-server (flushed between runs), singles then batches of 100,
# ROUNDS rounds of (A, B) each. Prints per run docs/s, p99 and redis-server's CPU per document, then
# the medians of each jar and B/A (the middle value of an odd number of rounds; of an even number,
# the mean of the two middle ones).
# Usage: BUILD=0 benchmarks/redis-check-vs.sh JAR_A JAR_B [DOCS] [ROUNDS]   (default 100000 3)
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
a="$1"; b="$2"; docs="${3:-100000}"; rounds="${4:-3}"
url="url=redis://127.0.0.1:$port"
med() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m}'; }
for batch in 1 100; do
  ra=(); rb=(); ca=(); cb=()
  for i in $(seq 1 "$rounds"); do
    for side in A B; do
      jar_="$a"; [ "$side" = B ] && jar_="$b"
      redis-cli -p "$port" flushall > /dev/null
      c0=$(rcpu)
      # timeout-ms: on a loaded machine (load 40-57) a Redis call can take over the store's default 5 s,
      # and StoreLoad's process then never exits; timeout ends such a run (printed as failed).
      line=$(timeout 900 java -Xmx3g -cp "$jar_" org.neardup.benchmarks.StoreLoad redis texts "$docs" 16 "$batch" "$url" \
        expire-interval=0 expected-documents="$docs" timeout-ms=60000 2>&1 | grep 'docs/s' || echo failed)
      us=$(echo "1000000 * ($(rcpu) - $c0) / $docs" | bc -l | xargs printf '%.1f')
      rate=$(echo "$line" | sed -n 's/.*batch [0-9]*: \([0-9]*\) docs\/s.*/\1/p')
      mem=$(echo "$line" | sed -n 's/.*used_memory \([0-9.]*\) bytes.*/\1/p')
      echo "batch $batch round $i $side: $(echo "$line" | sed 's/.*batch [0-9]*: //; s/, [0-9]* stored.*//'); redis-server $us us CPU per document; used_memory $mem B per document; load $(cut -d' ' -f1 /proc/loadavg)"
      if [ "$side" = A ]; then ra+=("$rate"); ca+=("$us"); else rb+=("$rate"); cb+=("$us"); fi
    done
  done
  echo "batch $batch median: A $(med "${ra[@]}") docs/s, $(med "${ca[@]}") us; B $(med "${rb[@]}") docs/s, $(med "${cb[@]}") us; B/A docs/s $(echo "$(med "${rb[@]}") / $(med "${ra[@]}")" | bc -l | xargs printf '%.2f'), redis CPU $(echo "$(med "${cb[@]}") / $(med "${ca[@]}")" | bc -l | xargs printf '%.2f')"
done
