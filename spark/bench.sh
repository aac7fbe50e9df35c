#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Side by side on one machine, in one run: `neardup dedup` and `neardup spark dedup` (local mode,
# all cores) on the same generated corpus, then on the same corpus where 1% of the documents are
# copies of one text (one giant cluster), then the Spark self-join alone on random fingerprints
# per block scheme (ALLPAIRS_FINGERPRINTS 0: not; DOCS 0: only the self-join; GIANT=0 in the
# environment: not the giant-cluster corpus; PLAIN=0: only that one). CPU seconds (user + sys) are printed beside the wall
# times: on a shared, loaded machine they compare far better than wall times. BASE_JAR=JAR in the
# environment runs another build of the Spark job (an older commit's spark/target/neardup-spark.jar)
# right after this one on each corpus, for a ratio measured side by side; SPARK_JAR=JAR runs that
# build instead of this worktree's.
# Usage: spark/bench.sh [DOCS] [WORKDIR] [ALLPAIRS_FINGERPRINTS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs="${1:-200000}"
work="${2:-/tmp/neardup-spark-bench}"
fps="${3:-1000000}"
cores="$(nproc)"
mkdir -p "$work"
cd "$root"

corpus="$work/corpus-$docs.jsonl"
giant="$work/giant-$docs.jsonl"
if [ "$docs" != 0 ] && [ ! -f "$corpus" ]; then
  ./neardup bench generate --docs "$docs" --out "$corpus" >/dev/null
fi
if [ "$docs" != 0 ] && [ ! -f "$giant" ]; then
  # Every 100th document becomes a copy of the first one's text: 1% in one cluster.
  awk 'NR == 1 { t = $0; sub(/^.*"text":/, "", t) }
       NR % 100 == 0 { print "{\"id\":\"giant-" NR "\",\"text\":" t; next } { print }' \
    "$corpus" >"$giant"
fi

# Build both jars first, so that no figure below includes a build.
./neardup --help >/dev/null
./neardup spark dedup --help >/dev/null
echo "machine: $cores cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD)"
inputs=("$corpus" "$giant")
if [ "${GIANT:-1}" = 0 ]; then
  inputs=("$corpus") # GIANT=0: not the 1% giant-cluster corpus
elif [ "${PLAIN:-1}" = 0 ]; then
  inputs=("$giant") # PLAIN=0: only the giant-cluster corpus (for an A/B of it with BASE_JAR)
fi
if [ "$docs" = 0 ]; then
  inputs=() # the self-join alone
