#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Verified-text ingest through the service against the analysis rate of the same texts on the same
# cores (issue 18's "verified texts" rows), short (150-250 characters) and news length (1,500-3,000),
# in one run of a few minutes: for each length, the rate at which `neardup dedup` reads and analyses
# the texts and `neardup fingerprint` fingerprints them; then, per jar, a fresh `neardup serve` (its
# defaults, -Xmx4g) fed with `neardup send --batch 100` (its defaults otherwise), the ingest rate and
# its ratio to the analysis rate, the latency of single check-and-inserts and of batches of 100
# (ServiceProbe: one request at a time, after a warm-up) and of singles beside a batch load, and the
# same for fingerprint-only
# requests (collection `fp`, no verification) in the same server.
# The first send goes to a fresh server, whose JIT compilers then take about as much CPU as its
# workers (docs/BENCHMARKS.md, 2026-11-25 evening); a service runs for days, so the script also
# sends MORE other documents once the server is warm (after the first send and the probes) and
# compares that rate with the steady analysis rate: `neardup dedup` of the stored and the MORE
# documents together, less the time of the stored ones alone (MORE over the difference).
# Usage: benchmarks/service-ingest.sh [OTHER_NEARDUP_JAR]
#   With OTHER_NEARDUP_JAR (e.g. a copy of main's cli/target/neardup.jar) its rows come beside this
#   tree's, from the same run, the other jar first: compare them side by side, not across runs.
#   Its commands run with the JVM flags of its own tree's launcher (OTHER_DEFAULTS, that tree's
#   dist/src/bin/java-defaults.sh; found next to a jar still in its tree's cli/target), as a user of
#   that tree runs them; without it, with this tree's.
#   env SHORT_DOCS (20000) NEWS_DOCS (5000): documents stored per length, and as many MORE for the
#   warm row; SINGLES (500), BATCHES
#   (60): probe requests per length; MIXED (200): singles sent while another client sends batches
#   of 100 back to back (verified only); LENGTHS ("short news"); SEND_BATCH (100); SEND_IN_FLIGHT (the
#   jar's default); WORK (a temporary directory, removed); NO_BUILD=1; PORT.
# Run a copy of this script when editing the tree during a run: bash reads a script as it goes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
other="${1:-}"
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
[ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
[ -z "$other" ] || [ -f "$other" ] || { echo "no jar at $other" >&2; exit 2; }
command -v curl > /dev/null || { echo "needs curl" >&2; exit 1; }
port="${PORT:-$((20000 + RANDOM % 20000))}"
url="http://127.0.0.1:$port"
singles="${SINGLES:-500}"
batches="${BATCHES:-60}"
mixed="${MIXED:-200}"
send_batch="${SEND_BATCH:-100}"
warm_singles=200
warm_batches=10
work="${WORK:-$(mktemp -d)}"
. "$root/benchmarks/service-lib.sh"
cleanup() {
  serve_stop
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work"
[ -n "${NO_BUILD:-}" ] || (cd "$root" && mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli,benchmarks -am package)
# Copies of the jars: the ./neardup launcher rebuilds its jar when sources change.
cp "$root/cli/target/neardup.jar" "$work/this.jar"
jars=(this)
if [ -n "$other" ]; then
  cp "$other" "$work/other.jar"
  jars=(other this)
fi
cp "$root/benchmarks/target/benchmarks.jar" "$work/benchmarks.jar"
. "$root/dist/src/bin/java-defaults.sh"
other_defaults="${OTHER_DEFAULTS:-}"
if [ -n "$other" ] && [ -z "$other_defaults" ] && [ -f "$(dirname "$other")/../../dist/src/bin/java-defaults.sh" ]; then
  other_defaults="$(dirname "$other")/../../dist/src/bin/java-defaults.sh"
fi
[ -z "$other_defaults" ] || cp "$other_defaults" "$work/other-defaults.sh"
flags() { # JAR COMMAND: the flags the jar's own launcher gives COMMAND with NEARDUP_JAVA_OPTS=-Xmx4g
  if [ "$1" = other ] && [ -f "$work/other-defaults.sh" ]; then
    (. "$work/other-defaults.sh" && NEARDUP_JAVA_OPTS=-Xmx4g neardup_java_defaults "$2")
  else
    NEARDUP_JAVA_OPTS=-Xmx4g neardup_java_defaults "$2"
  fi
}
run() { # JAR COMMAND ARGS...: the jar's neardup as the launcher runs it
  local jar="$1"
  shift
  # shellcheck disable=SC2046
  java $(flags "$jar" "$1") -Xmx4g -jar "$work/$jar.jar" "$@"
}
bench=(java -Xmx2g -cp "$work/benchmarks.jar")
rate() { # the documents/s of a `neardup send` summary line
  sed -n 's/.*s (\([0-9]*\) documents\/s).*/\1/p' "$1"
}
probe() { # COLLECTION QUERIES PREFIX [MIXED]: a warm-up pass, then the measured one on other documents
  local n=$((warm_singles + warm_batches * 100))
  "${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" "$1" "$2" $warm_singles $warm_batches 100 > /dev/null
  tail -n +$((n + 1)) "$2" > "$2.rest"
  # shellcheck disable=SC2086
  "${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" "$1" "$2.rest" "$singles" "$batches" 100 ${4:-} \
    | sed -e "s/^/$3 /" -e 's/ (one client)//'
}

[ -z "$other" ] || echo "other jar's send flags: $(flags other send); this tree's: $(flags this send)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(cd "$root" && git rev-parse --short HEAD)$( [ -n "$other" ] && echo ", other jar: $other")"
for length in ${LENGTHS:-short news}; do
  if [ "$length" = short ]; then
    min=150 max=250 docs="${SHORT_DOCS:-20000}"
  else
    min=1500 max=3000 docs="${NEWS_DOCS:-5000}"
  fi
  # and for the singles beside a batch load (MIXED of them, 4,000 documents for the batches)
  queries=$((warm_singles + warm_batches * 100 + singles + batches * 100 + mixed + 4000))
  corpus="$work/$length.jsonl"
  # The stored documents, the queries, then the MORE ones (as many as stored) for the warm row.
  "${bench[@]}" org.neardup.benchmarks.NewsCorpus "$base" $((docs + queries + docs)) "$corpus" 20261125 "$min" "$max" > /dev/null
  head -n "$docs" "$corpus" > "$work/load.jsonl"
  sed -n "$((docs + 1)),$((docs + queries))p" "$corpus" > "$work/queries.jsonl"
  tail -n "$docs" "$corpus" > "$work/more.jsonl"
  cat "$work/load.jsonl" "$work/more.jsonl" > "$work/both.jsonl"
  rm -rf "$work/dedup"
  run this dedup "$work/load.jsonl" --out "$work/dedup" --quiet --json > "$work/dedup.json"
  rm -rf "$work/dedup"
  run this dedup "$work/both.jsonl" --out "$work/dedup" --quiet --json > "$work/dedup2.json"
  read -r analysis steady < <(python3 -c 'import json, sys
one = json.load(open(sys.argv[1]))["phase_seconds"]["read_and_analyse"]
two = json.load(open(sys.argv[2]))["phase_seconds"]["read_and_analyse"]
n = int(sys.argv[3]); print(round(n / one), round(n / max(two - one, 1e-3)))' "$work/dedup.json" "$work/dedup2.json" "$docs")
  t0=$(date +%s.%N)
  run this fingerprint "$work/load.jsonl" "$work/queries.jsonl" | sed 's/"simhash"/"fingerprint"/' > "$work/fp.jsonl"
  fprate=$(echo "($docs + $queries) / ($(date +%s.%N) - $t0)" | bc)
  head -n "$docs" "$work/fp.jsonl" > "$work/fp-load.jsonl"
  tail -n "$queries" "$work/fp.jsonl" > "$work/fp-queries.jsonl"
  echo "== $length: $docs documents of $min-$max characters stored, batches of $send_batch; analysis by neardup dedup $analysis documents/s (read and analyse; steady, the next $docs: $steady/s), neardup fingerprint $fprate documents/s (with JVM start)"
  for jar in "${jars[@]}"; do
    rm -rf "$work/data"
    serve_start "$work/$jar.jar" 4g --data "$work/data"
    flight=()
    [ -z "${SEND_IN_FLIGHT:-}" ] || flight=(--in-flight "$SEND_IN_FLIGHT")
    run "$jar" send "$work/load.jsonl" --url "$url" --batch "$send_batch" "${flight[@]}" > "$work/send.out"
    ingest=$(rate "$work/send.out")
    echo "$length $jar verified ingest: $ingest documents/s = $(echo "scale=2; $ingest / $analysis" | bc) of the analysis rate"
    probe default "$work/queries.jsonl" "$length $jar verified" "$mixed"
    run "$jar" send "$work/more.jsonl" --url "$url" --batch "$send_batch" "${flight[@]}" > "$work/send-more.out"
    more=$(rate "$work/send-more.out")
    echo "$length $jar verified ingest, warm server (the next $docs): $more documents/s = $(echo "scale=2; $more / $steady" | bc) of the steady analysis rate"
    curl -sf -X POST "$url/v1/collections" -H 'Content-Type: application/json' -d '{"name":"fp","verify":false}' > /dev/null
    run "$jar" send "$work/fp-load.jsonl" --url "$url" --collection fp --batch "$send_batch" "${flight[@]}" > "$work/send-fp.out"
    echo "$length $jar fingerprint-only ingest: $(rate "$work/send-fp.out") documents/s"
    probe fp "$work/fp-queries.jsonl" "$length $jar fingerprint-only"
    serve_stop
  done
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
