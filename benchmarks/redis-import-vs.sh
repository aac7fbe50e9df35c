#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Import rate into Redis of two builds side by side, alternating: DOCS fingerprint-only records made
# in the JVM and written through CollectionTransfer (StoreLoad preload=, what `neardup store import`
# writes), into a fresh collection of the one redis-server (flushed between runs), ROUNDS rounds of
# (A, B). Prints per run the rate, redis-server's CPU per record and the importing JVM's CPU per
# record, then the median rate of each jar and B/A.
# Usage: BUILD=0 benchmarks/redis-import-vs.sh JAR_A JAR_B [DOCS] [ROUNDS]   (default 1000000 3)
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
a="$1"; b="$2"; docs="${3:-1000000}"; rounds="${4:-3}"
url="url=redis://127.0.0.1:$port"
run() { # JAR -> prints "rate redis_us jvm_us"
  redis-cli -p "$port" flushall > /dev/null
  local c0 out
  c0=$(rcpu)
  out=$( { /usr/bin/time -f 'jvmcpu %U %S' java -Xmx1g -cp "$1" org.neardup.benchmarks.StoreLoad redis fingerprints 1 1 1 \
    "$url" expire-interval=0 expected-documents="$docs" preload="$docs"; } 2>&1 | grep -E 'preloaded|jvmcpu')
  local rate jvm
  rate=$(echo "$out" | sed -n 's/.*(\([0-9]*\) docs\/s).*/\1/p')
  jvm=$(echo "$out" | awk '/jvmcpu/ {printf "%.2f", 1000000 * ($2 + $3) / '"$docs"'}')
  echo "$rate $(echo "1000000 * ($(rcpu) - $c0) / $docs" | bc -l | xargs printf '%.2f') $jvm"
}
ra=(); rb=()
for i in $(seq 1 "$rounds"); do
  for side in A B; do
    jar_="$a"; [ "$side" = B ] && jar_="$b"
    read -r rate rus jus <<< "$(run "$jar_")"
    echo "round $i $side: $rate records/s, redis-server $rus us CPU per record, importing JVM $jus us CPU per record (whole process), load $(cut -d' ' -f1 /proc/loadavg)"
    if [ "$side" = A ]; then ra+=("$rate"); else rb+=("$rate"); fi
  done
done
med() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ma=$(med "${ra[@]}"); mb=$(med "${rb[@]}")
echo "median: A $ma records/s, B $mb records/s, B/A $(echo "$mb / $ma" | bc -l | xargs printf '%.2f')"
