#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two builds of the service side by side on the same data directory (issue 18, part 1): for each
# round and each jar in turn, a fresh copy of DATA is opened with `neardup serve` (the launcher's
# flags, NEARDUP_JAVA_OPTS=-Xmx4g by default), and the script prints the time to /ready (wall and
# the server's CPU seconds), the live heap after a full GC (jcmd GC.class_histogram), the
# collections' own ramBytes, RSS and the documents stored. Alternating the jars in one run is what
# makes the ratios comparable on a busy machine; heap figures do not depend on the load, times do.
# Usage: benchmarks/service-open.sh DATA JAR_A JAR_B [ROUNDS]
#   e.g. benchmarks/service-open.sh /tmp/w/data /tmp/main/neardup.jar cli/target/neardup.jar 2
#   DATA is an embedded data directory, e.g. the one service-news.sh leaves in WORK=dir.
#   env PORT, NEARDUP_JAVA_OPTS (default -Xmx4g), COPY (where the copies go; default a temp dir),
#   HISTOGRAMS (a directory to keep each open's class histogram in, to see what the heap holds),
#   DATA_B (the directory JAR_B opens instead of DATA: the same documents in its own format, e.g.
#   made by `java -cp JAR_B org.neardup.store.embedded.Checkpoint COPY_OF_DATA`; JAR_A opens DATA).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 3 ] || { echo "usage: $0 DATA JAR_A JAR_B [ROUNDS]" >&2; exit 2; }
data="$1"
data_b="${DATA_B:-$1}"
jars=("$2" "$3")
rounds="${4:-2}"
for tool in jcmd curl python3; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
[ -d "$data" ] || { echo "no data directory $data" >&2; exit 2; }
[ -d "$data_b" ] || { echo "no data directory $data_b" >&2; exit 2; }
port="${PORT:-$((20000 + RANDOM % 20000))}"
url="http://127.0.0.1:$port"
opts="${NEARDUP_JAVA_OPTS:--Xmx4g}"
copy="${COPY:-$(mktemp -d)}"
work="$copy"
. "$root/benchmarks/service-lib.sh"
cleanup() {
  serve_stop
  rm -rf "$copy/data"
  [ -n "${COPY:-}" ] || rm -rf "$copy"
}
trap cleanup EXIT
. "$root/dist/src/bin/java-defaults.sh"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); data $(du -sb "$data" | cut -f1) bytes, for JAR_B $(du -sb "$data_b" | cut -f1) bytes"
for round in $(seq 1 "$rounds"); do
  for j in 0 1; do
    jar="${jars[$j]}"
    src="$data"
    [ "$j" = 0 ] || src="$data_b"
    rm -rf "$copy/data"
    cp -a "$src" "$copy/data"
    # Read once untimed, so both jars open from a warm page cache (a cold one measures the disk).
    cat "$copy/data"/* > /dev/null
    serve_open "$jar" "$opts" --data "$copy/data"
    # CPU seconds the server spent until /ready (user + system, all threads): on a shared machine
    # this compares two builds where the wall time mostly measures the load.
    cpu=$(server_cpu)
    keep=""
    if [ -n "${HISTOGRAMS:-}" ]; then
      mkdir -p "$HISTOGRAMS"
      keep="$HISTOGRAMS/round$round-jar$j.txt"
    fi
    heap=$(live_heap "$keep")
    rss=$(server_rss)
    read -r docs ram < <(collection_stats)
    echo "round $round, $(basename "$(dirname "$jar")")/$(basename "$jar"): /ready in $ready s ($cpu CPU s); $docs documents; live heap $((heap / docs)) B/document ($((heap >> 20)) MB), collections' ramBytes $((ram / docs)) B/document, RSS $((rss >> 20)) MB"
    # One line a script can read (service-slope.sh): the jar's index, its figures in bytes and s.
    echo "result jar=$j docs=$docs heap=$heap ram=$ram rss=$rss cpu=$cpu ready=$ready"
    serve_stop
  done
done
