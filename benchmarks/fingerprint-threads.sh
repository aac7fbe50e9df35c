#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where the CPU of one `neardup fingerprint` process goes, by thread: the workers (reading JSON and
# the analysis), the main thread (start-up, reading lines, output), C1 and C2 compiling, the VM
# thread (the serial collector on one core). Runs the jar on one core (taskset -c 0; CORE= another) and polls
# /proc every 0.1 s, keeping each thread's last CPU time (user + system), so a thread that ends
# before the last poll loses at most 0.1 s.
#
#   benchmarks/fingerprint-threads.sh JAR INPUT.jsonl [JVM OPTIONS...]
#
# e.g. the defaults against the launcher's fingerprint flags (dist/src/bin/java-defaults.sh):
#   benchmarks/fingerprint-threads.sh cli/target/neardup.jar zh.jsonl
#   benchmarks/fingerprint-threads.sh cli/target/neardup.jar zh.jsonl -XX:InlineSmallCode=1000
set -euo pipefail
jar="$1"
input="$2"
shift 2
snap="$(mktemp)"
trap 'rm -f "$snap"' EXIT
taskset -c "${CORE:-0}" java -Xss4m "$@" -jar "$jar" fingerprint "$input" >/dev/null 2>&1 &
pid=$!
hz="$(getconf CLK_TCK)"
while kill -0 "$pid" 2>/dev/null; do
  for t in /proc/"$pid"/task/*; do
    name="$(cat "$t/comm" 2>/dev/null)" || continue
    ticks="$(awk '{ print $14 + $15 }' "$t/stat" 2>/dev/null)" || continue
    echo "${t##*/}|$name|$ticks" >>"$snap"
  done
  sleep 0.1
done
wait "$pid" || { echo "fingerprint-threads: the run failed" >&2; exit 1; }
# Threads of one kind (C2 CompilerThread0, 1, ...) are summed under one name.
awk -F'|' -v hz="$hz" '
  { if ($3 >= last[$1]) { last[$1] = $3; name[$1] = $2 } }
  END {
    for (t in last) { n = name[t]; sub(/[0-9]+$/, "", n); cpu[n] += last[t]; total += last[t] }
    for (n in cpu) if (cpu[n] > 0) printf "%7.2f s  %s\n", cpu[n] / hz, n
    printf "%7.2f s  %s\n", total / hz, "total"
  }' "$snap" | sort -nr
