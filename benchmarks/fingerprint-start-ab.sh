#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The first fingerprint of builds side by side, as ./neardup runs a jar: this checkout's launcher
# flags for fingerprint (dist/src/bin/java-defaults.sh) and a class-data archive trained for each
# jar (dist/src/bin/cds.sh), one core (taskset -c 0; CORE= another), the builds alternating for
# ROUNDS rounds. Prints each build's median CPU seconds (user + system, /usr/bin/time) and wall,
# every round's CPU, and whether the builds printed the same. On a loaded machine the CPU seconds
# compare better than the walls.
#
#   benchmarks/fingerprint-start-ab.sh ROUNDS INPUT.jsonl DIR...
#
# Each DIR holds a build's neardup.jar (a copy of its cli/target/neardup.jar); the archive is
# written beside it as neardup.jsa when missing or older than the jar. INPUT.jsonl is usually one
# line (the first fingerprint of a one-line input, as fingerprint-vs-baseline.sh measures it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="$1"
input="$(realpath "$2")"
shift 2
dirs=()
for d in "$@"; do
  dirs+=("$(realpath "$d")")
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for d in "${dirs[@]}"; do
  (cd "$root" && . dist/src/bin/cds.sh && neardup_cds_archive "$d/neardup.jsa" "$d/neardup.jar" \
    java -jar "$d/neardup.jar") || echo "no class-data archive for $d; running without" >&2
done
flags="$(cd "$root" && . dist/src/bin/java-defaults.sh && neardup_java_defaults fingerprint)"
for r in $(seq 1 "$rounds"); do
  for i in "${!dirs[@]}"; do
    d="${dirs[$i]}"
    cds=()
    [ -s "$d/neardup.jsa" ] && cds=(-XX:SharedArchiveFile="$d/neardup.jsa" -Xlog:cds=off,cds+dynamic=off)
    # shellcheck disable=SC2086 # the flags are words
    /usr/bin/time -f "%U %S %e" -o "$work/t" taskset -c "${CORE:-0}" java $flags "${cds[@]}" \
      -jar "$d/neardup.jar" fingerprint "$input" >"$work/out.$i"
    read -r user sys wall <"$work/t"
    echo "$(echo "$user + $sys" | bc) $wall" >>"$work/runs.$i"
  done
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
for i in "${!dirs[@]}"; do
  echo "${dirs[$i]}: cpu median $(awk '{print $1}' "$work/runs.$i" | median) s," \
    "wall median $(awk '{print $2}' "$work/runs.$i" | median) s; cpu by round:" \
    "$(awk '{printf "%s ", $1}' "$work/runs.$i")"
done
if [ "$(md5sum "$work"/out.* | awk '{print $1}' | sort -u | wc -l)" = 1 ]; then
  echo "outputs identical"
else
  echo "OUTPUTS DIFFER"
fi
