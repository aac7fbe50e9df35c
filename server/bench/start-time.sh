#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How long `serve` takes from the java command to its listening line on an empty data directory,
# by heap size, with the launcher's flags (ZGC, initial heap = maximum) and with a heap that starts
# small (-Xms64m). Usage: server/bench/start-time.sh [HEAPS, "1g 2g 4g"] [RUNS, 3]
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -ntp -q -pl server -am compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=runtime
cp="$(cat server/target/bench-classpath.txt):server/target/classes"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for heap in ${1:-1g 2g 4g}; do
  for initial in "$heap" 64m; do
    for run in $(seq "${2:-3}"); do
      rm -rf "$work/data"
      out="$work/out-$heap-$initial-$run"
      t0=$(date +%s.%N)
      java -XX:+UseZGC -Xms"$initial" -Xmx"$heap" -XX:+UseTransparentHugePages -cp "$cp" \
        org.neardup.server.Main --data "$work/data" --port 0 >"$out" 2>/dev/null &
      pid=$!
      until grep -q "listening" "$out" 2>/dev/null; do sleep 0.02; done
      t1=$(date +%s.%N)
      kill "$pid"
      wait "$pid" || true
      printf 'heap %-4s initial %-4s run %d: listening after %.2f s (%s)\n' "$heap" "$initial" "$run" \
        "$(echo "$t1 - $t0" | bc)" "$(grep -o 'ready in [0-9.]* s' "$out")"
    done
  done
done
