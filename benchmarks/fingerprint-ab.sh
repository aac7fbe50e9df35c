#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two builds of `neardup fingerprint` side by side: the whole process on one core (taskset -c 0),
# alternating OLD and NEW for ROUNDS rounds on the same input, each run's wall and CPU seconds
# (user + system of the JVM, /usr/bin/time), the medians, NEW/OLD of the medians, and whether
# the outputs are byte-identical. On a shared machine the CPU seconds compare better than the wall.
# CORE= picks another core than 0.
#
#   benchmarks/fingerprint-ab.sh OLD.jar NEW.jar INPUT.jsonl [ROUNDS]
#
# The jars are shaded CLI jars (cli/target/neardup.jar of each build), run without a class-data
# archive and with the launcher's -Xss4m; NEARDUP_JAVA_OPTS is passed to both, OLD_OPTS and
# NEW_OPTS to one each, so that one jar can also be compared with itself under other JVM flags:
#
#   OLD_OPTS= NEW_OPTS=-XX:TieredStopAtLevel=1 benchmarks/fingerprint-ab.sh J.jar J.jar INPUT 5
set -euo pipefail
old="$(realpath "$1")"
new="$(realpath "$2")"
input="$(realpath "$3")"
rounds="${4:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run() { # JAR TAG ROUND OPTS
  /usr/bin/time -f "%e %U %S" -o "$work/t" taskset -c "${CORE:-0}" java -Xss4m ${NEARDUP_JAVA_OPTS:-} $4 \
    -jar "$1" fingerprint "$input" >"$work/$2.out" 2>"$work/$2.err"
  read -r wall user sys <"$work/t"
  cpu=$(echo "$user + $sys" | bc)
  echo "$cpu" >>"$work/$2.cpu"
  echo "$wall" >>"$work/$2.wall"
  echo "round $3 $2: wall $wall s, cpu $cpu s"
}
for r in $(seq 1 "$rounds"); do
  o=(old "$r" "${OLD_OPTS:-}")
  n=(new "$r" "${NEW_OPTS:-}")
  if ((r % 2)); then run "$old" "${o[@]}"; run "$new" "${n[@]}"; else run "$new" "${n[@]}"; run "$old" "${o[@]}"; fi
  cmp -s "$work/old.out" "$work/new.out" || { echo "OUTPUT DIFFERS in round $r"; exit 1; }
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
for k in cpu wall; do
  o=$(median "$work/old.$k"); n=$(median "$work/new.$k")
  echo "median $k: old $o s, new $n s, new/old $(echo "scale=3; $n / $o" | bc)"
done
echo "outputs byte-identical ($(wc -l <"$work/new.out") lines)"
