#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One point of the full-size curve (issue 18, part 1): `neardup serve` (the launcher's flags,
# NEARDUP_JAVA_OPTS=-Xmx4g by default) opens DATA in place, and the script prints the time to
# /ready (wall and the server's CPU seconds), the live heap after a full GC per document (with and
# without the arrays that hold the ids' own bytes, as the goal is "<= 120 B per document plus the
# id"; the ids' mean length beside it; a server that does not report them prints "n/a"), RSS and PSS, the
# data directory's bytes per document (durable files, and the *.tmp sketch files the service
# writes), then the latency of single check-and-inserts and batches of 100 (ServiceProbe, one
# request at a time; a first pass warms the page cache and the JIT, the second is the figure) with
# news texts from QUERIES under new ids ("q-" + id, so none is stored yet), and the second pass's
# singles stage by stage (read, analyse, decide, durable, answer: their mean, p50, p90 and p99 from
# the server's histograms) with the log's fsyncs of the pass (singles and batches: count, mean).
# The server is then killed (SIGKILL), so that it writes no snapshot on the way out: DATA keeps
# its snapshot, and the log holds the probes' few thousand documents, replayed at the next open.
# Use a copy of a directory you want to keep as it is, or RESTORE=1: then the log segments and
# scratch sketch files the run added are deleted once the server is killed, so DATA holds none of
# the run's records and the next run opens what this one did (the snapshot, sketch files and index
# image are only read; an empty log segment the open retired may be gone): for a 50M directory there
# is no room to copy.
# Usage: benchmarks/service-curve.sh DATA JAR BENCHMARKS_JAR QUERIES.jsonl
#   e.g. benchmarks/service-curve.sh /tmp/data1m cli/target/neardup.jar \
#            benchmarks/target/benchmarks.jar news-queries.jsonl
#   env PORT, NEARDUP_JAVA_OPTS (default -Xmx4g; 50M documents need -Xmx10g), SINGLES (1000),
#   BATCHES (100), WARMUP (the warm-up pass's singles, SINGLES by default: with the launcher's JIT
#   thresholds a server still compiles per-request code after a few thousand singles), HISTOGRAM (a file to keep the class histogram at /ready in, and the one once
#   idle in HISTOGRAM.idle), RESTORE (1: none of the run's records left in DATA, see above),
#   CLIENTS (default jdk: the JDK's HttpClient; socket: a plain socket, each request in one
#   write, see SocketPost; several, e.g. "jdk socket jdk socket": the measured pass is run once
#   per entry, in that order, each on queries of its own, each with its stage lines; the warm-up
#   pass uses the first), JFR (a file: a flight recording of the server with the settings in JFC,
#   default profile, several comma-separated, from the warm-up pass to the last, dumped into JFR
#   before the server is killed; with JFC=profile,benchmarks/single-tail.jfc it times each single,
#   for SingleTail).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 4 ] || { echo "usage: $0 DATA JAR BENCHMARKS_JAR QUERIES.jsonl" >&2; exit 2; }
data="$1"
jar="$2"
bench="$3"
queries="$4"
singles="${SINGLES:-1000}"
batches="${BATCHES:-100}"
[ -d "$data" ] || { echo "no data directory $data" >&2; exit 2; }
. "$root/benchmarks/service-lib.sh"
serve_bench_init
if [ -n "${JFR:-}" ]; then
  # Line numbers for samples between safepoints; the recording itself starts after the open and
  # the heap's figures (JFR's buffers are ~170 MB of heap), just before the warm-up pass.
  opts="$opts -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"
