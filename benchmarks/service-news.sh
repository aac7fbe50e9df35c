#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The service at news length, as a user runs it (issue 18, part 1): DOCS news-length articles and
# reposts (NewsCorpus: dev-set texts joined to 1,500-3,000 characters, zh and en, 40% reposts
# mutated 1-5%) sent with `neardup send --batch 500` to `neardup serve` with its defaults and
# NEARDUP_JAVA_OPTS=-Xmx4g; then heap after a full GC (jcmd), RSS, disk bytes per document, the
# latency of single check-and-inserts and of batches of 100 (ServiceProbe, one request at a time,
# page cache warm), and the time a restart takes to answer /ready. Beside it, the rate at which
# `neardup dedup` reads and analyses the same texts on the same cores, and (FP=1, the default) the
# same figures for fingerprint-only requests: `neardup fingerprint` of the same texts sent to a
# collection `fp` that does not verify, in the same server, so verified and fingerprint-only rows
# come from one run (issue 18's figure rows).
# Usage: benchmarks/service-news.sh [DOCS] [STORE_OPTION...]
#   e.g. benchmarks/service-news.sh 200000                 (sketches in files, the default)
#        benchmarks/service-news.sh 200000 sketches=heap    (sketches on the heap, as before)
#   env WORK=dir (default: a temporary directory, removed at the end), LOAD=send|bulk (bulk: the
#   data directory is built offline by NewsLoad instead of sent), SKIP_DEDUP=1, PORT,
#   MIN=150 MAX=250 (text length in characters; default 1500-3000, news length), SEND_BATCH (500),
#   SEND_IN_FLIGHT (2, `neardup send`'s default: ordered), FP=0 (no fingerprint-only rows), HEAP
#   (the server's -Xmx, 4g).
# Run a copy of this script when editing the tree during a run: bash reads a script as it goes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs="${1:-200000}"
shift $(( $# < 1 ? $# : 1 ))
options=()
for o in "$@"; do options+=(--store-option "$o"); done
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
load="${LOAD:-send}"
port="${PORT:-$((20000 + RANDOM % 20000))}"
url="http://127.0.0.1:$port"
queries=$((2000 + 200 * 100))
min="${MIN:-1500}"
max="${MAX:-3000}"
send_batch="${SEND_BATCH:-500}"
in_flight="${SEND_IN_FLIGHT:-2}"
[ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
for tool in jcmd curl; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
work="${WORK:-$(mktemp -d)}"
. "$root/benchmarks/service-lib.sh"
cleanup() {
  serve_stop
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work"
[ -n "${NO_BUILD:-}" ] || (cd "$root" && mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli,benchmarks -am package)
# Copies of the jars: the ./neardup launcher rebuilds its jar when sources change, which must not
# happen in the middle of a run. The flags are the launcher's (dist/src/bin/java-defaults.sh).
cp "$root/cli/target/neardup.jar" "$work/neardup.jar"
cp "$root/benchmarks/target/benchmarks.jar" "$work/benchmarks.jar"
. "$root/dist/src/bin/java-defaults.sh"
neardup() {
  # shellcheck disable=SC2046
  java $(neardup_java_defaults "$1") ${NEARDUP_JAVA_OPTS:-} -jar "$work/neardup.jar" "$@"
}
bench=(java -Xmx4g -cp "$work/benchmarks.jar")
corpus="$work/news-$((docs + queries))-$min-$max.jsonl"
[ -f "$corpus" ] || "${bench[@]}" org.neardup.benchmarks.NewsCorpus "$base" $((docs + queries)) "$corpus" 20261124 "$min" "$max"
# The stored part, and the rest as queries: reposts of stored articles, so checks find duplicates.
head -n "$docs" "$corpus" > "$work/load.jsonl"
tail -n "$queries" "$corpus" > "$work/queries.jsonl"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(cd "$root" && git rev-parse --short HEAD)"
echo "corpus: $docs documents of $min-$max characters, $(( $(stat -c %s "$work/load.jsonl") / docs )) bytes of JSON each; store options: ${*:-none}"

if [ -z "${SKIP_DEDUP:-}" ]; then
  rm -rf "$work/dedup"
  NEARDUP_JAVA_OPTS=-Xmx4g neardup dedup "$work/load.jsonl" --out "$work/dedup" --quiet --json > "$work/dedup.json"
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); a = d["phase_seconds"]["read_and_analyse"]
print("neardup dedup: read and analyse %.1f s = %.0f documents/s; whole run %d documents/s" % (a, n / a, d["documents_per_second"]))' "$work/dedup.json" "$docs"
fi

serve() { serve_start "$work/neardup.jar" "${HEAP:-4g}" --data "$work/data" "${options[@]}"; }
stop() { serve_stop; }

rm -rf "$work/data"
if [ "$load" = bulk ]; then
  t0=$(date +%s.%N)
  "${bench[@]}" org.neardup.benchmarks.NewsLoad "$work/data" default "$work/load.jsonl" "$@"
  echo "offline load: $(echo "$(date +%s.%N) - $t0" | bc) s"
fi
serve
echo "start on $( [ "$load" = bulk ] && echo "$docs documents" || echo "an empty directory") to /ready: $ready s"
if [ "$load" = send ]; then
  t0=$(date +%s.%N)
  neardup send "$work/load.jsonl" --url "$url" --batch "$send_batch" --in-flight "$in_flight" > "$work/send.out"
  secs=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "ingest with neardup send --batch $send_batch --in-flight $in_flight: $secs s = $(echo "$docs / $secs" | bc) documents/s"
fi
# The class histogram runs a full GC first and counts the live objects only.
heap=$(live_heap)
rss=$(server_rss)
read -r stored ram < <(collection_stats default)
read -r durable scratch < <(data_bytes "$work/data")
echo "stored $stored documents: live heap after a full GC $((heap / stored)) bytes/document ($((heap >> 20)) MB; the collection counts $((ram / stored))), RSS $((rss / stored)) bytes/document ($((rss >> 20)) MB)"
echo "disk: $((durable / stored)) bytes/document in the log and snapshot, $((scratch / stored)) in sketch files (*.tmp, rebuilt at open)"
# Twice: the first pass warms the page cache and the JIT, the second is the figure.
"${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" default "$work/queries.jsonl" 1000 100 100 | sed 's/^/warm-up /'
tail -n $((queries - 1000 - 100 * 100)) "$work/queries.jsonl" > "$work/queries2.jsonl"
"${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" default "$work/queries2.jsonl" 1000 100 100
if [ "${FP:-1}" = 1 ]; then
  # Fingerprint-only beside it, in the same server: the same texts fingerprinted by the CLI (its
  # rate is the "fingerprinting them" of the issue), sent to a collection that does not verify.
  t0=$(date +%s.%N)
  neardup fingerprint "$work/load.jsonl" "$work/queries.jsonl" | sed 's/"simhash"/"fingerprint"/' > "$work/fp.jsonl"
  secs=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "neardup fingerprint of the same texts: $(echo "($docs + $queries) / $secs" | bc) documents/s"
  head -n "$docs" "$work/fp.jsonl" > "$work/fp-load.jsonl"
  tail -n "$queries" "$work/fp.jsonl" > "$work/fp-queries.jsonl"
  curl -sf -X POST "$url/v1/collections" -H 'Content-Type: application/json' -d '{"name":"fp","verify":false}' > /dev/null
  t0=$(date +%s.%N)
  neardup send "$work/fp-load.jsonl" --url "$url" --collection fp --batch "$send_batch" --in-flight "$in_flight" > "$work/send-fp.out"
  secs=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "fingerprint-only ingest with neardup send --batch $send_batch --in-flight $in_flight: $(echo "$docs / $secs" | bc) documents/s"
  "${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" fp "$work/fp-queries.jsonl" 1000 100 100 | sed 's/^/fingerprint-only warm-up /'
  tail -n $((queries - 1000 - 100 * 100)) "$work/fp-queries.jsonl" > "$work/fp-queries2.jsonl"
  "${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" fp "$work/fp-queries2.jsonl" 1000 100 100 | sed 's/^/fingerprint-only /'
fi
stop
serve
count=$(curl -s "$url/v1/collections/default/stats" | python3 -c 'import json, sys; print(json.load(sys.stdin)["documents"])')
echo "restart to /ready: $ready s ($count documents$( [ "${FP:-1}" = 1 ] && echo ", and as many fingerprints in collection fp"))"
stop
