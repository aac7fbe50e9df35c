#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The Hamming index of two commits side by side: builds `neardup` from each commit (git archive
# into a temporary directory, `mvn package`, never `install`), then alternates `neardup bench
# index` runs between the two, ROUNDS times each, so the machine's noise falls on both alike.
# Prints one JSON line per run, prefixed by the commit, then on stderr per commit the medians of
# the plain mean and p99 latency, bytes per fingerprint and the mismatches.
#
# Usage: benchmarks/index-layout.sh OLD_COMMIT [NEW_COMMIT] [SIZE] [ROUNDS] [HEAP]
#   defaults: NEW_COMMIT=HEAD SIZE=10000000 ROUNDS=3 HEAP=4g (50M needs about 8g for the old
#   layout: the index, the benchmark's arrays and the bulk load's sort buffers)
# Extra JVM flags: INDEX_JAVA_OPTS (default -XX:+UseParallelGC -XX:+UseTransparentHugePages).
# INDEX_VERIFY: timed queries also checked against a linear scan of all SIZE fingerprints
#   (default 1000 up to 10M, else 10^10 / SIZE: 200 at 50M, so the scan stays ~10^10 compares).
# The 50M figure, one pair: benchmarks/index-layout.sh 046767c HEAD 50000000 1 8g
set -euo pipefail

old=${1:?usage: $0 OLD_COMMIT [NEW_COMMIT] [SIZE] [ROUNDS] [HEAP]}
new=${2:-HEAD}
size=${3:-10000000}
rounds=${4:-3}
heap=${5:-4g}
verify=${INDEX_VERIFY:-$((size <= 10000000 ? 1000 : 10000000000 / size))}
opts=${INDEX_JAVA_OPTS:--XX:+UseParallelGC -XX:+UseTransparentHugePages}
repo=$(cd "$(dirname "$0")/.." && pwd)
# Resolve both once: a commit made while the runs go on must not relabel them.
old=$(git -C "$repo" rev-parse --short "$old")
new=$(git -C "$repo" rev-parse --short "$new")
work=${INDEX_BENCH_DIR:-/tmp/neardup-index-layout}
mkdir -p "$work"

jar_of() { # commit -> path of its cli jar, built once
  local c dir
  c=$(git -C "$repo" rev-parse --short "$1")
  dir="$work/$c"
  if [[ ! -f "$dir/cli/target/neardup.jar" ]]; then
    rm -rf "$dir" && mkdir -p "$dir"
    git -C "$repo" archive "$c" | tar -x -C "$dir"
    (cd "$dir" && mvn -B -ntp -q package -pl cli -am -DskipTests -Dspotless.check.skip=true) >&2
  fi
  echo "$dir/cli/target/neardup.jar"
}

field() { # name json -> the number after "name":
  grep -o "\"$1\":[-0-9.]*" <<<"$2" | head -1 | cut -d: -f2
}

summary=$(mktemp)
old_jar=$(jar_of "$old")
new_jar=$(jar_of "$new")
echo "# $(date -u +%FT%TZ) $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)," \
  "size $size, $rounds rounds, verify $verify, -Xmx$heap $opts" >&2
for ((r = 1; r <= rounds; r++)); do
  for pair in "$old:$old_jar" "$new:$new_jar"; do
    c=${pair%%:*}
    jar=${pair#*:}
    started=$SECONDS
    # shellcheck disable=SC2086
    line=$(java -Xmx"$heap" $opts -cp "$jar" org.neardup.cli.Main bench index \
      --size "$size" --k 3 --add-size 0 --queries 200000 --verify "$verify")
    echo "$c round $r wall $((SECONDS - started))s $line"
    echo "$c $(field query_mean_us "$line") $(field query_p99_us "$line")" \
      "$(field bytes_per_fingerprint "$line") $(field mismatches "$line")" >>"$summary"
  done
done
# The figures that decide the goal (plain mean <= 1 us at <= 24 B/fp, exact), per commit: the
# median over the rounds of the plain mean and of p99, the bytes, and all mismatches summed.
median() { # column -> median of that column of stdin
  cut -d' ' -f"$1" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
for c in "$old" "$new"; do
  rows=$(grep "^$c " "$summary")
  echo "# $c median of $(wc -l <<<"$rows"): query_mean_us $(median 2 <<<"$rows")," \
    "query_p99_us $(median 3 <<<"$rows"), bytes/fp $(median 4 <<<"$rows")," \
    "mismatches $(awk '{ s += $5 } END { print s }' <<<"$rows")" >&2
done
rm -f "$summary"
