#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bytes allocated by each thread of one `neardup fingerprint` process: a count that does not
# depend on the machine's load, to back a CPU figure taken on a busy machine. Runs the jar on one
# core (taskset -c 0) with the launcher's fingerprint flags and a JFR recording of
# jdk.ThreadAllocationStatistics only, every 100 ms (a thread that ends loses at most its last
# 100 ms), and prints the largest threads' totals.
#
#   benchmarks/fingerprint-alloc.sh JAR INPUT.jsonl [JVM OPTIONS...]
#
# e.g. the session's start against this build on the same input:
#   benchmarks/fingerprint-alloc.sh /work/s12/base/cli/target/neardup.jar zh.jsonl
#   benchmarks/fingerprint-alloc.sh cli/target/neardup.jar zh.jsonl
set -euo pipefail
jar="$1"
input="$2"
shift 2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/alloc.jfc" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ThreadAllocationStatistics">
    <setting name="enabled">true</setting>
    <setting name="period">100 ms</setting>
  </event>
</configuration>
EOF
taskset -c 0 java -Xss4m -XX:InlineSmallCode=1000 -XX:Tier4BackEdgeThreshold=1000000 "$@" \
  -XX:StartFlightRecording=filename="$work/a.jfr",settings="$work/alloc.jfc" \
  -jar "$jar" fingerprint "$input" >/dev/null 2>"$work/err" ||
  { cat "$work/err" >&2; echo "fingerprint-alloc: the run failed" >&2; exit 1; }
jfr print --events jdk.ThreadAllocationStatistics "$work/a.jfr" | python3 -c '
import re, sys
last = {}
for e in sys.stdin.read().split("jdk.ThreadAllocationStatistics")[1:]:
    a = re.search(r"allocated = ([\d.]+) (\w+)", e)
    t = re.search(r"thread = \"([^\"]+)\"", e)
    if a and t:
        v = float(a.group(1)) * {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}.get(a.group(2), 1)
        last[t.group(1)] = max(last.get(t.group(1), 0), v)
for name, v in sorted(last.items(), key=lambda x: -x[1]):
    if v >= 1e6:
        print(f"{v / 1e6:9.1f} MB  {name}")
print(f"{sum(last.values()) / 1e6:9.1f} MB  all threads")
'