fi
. "$root/dist/src/bin/java-defaults.sh"
clients=(${CLIENTS:-jdk})
warmup="${WARMUP:-$singles}"
per_pass=$((singles + batches * 100))
warm_lines=$((warmup + batches * 100))
need=$((warm_lines + ${#clients[@]} * per_pass))
head -n "$need" "$queries" | sed 's/"id":"/"id":"q-/' > "$work/q1.jsonl" # head first: sed | head dies of SIGPIPE under pipefail
[ "$(wc -l < "$work/q1.jsonl")" -eq "$need" ] || { echo "QUERIES needs $need lines" >&2; exit 2; }
head -n "$warm_lines" "$work/q1.jsonl" > "$work/pass-00" # the warm-up, then one pass per client
tail -n +$((warm_lines + 1)) "$work/q1.jsonl" | split -l "$per_pass" -d -a 2 --numeric-suffixes=1 - "$work/pass-"
files_before="$(ls "$data")"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $jar on $data"
# The open reads the heads, the log and the index images, not the sketch files (only a check's
# verification does): those go into the page cache first. Reading the sketches too, as this did,
# takes minutes at 50M and cannot hold them (50M x ~390 B at capacity 96 against 24 GiB shared).
find "$data" -maxdepth 1 -type f ! -name '*.ndsketch' ! -name '*.tmp' -exec cat {} + > /dev/null
serve_open "$jar" "$opts" --data "$data"
cpu=$(server_cpu)
heap=$(live_heap "${HISTOGRAM:-}")
rss=$(server_rss)
pss=$(server_pss)
read -r docs ram < <(collection_stats default)
read -r idbytes idlengths < <(id_stats default)
read -r durable scratch < <(data_bytes "$data")
# The work the open left running at /ready (a background merge of the fingerprint index, say):
# the server's CPU seconds once it stops rising (under 0.2 s in 5 s; at most 3 minutes), and the
# live heap then. A count of work done, which the machine's load does not inflate as it does wall.
for _ in $(seq 36); do
  cpu_before=$(server_cpu)
  sleep 5
  cpu_after=$(server_cpu)
  python3 -c "import sys; sys.exit(0 if $cpu_after - $cpu_before < 0.2 else 1)" && break
done
settled=$(server_cpu)
heap2=$(live_heap "${HISTOGRAM:+$HISTOGRAM.idle}")
echo "$docs documents: /ready in $ready s ($cpu CPU s); live heap after a full GC $((heap / docs)) B/document ($((heap >> 20)) MB; the collection counts $((ram / docs))); RSS $((rss >> 20)) MB, PSS $((pss >> 20)) MB"
if [ "$idbytes" -gt 0 ]; then
  echo "without the ids' bytes ($((idbytes >> 20)) MB of arrays, ids $(python3 -c "print(f'{$idlengths / $docs:.1f}')") bytes long on average): $(((heap - idbytes) / docs)) B/document live heap, $(((ram - idbytes) / docs)) counted"
else
  echo "without the ids' bytes: n/a (this server does not report idArrayBytes)"
fi
echo "settled: $settled server CPU s once idle ($(python3 -c "print(f'{$settled - $cpu:.1f}')") s after /ready, the live-heap GC included); live heap then $((heap2 / docs)) B/document"
echo "disk: $((durable / docs)) B/document in snapshot + log, $((scratch / docs)) B/document in sketch files (*.tmp)"
if [ -n "${JFR:-}" ]; then
  jfc="${JFC:-profile}"
  # shellcheck disable=SC2086 # one settings= per comma-separated file: jcmd takes them so
  jcmd "$pid" JFR.start name=single-tail settings=${jfc//,/ settings=} > /dev/null
fi
java -Xmx512m -Dneardup.probe.client="${clients[0]}" -cp "$bench" org.neardup.benchmarks.ServiceProbe "$url" default "$work/pass-00" "$warmup" "$batches" 100 | sed 's/^/warm-up /'
for i in "${!clients[@]}"; do
  [ "$i" -eq 0 ] || echo "then the same with the ${clients[$i]} client:"
  curl -sf "$url/metrics" > "$work/metrics0.txt"
  java -Xmx512m -Dneardup.probe.client="${clients[$i]}" -cp "$bench" org.neardup.benchmarks.ServiceProbe "$url" default "$(printf '%s/pass-%02d' "$work" $((i + 1)))" "$singles" "$batches" 100
  # Where the second pass's singles spent their time, stage by stage (a server without the single
  # stages prints only the fsyncs).
  curl -sf "$url/metrics" > "$work/metrics1.txt"
  stage_quantiles "$work/metrics0.txt" "$work/metrics1.txt" neardup_single_stage_seconds
done
if [ -n "${JFR:-}" ]; then
  jcmd "$pid" JFR.dump name=single-tail filename="$(realpath -m "$JFR")" > /dev/null
fi
echo "result docs=$docs heap=$heap ram=$ram rss=$rss pss=$pss cpu=$cpu ready=$ready durable=$durable scratch=$scratch idbytes=$idbytes idlengths=$idlengths settled=$settled heap2=$heap2"
if [ "${RESTORE:-0}" = 1 ]; then
  serve_kill
  for f in $(comm -13 <(echo "$files_before" | sort) <(ls "$data" | sort)); do
    case "$f" in log-*.ndlog | sketches-*.tmp) rm -f "${data:?}/$f" ;; esac
  done
fi
