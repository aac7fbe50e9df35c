#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sizes of the release and its jars, and start times of the command line and of serve (empty store)
# for the repository's ./neardup (one shaded jar) beside the release's bin/neardup (lib/*.jar),
# interleaved, N rounds (default 5). Run after `mvn -pl dist -am package -DskipTests`:
#   dist/start-times.sh [N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-5}"
version="$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root/dist/pom.xml" | head -1)"
tarball="$root/dist/target/neardup-$version.tar.gz"
shaded="$root/cli/target/neardup.jar"
[ -f "$tarball" ] && [ -f "$shaded" ] || { echo "build first: mvn -pl dist -am package -DskipTests" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar xzf "$tarball" -C "$work"
home="$work/neardup-$version"

echo "## sizes (bytes)"
printf '%s\t%s\n' "$(stat -c %s "$tarball")" "$(basename "$tarball")"
printf '%s\t%s\n' "$(stat -c %s "$shaded")" "cli/target/neardup.jar (shaded)"
printf '%s\t%s\n' "$(du -sb "$home/lib" | cut -f1)" "lib/ ($(ls "$home/lib" | wc -l) jars)"
for j in "$home"/lib/*.jar; do printf '%s\t%s\n' "$(stat -c %s "$j")" "lib/$(basename "$j")"; done | sort -rn
for j in "$root"/{core,segment-jieba,client,store-embedded}/target/neardup-*-{sources,javadoc}.jar; do
  [ -f "$j" ] && printf '%s\t%s\n' "$(stat -c %s "$j")" "${j#$root/}"
done

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

# Seconds from launch to the "listening" line of serve on a free port, then SIGTERM.
serve_ms() {
  local data="$work/data-$RANDOM" out="$work/serve.out" t0 pid
  : >"$out"
  t0=$(now)
  NEARDUP_JAVA_OPTS=-Xmx1g "$@" serve --data "$data" --port 0 --collection default >"$out" 2>/dev/null &
  pid=$!
  until grep -q "listening" "$out"; do sleep 0.01; done
  ms "$t0" "$(now)"
  kill -TERM "$pid"; wait "$pid" || true
  rm -rf "$data"
}

echo "## start times (ms), $rounds rounds, interleaved"
for i in $(seq "$rounds"); do
  t0=$(now); "$root/neardup" --help >/dev/null; a=$(ms "$t0" "$(now)")
  t0=$(now); java -Xss4m -jar "$shaded" --help >/dev/null; b=$(ms "$t0" "$(now)")
  t0=$(now); "$home/bin/neardup" --help >/dev/null; c=$(ms "$t0" "$(now)")
  d=$(serve_ms "$root/neardup")
  e=$(serve_ms "$home/bin/neardup")
  echo "round $i: --help ./neardup $a, java -jar neardup.jar $b, bin/neardup $c; serve to ready ./neardup $d, bin/neardup $e"
done
