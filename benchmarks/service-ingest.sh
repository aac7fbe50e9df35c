#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Verified-text ingest through the service against the analysis rate of the same texts on the same
# cores (issue 18's "verified texts" rows), short (150-250 characters) and news length (1,500-3,000),
# in one run of a few minutes: for each length, the rate at which `neardup dedup` reads and analyses
# the texts and `neardup fingerprint` fingerprints them; then, per jar, a fresh `neardup serve` (its
# defaults, -Xmx HEAP) fed with `neardup send --batch 100` (its defaults otherwise), the ingest rate and
# its ratio to the analysis rate, the latency of single check-and-inserts and of batches of 100
# (ServiceProbe: one request at a time, after a warm-up) and of singles beside a batch load, and the
# same for fingerprint-only requests (collection `fp`, no verification) in the same server.
# Fresh and warm: the first send goes to a fresh server, whose JIT compilers then take about as
# much CPU as its workers; at news length they still took 70-150 us per document after 10,000
# documents and settled (20-40 us) only after ~20,000 (docs/BENCHMARKS.md, 2026-11-25 tenth
# session). A service runs for days, so the script then sends WARM more documents (after the probes,
# which store ~12,000; so the warm row starts past 50,000 short or 20,000 news texts) and measures
# the next MORE (as many as stored) against the steady analysis rate: `neardup dedup` of the same
# MORE documents STEADY_PASSES (6) times in one JVM (benchmarks' DedupSteadyRate), the median of the
# later passes' read-and-analyse phase, so both sides are past their JIT's warm-up; and the same
# ratio from CPU per document (dedup's steady CPU over the server's and client's), which holds at
# any load where the rates do not. (Until the eighteenth session the steady rate was the difference
# of two cold dedup runs, which came out at 36,697/s and 363,636/s for the same 20,000 short texts.)
# Then the verified probes
# again ("verified, warm server,"), on documents not sent before: the latency of a server whose
# compilers have settled, apart from the first probes' (which run while C2 still compiles the
# decision's and the analysis's methods, and which are the issue's figure as measured until now).
# Each send also prints the CPU it cost per document: the server's by kind of thread (workers:
# parse, analyse, decide, store, answer; jit: the compilers; http: Undertow's I/O threads; log; gc)
# from /proc, and the client's (`neardup send`, user + system, its JVM start included) from
# /usr/bin/time, and the same less a one-document send's (its JVM start and first request: what a
# send of millions of documents pays once). On a quiet machine both are CPU-bound on the same
# cores, so the ingest rate is about cores / (server + client CPU per document): the ratio's parts,
# readable at any load.
# Two floors under the latency goals, measured in the same run: the disk's bare fdatasync (a
# 700-byte append into a preallocated file, 500 times, at the start and at the end: a single
# check-and-insert is answered after one, so its p99 cannot be below the disk's), and, per warm row,
# a batch of SEND_BATCH's worker CPU over the cores (a batch's analysis is split over every idle
# worker, so that is the least time it can take before its fsync).
# Where a batch's time goes: after the warm server's probes and the fingerprint-only ones, the mean
# and p99 of each stage of their batches of 100 (read, analyse, turn, decide, render, durable,
# answer), from the server's neardup_batch_stage_seconds timers (a jar without them prints none).
# At the end, one table of the figures side by side.
# Usage: benchmarks/service-ingest.sh [OTHER_NEARDUP_JAR]
#   With OTHER_NEARDUP_JAR (e.g. a copy of main's cli/target/neardup.jar) its rows come beside this
#   tree's, from the same run, the other jar first: compare them side by side, not across runs.
#   Its commands, serve included, run with the JVM flags of its own tree's launcher (OTHER_DEFAULTS,
#   that tree's dist/src/bin/java-defaults.sh; found next to a jar still in its tree's cli/target),
#   as a user of that tree runs them; without it, with this tree's. So does its class-data archive (that tree's
#   cds.sh beside OTHER_DEFAULTS; none without OTHER_DEFAULTS).
#   env SHORT_DOCS (20000) NEWS_DOCS (5000): documents stored per length, and as many MORE for the
#   warm row; WARM (as many as stored): sent between the probes and the warm row;
#   STEADY_PASSES (6): dedup's passes over MORE for the steady rate;
#   SINGLES (500), BATCHES (100): probe requests per length (the p99 of 100 batches is the second
#   slowest); MIXED (200): singles sent while another client sends batches of 100 back to back
#   (verified only); LENGTHS ("short news"); SEND_BATCH (100); SEND_IN_FLIGHT (the jar's default);
#   WORK (a temporary directory, removed); NO_BUILD=1; PORT; HEAP (4g): -Xmx of the server, dedup,
#   fingerprint and send.
# Run a copy of this script when editing the tree during a run: bash reads a script as it goes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
other="${1:-}"
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
[ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
[ -z "$other" ] || [ -f "$other" ] || { echo "no jar at $other" >&2; exit 2; }
for tool in curl python3 bc /usr/bin/time; do command -v $tool > /dev/null || { echo "needs $tool" >&2; exit 1; }; done
port="${PORT:-$((20000 + RANDOM % 20000))}"
url="http://127.0.0.1:$port"
heap="${HEAP:-4g}"
singles="${SINGLES:-500}"
batches="${BATCHES:-100}"
mixed="${MIXED:-200}"
send_batch="${SEND_BATCH:-100}"
warm_singles=200
warm_batches=10
work="${WORK:-$(mktemp -d)}"
. "$root/benchmarks/service-lib.sh"
trap serve_cleanup EXIT
mkdir -p "$work"
: > "$work/table"
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
# Each jar's class-data archive, made by its own tree's dist/src/bin/cds.sh (beside its
# java-defaults.sh) as that tree's launcher makes it, and used by every command but serve, as the
# launcher does (NEARDUP_CDS=0: none).
for jar in "${jars[@]}"; do
  cds_sh="$root/dist/src/bin/cds.sh"
  [ "$jar" = this ] || cds_sh="${other_defaults%/*}/cds.sh"
  : > "$work/$jar.cds"
  if [ "${NEARDUP_CDS:-1}" != 0 ] && [ -f "$cds_sh" ] \
      && (. "$cds_sh" && neardup_cds_archive "$work/$jar.jsa" "$work/$jar.jar" java -jar "$work/$jar.jar"); then
    echo "-XX:SharedArchiveFile=$work/$jar.jsa -Xlog:cds=off,cds+dynamic=off" > "$work/$jar.cds"
  fi
done
flags() { # JAR COMMAND: the flags the jar's own launcher gives COMMAND with NEARDUP_JAVA_OPTS=-Xmx$heap
  if [ "$1" = other ] && [ -f "$work/other-defaults.sh" ]; then
    (. "$work/other-defaults.sh" && NEARDUP_JAVA_OPTS=-Xmx$heap neardup_java_defaults "$2")
  else
    NEARDUP_JAVA_OPTS=-Xmx$heap neardup_java_defaults "$2"
  fi
}
run() { # JAR COMMAND ARGS...: the jar's neardup as the launcher runs it
  local jar="$1"
  shift
  # shellcheck disable=SC2046
  java $(flags "$jar" "$1") $(cat "$work/$jar.cds") -Xmx$heap -jar "$work/$jar.jar" "$@"
}
timed() { # JAR COMMAND ARGS...: as run, with its user + system CPU seconds in $work/time.out
  local jar="$1"
  shift
  # shellcheck disable=SC2046
  /usr/bin/time -f '%U %S' -o "$work/time.out" java $(flags "$jar" "$1") $(cat "$work/$jar.cds") -Xmx$heap -jar "$work/$jar.jar" "$@"
}
serve_jar() { # JAR SERVE_ARGS...: serve_start of the jar with its own tree's launcher flags for serve
  local jar="$1"
  shift
  if [ "$jar" = other ] && [ -f "$work/other-defaults.sh" ]; then
    . "$work/other-defaults.sh"
  fi
  serve_start "$work/$jar.jar" "$heap" "$@"
  . "$root/dist/src/bin/java-defaults.sh"
}
bench=(java -Xmx2g -cp "$work/benchmarks.jar")
record() { # ROW VALUE: one cell of the closing table, in the column "$length $jar"
  echo "$length $jar|$1|$2" >> "$work/table"
}
# send_measured ROW N JAR SEND_ARGS...: `neardup send` of N documents; prints and records its rate
# ($sent) and the CPU it cost per document, the server's by kind of thread and the client's
send_measured() {
  local row="$1" n="$2" jar="$3" before after cpu
  shift 3
  before=$(thread_cpu "$pid")
  timed "$jar" send "$@" > "$work/send.out"
  after=$(thread_cpu "$pid")
  sent=$(rate "$work/send.out")
  cpu=$(python3 - "$n" "$before" "$after" "$(cat "$work/time.out")" "$(getconf CLK_TCK)" <<'PY'
import sys
n, hz = int(sys.argv[1]), int(sys.argv[5])
us = [(int(y) - int(x)) * 1e6 / hz / n for x, y in zip(sys.argv[2].split(), sys.argv[3].split())]
client = sum(float(x) for x in sys.argv[4].split()) * 1e6 / n
print("%.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f" % (sum(us), *us, client))
PY
)
  read -r c_all c_workers c_jit c_http c_log c_gc c_other c_client <<< "$cpu"
  # The client's JVM start and first request: the same send of the first document alone (which
  # the service answers "exists"), its CPU taken from the run's. What is left is what a long send
  # pays per document, the part a steady rate compares with.
  head -n 1 "$1" > "$work/one.jsonl"
  timed "$jar" send "$work/one.jsonl" "${@:2}" > /dev/null
  c_start=$(awk '{ printf "%.0f", ($1 + $2) * 1e6 }' "$work/time.out")
  c_steady=$(python3 -c 'import sys; print(max(0, round(float(sys.argv[1]) - float(sys.argv[2]) / int(sys.argv[3]))))' "$c_client" "$c_start" "$n")
  echo "$length $jar $row: CPU per document, us: server $c_all (workers $c_workers, jit $c_jit, http $c_http, log $c_log, gc $c_gc, other $c_other), client $c_client (with its JVM start), $c_steady without it (a one-document send took $c_start us)"
  record "$row: documents/s" "$sent"
  record "$row: server CPU us/doc" "$c_all"
  record "$row: server workers us/doc" "$c_workers"
  record "$row: server jit us/doc" "$c_jit"
  record "$row: client CPU us/doc" "$c_client"
  record "$row: client CPU us/doc, without its JVM start" "$c_steady"
}
rate() { # the documents/s of a `neardup send` summary line
  sed -n 's/.*s (\([0-9]*\) documents\/s).*/\1/p' "$1"
}
# stage_scrape FILE: the server's batch stage timers (neardup_batch_stage_seconds: a server before
# 5f842b6 has none, and FILE is then empty)
stage_scrape() {
  curl -sf "$url/metrics" | grep '^neardup_batch_stage_seconds' > "$1" || true
}
# stage_rows BEFORE AFTER ROW: per stage of the batches answered between the two scrapes, the mean
# and the p50 / p99 (the upper bound of the histogram bucket holding them); printed and recorded
stage_rows() {
  python3 - "$1" "$2" <<'PY' > "$work/stages.out"
import re, sys
def read(path):
    out = {}
    for line in open(path):
        m = re.match(r'neardup_batch_stage_seconds_(bucket|count|sum)\{stage="(\w+)"(?:,le="([^"]+)")?\} (\S+)', line)
        if m:
            out[(m.group(1), m.group(2), m.group(3))] = float(m.group(4))
    return out
a, b = read(sys.argv[1]), read(sys.argv[2])
# in the order a batch goes through them (the server's Metrics.BATCH_STAGES)
for stage in ["read", "analyse", "turn", "decide", "render", "durable", "answer"]:
    n = b.get(("count", stage, None), 0) - a.get(("count", stage, None), 0)
    if n <= 0:
        continue
    mean = (b[("sum", stage, None)] - a.get(("sum", stage, None), 0)) / n * 1e3
    bounds = sorted((float(le), b[k] - a.get(k, 0)) for k in b if k[0] == "bucket" and k[1] == stage for le in [k[2]] if le != "+Inf")
    def q(p):
        for le, c in bounds:
            if c >= p * n:
                return "%.2f" % (le * 1e3)
        return ">%.0f" % (bounds[-1][0] * 1e3)
    print("%s %.2f %s %s %d" % (stage, mean, q(0.5), q(0.99), n))
PY
  local stage mean p50 p99 n
  while read -r stage mean p50 p99 n; do
    echo "$length $jar $3 batch stage $stage: $n batches, mean $mean ms, p50 <= $p50 ms, p99 <= $p99 ms"
    record "$3 batch stage $stage mean / p99 ms" "$mean / $p99"
  done < "$work/stages.out"
}
probe() { # COLLECTION QUERIES ROW [MIXED]: a warm-up pass, then the measured one on other documents
  local n=$((warm_singles + warm_batches * 100))
  "${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" "$1" "$2" $warm_singles $warm_batches 100 > /dev/null
  tail -n +$((n + 1)) "$2" > "$2.rest"
  stage_scrape "$work/stages.before"
  # shellcheck disable=SC2086
  "${bench[@]}" org.neardup.benchmarks.ServiceProbe "$url" "$1" "$2.rest" "$singles" "$batches" 100 ${4:-} \
    | sed -e "s/^/$length $jar $3 /" -e 's/ (one client)//' | tee "$work/probe.out"
  local kind
  for kind in single "batch of 100" "single beside batches"; do
    grep "$3 $kind" "$work/probe.out" | head -1 | sed -n 's/.* p50 \([0-9.]*\) ms, p99 \([0-9.]*\) ms.*/\1 \2/p' \
      | { read -r p50 p99 && record "$3 $kind p50 / p99 ms" "$p50 / $p99"; } || true
  done
  # Where a batch's time goes, by stage (the batches of this probe; with MIXED, those sent beside
  # the singles too, so only the probes without it print them)
  if [ -z "${4:-}" ]; then
    stage_scrape "$work/stages.after"
    stage_rows "$work/stages.before" "$work/stages.after" "$3"
  fi
}

[ -z "$other" ] || echo "other jar's send flags: $(flags other send) $(cut -d' ' -f1 "$work/other.cds"); this tree's: $(flags this send) $(cut -d' ' -f1 "$work/this.cds")"
[ -z "$other" ] || echo "other jar's serve flags: $(flags other serve); this tree's: $(flags this serve)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(cd "$root" && git rev-parse --short HEAD)$( [ -n "$other" ] && echo ", other jar: $other")"
fsync_floor() { # the disk's fdatasync p50 / p99 under the server's data directory's file system
  python3 - "$work/fsync.probe" <<'PY'
import os, sys, time
path, n = sys.argv[1], 500
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(fd, bytes(4 << 20))
os.fsync(fd)
os.lseek(fd, 0, 0)
lat = []
for i in range(n):
    os.write(fd, b"x" * 700)
    t = time.perf_counter()
    os.fdatasync(fd)
    lat.append((time.perf_counter() - t) * 1e3)
    time.sleep(0.002)
os.close(fd)
os.unlink(path)
lat.sort()
print("the disk's bare fdatasync (700 B appended, %d times): p50 %.2f ms, p99 %.2f ms, max %.2f ms (load %s)"
      % (n, lat[n // 2], lat[n * 99 // 100], lat[-1], open("/proc/loadavg").read().split()[0]))
PY
}
fsync_floor
warm_docs() { echo "${WARM:-$1}"; }
for length in ${LENGTHS:-short news}; do
  if [ "$length" = short ]; then
    min=150 max=250 docs="${SHORT_DOCS:-20000}"
  else
    min=1500 max=3000 docs="${NEWS_DOCS:-5000}"
  fi
  warm=$(warm_docs "$docs")
  # and for the singles beside a batch load (MIXED of them, 4,000 documents for the batches)
  queries=$((warm_singles + warm_batches * 100 + singles + batches * 100 + mixed + 4000))
  # the probes of the warm server, after the warm row (no singles beside batches)
  warm_queries=$((warm_singles + warm_batches * 100 + singles + batches * 100))
  corpus="$work/$length.jsonl"
  # The stored documents, the queries, the WARM ones, the MORE ones (as many as stored), then the
  # warm server's queries.
  "${bench[@]}" org.neardup.benchmarks.NewsCorpus "$base" $((docs + queries + warm + docs + warm_queries)) "$corpus" 20261125 "$min" "$max" > /dev/null
  head -n "$docs" "$corpus" > "$work/load.jsonl"
  sed -n "$((docs + 1)),$((docs + queries))p" "$corpus" > "$work/queries.jsonl"
  sed -n "$((docs + queries + 1)),$((docs + queries + warm))p" "$corpus" > "$work/warm.jsonl"
  sed -n "$((docs + queries + warm + 1)),$((docs + queries + warm + docs))p" "$corpus" > "$work/more.jsonl"
  tail -n "$warm_queries" "$corpus" > "$work/warm-queries.jsonl"
  rm -rf "$work/dedup"
  run this dedup "$work/load.jsonl" --out "$work/dedup" --quiet --json > "$work/dedup-load.json"
  analysis=$(python3 -c 'import json, sys
print(round(int(sys.argv[2]) / json.load(open(sys.argv[1]))["phase_seconds"]["read_and_analyse"]))' \
    "$work/dedup-load.json" "$docs")
  # The steady rate: `neardup dedup` of the MORE documents, the warm row's, STEADY_PASSES times in
  # one JVM with dedup's launcher flags (DedupSteadyRate), the median of the second half of the
  # passes, by when dedup has analysed at least as many texts as the warm server had stored before
  # its row. Both sides are then past their JIT's warm-up, on the same texts and cores.
  # shellcheck disable=SC2046
  java $(flags this dedup) -Xmx$heap -cp "$work/benchmarks.jar" org.neardup.benchmarks.DedupSteadyRate \
    "$work/this.jar" "${STEADY_PASSES:-6}" "$work/more.jsonl" > "$work/steady.out"
  sed "s/^/$length dedup steady analysis, /" "$work/steady.out"
  read -r steady steady_cpu < <(sed -n 's/^steady .*: \([0-9]*\) documents\/s, \([0-9.]*\) us of CPU.*/\1 \2/p' "$work/steady.out")
  t0=$(date +%s.%N)
  run this fingerprint "$work/load.jsonl" "$work/queries.jsonl" | sed 's/"simhash"/"fingerprint"/' > "$work/fp.jsonl"
  fprate=$(echo "($docs + $queries) / ($(date +%s.%N) - $t0)" | bc)
  head -n "$docs" "$work/fp.jsonl" > "$work/fp-load.jsonl"
  tail -n "$queries" "$work/fp.jsonl" > "$work/fp-queries.jsonl"
  echo "== $length: $docs documents of $min-$max characters stored, batches of $send_batch; analysis by neardup dedup $analysis documents/s (read and analyse, the first $docs, a fresh JVM) and $steady/s, $steady_cpu us of CPU per document (steady: the warm row's $docs, passes in one JVM), neardup fingerprint $fprate documents/s (with JVM start)"
  for jar in "${jars[@]}"; do
    record "analysis rate, first / steady (dedup)" "$analysis / $steady"
    rm -rf "$work/data"
    serve_jar "$jar" --data "$work/data"
    flight=()
    [ -z "${SEND_IN_FLIGHT:-}" ] || flight=(--in-flight "$SEND_IN_FLIGHT")
    send_measured "fresh" "$docs" "$jar" "$work/load.jsonl" --url "$url" --batch "$send_batch" "${flight[@]}"
    ratio=$(echo "scale=2; $sent / $analysis" | bc)
    echo "$length $jar verified ingest: $sent documents/s = $ratio of the analysis rate"
    record "fresh: ratio to the first analysis rate" "$ratio"
    probe default "$work/queries.jsonl" verified "$mixed"
    run "$jar" send "$work/warm.jsonl" --url "$url" --batch "$send_batch" "${flight[@]}" > /dev/null
    send_measured "warm" "$docs" "$jar" "$work/more.jsonl" --url "$url" --batch "$send_batch" "${flight[@]}"
    ratio=$(echo "scale=2; $sent / $steady" | bc)
    echo "$length $jar verified ingest, warm server (the next $docs after $((docs + queries + warm)) stored): $sent documents/s = $ratio of the steady analysis rate"
    record "warm: ratio to the steady analysis rate" "$ratio"
    # The same ratio from CPU, which a loaded machine leaves readable: both sides are CPU-bound on
    # the same cores, so the rates' ratio is about dedup's CPU per document over the service's
    # (server and client together).
    ratio=$(echo "scale=2; $steady_cpu / ($c_all + $c_client)" | bc)
    echo "$length $jar warm: dedup's steady $steady_cpu us of CPU per document against the service's $c_all + $c_client (server + client): $ratio"
    record "warm: CPU ratio, dedup's steady / (server + client with its JVM start)" "$ratio"
    # and with the client's steady part only: a send of millions of documents starts its JVM once
    ratio=$(echo "scale=2; $steady_cpu / ($c_all + $c_steady)" | bc)
    echo "$length $jar warm: dedup's steady $steady_cpu us of CPU per document against the service's $c_all + $c_steady (server + client without its JVM start): $ratio"
    record "warm: CPU ratio, dedup's steady / (server + client without its JVM start)" "$ratio"
    record "warm: a batch of $send_batch's worker CPU / $(nproc) cores, ms" "$(echo "scale=1; $c_workers * $send_batch / $(nproc) / 1000" | bc)"
    # The same probes again, now that the server's compilers have settled: the latency a server
    # that has run for a while gives, apart from its first minutes' compilations.
    probe default "$work/warm-queries.jsonl" "verified, warm server,"
    curl -sf -X POST "$url/v1/collections" -H 'Content-Type: application/json' -d '{"name":"fp","verify":false}' > /dev/null
    run "$jar" send "$work/fp-load.jsonl" --url "$url" --collection fp --batch "$send_batch" "${flight[@]}" > "$work/send-fp.out"
    echo "$length $jar fingerprint-only ingest: $(rate "$work/send-fp.out") documents/s"
    record "fingerprint-only ingest, documents/s" "$(rate "$work/send-fp.out")"
    probe fp "$work/fp-queries.jsonl" fingerprint-only
    serve_stop
  done
done
fsync_floor
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
# The figures side by side: one column per length and jar, in the order they ran.
python3 - "$work/table" <<'PY'
import sys
cols, rows, cell = [], [], {}
for line in open(sys.argv[1]):
    col, row, value = line.rstrip("\n").split("|")
    if col not in cols: cols.append(col)
    if row not in rows: rows.append(row)
    cell[(row, col)] = value
width = max(len(r) for r in rows)
print("%-*s  %s" % (width, "", "  ".join("%15s" % c for c in cols)))
for r in rows:
    print("%-*s  %s" % (width, r, "  ".join("%15s" % cell.get((r, c), "") for c in cols)))
PY