fi
declare -A per_doc=() # "dedup|plain" -> CPU seconds per 1000 documents, this build only
for input in "${inputs[@]}"; do
  kind=plain
  if [ "$input" = "$giant" ]; then
    kind=giant
  fi
  bytes="$(stat -c %s "$input")"
  n="$(wc -l <"$input")"
  echo "== $(basename "$input"): $n documents, $((bytes / 1000000)) MB"
  s="$( { /usr/bin/time -f '%e %M %U %S' ./neardup dedup "$input" --out "$work/dedup" --force --json; } 2>"$work/time.txt")"
  read -r wall rss user sys < <(tail -1 "$work/time.txt")
  sec="$(echo "$s" | sed -n 's/.*"seconds":\([0-9.]*\),"documents_per_second".*/\1/p')"
  pairs="$(echo "$s" | sed -n 's/.*"pairs":\([0-9]*\),"seconds".*/\1/p')"
  awk -v b="$bytes" -v n="$n" -v s="$sec" -v w="$wall" -v c="$cores" -v r="$rss" -v p="$pairs" -v u="$user" -v y="$sys" 'BEGIN {
    printf "neardup dedup:       %7.1f s (wall %6.1f s), %8.0f docs/s, %5.2f MB/s per core, %s pairs, peak RSS %.2f GB, CPU %.1f s (%.2f MB per CPU second)\n",
      s, w, n / s, b / s / c / 1e6, p, r / 1e6, u + y, b / (u + y) / 1e6 }'
  per_doc["dedup|$kind"]="$(awk -v n="$n" -v u="$user" -v y="$sys" -v s="$sec" 'BEGIN { printf "%.6f %.6f", (u + y) * 1000 / n, s * 1000 / n }')"
  for jar in "${SPARK_JAR:-}" ${BASE_JAR:-}; do
    label="neardup spark dedup:"
    if [ -n "$jar" ] && [ "$jar" != "${SPARK_JAR:-}" ]; then
      label="spark, BASE_JAR:   "
    fi
    { NEARDUP_SPARK_JAR="$jar" /usr/bin/time -f '%e %M %U %S' ./neardup spark dedup "$input" --out "$work/spark" --force >"$work/spark-summary.json"; } 2>"$work/time.txt"
    read -r wall rss user sys < <(tail -1 "$work/time.txt")
    sec="$(sed -n 's/^  "seconds" : \([0-9.]*\),*/\1/p' "$work/spark-summary.json")"
    pairs="$(sed -n 's/^  "pairs" : \([0-9]*\),*/\1/p' "$work/spark-summary.json")"
    awk -v l="$label" -v b="$bytes" -v n="$n" -v s="$sec" -v w="$wall" -v c="$cores" -v r="$rss" -v p="$pairs" -v u="$user" -v y="$sys" 'BEGIN {
      printf "%s %7.1f s (wall %6.1f s), %8.0f docs/s, %5.2f MB/s per core, %s pairs, peak RSS %.2f GB, CPU %.1f s (%.2f MB per CPU second)\n",
        l, s, w, n / s, b / s / c / 1e6, p, r / 1e6, u + y, b / (u + y) / 1e6 }'
    if [ "$jar" = "${SPARK_JAR:-}" ]; then
      per_doc["spark|$kind"]="$(awk -v n="$n" -v u="$user" -v y="$sys" -v s="$sec" 'BEGIN { printf "%.6f %.6f", (u + y) * 1000 / n, s * 1000 / n }')"
    fi
    grep -A6 '"phase_seconds"\|"shuffle_bytes_written"' "$work/spark-summary.json" | tr -d '\n ' | sed 's/}/}\n/g' | grep -v '^$' | sed 's/^/  spark /'
    # Both must agree, line for line.
    for f in clusters pairs unique duplicates; do
      if ! cmp -s <(sort "$work/dedup/$f.jsonl") <(cat "$work/spark/$f"/part-* | sort); then
        echo "  DIFFERENT: $f" >&2
        exit 1
      fi
    done
    echo "  same clusters, pairs, unique and duplicates: yes"
  done
done

# The figures that decide the goals: Spark against neardup dedup on each corpus, and the giant
# corpus against the plain one per document (job time and CPU; this build, not BASE_JAR).
for kind in plain giant; do
  if [ -n "${per_doc[dedup|$kind]:-}" ] && [ -n "${per_doc[spark|$kind]:-}" ]; then
    read -r dc dt <<<"${per_doc[dedup|$kind]}"
    read -r sc st <<<"${per_doc[spark|$kind]}"
    awk -v k="$kind" -v dc="$dc" -v dt="$dt" -v sc="$sc" -v st="$st" 'BEGIN {
      printf "RATIO %s: spark / dedup = %.2fx by job time, %.2fx by CPU (goal: within 2x)\n", k, st / dt, sc / dc }'
  fi
done
if [ -n "${per_doc[spark|plain]:-}" ] && [ -n "${per_doc[spark|giant]:-}" ]; then
  for tool in dedup spark; do
    read -r pc pt <<<"${per_doc[$tool|plain]}"
    read -r gc gt <<<"${per_doc[$tool|giant]}"
    awk -v t="$tool" -v pc="$pc" -v pt="$pt" -v gc="$gc" -v gt="$gt" 'BEGIN {
      printf "RATIO %s: giant / plain per document = %.2fx by job time, %.2fx by CPU (goal for spark: within ~2x)\n", t, gt / pt, gc / pc }'
  done
fi

if [ "$fps" = 0 ]; then
  exit 0
fi
echo "== all-pairs self-join, $fps random fingerprints, k = 3"
sjar="$root/spark/target/neardup-spark.jar"
./neardup spark dedup --help >/dev/null # builds the jar if it is missing or stale
opens="-XX:+IgnoreUnrecognizedVMOptions"
for pkg in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
    java.util.concurrent java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs \
    sun.security.action sun.util.calendar; do
  opens="$opens --add-opens=java.base/$pkg=ALL-UNNAMED"
done
SPARK_LOCAL_IP=127.0.0.1 java -XX:+UseParallelGC $opens -Dlog4j2.configurationFile="$root/spark/local/log4j2.properties" \
  -cp "$sjar:$(cat "$root/spark/target/spark-classpath.txt")" org.neardup.spark.AllPairsBench \
  "$fps" 3 4:1 5:2 6:3
