#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Verified texts through the service at full size (issue 18's owed rows "single check-and-insert,
# 10M stored, >= 20,000 req/s, p99 <= 10 ms" and "batches >= 200,000 docs/s", which were measured
# with fingerprints): `neardup serve` with the launcher's flags (NEARDUP_JAVA_OPTS, -Xmx4g by
# default) opens DATA in place, wrk sends texts for SECONDS (after a 10 s warm-up with the same
# load), and the script prints wrk's report, documents/s, the server's and wrk's CPU per document,
# the server's own latency histogram of the route (p99 bucket, share over 10 ms), the outcomes
# (new / duplicate), the log's fsyncs per request, and the machine's idle and stolen CPU. The CPU per
# document is also given without the JIT's compiler threads (their work follows the seconds since
# the start, not the documents: on a loaded machine it is spread over fewer of them). The
# server is then killed (no snapshot) and the log segments and sketch files the run added are
# deleted, so DATA holds none of the run's records (as service-curve.sh's RESTORE=1).
# Texts: TEXTS=short (default): wrk's own generated texts of 30 words (~200 characters, one in four
# a copy of an earlier one; server/src/test/resources/wrk insert.lua / batch.lua's text mode), or
# TEXTS=FILE.jsonl: the "text" of each line, sent in order round and round under new ids
# (benchmarks/wrk/texts.lua), the last third in the warm-up and the first two thirds in the run
# (past their end each text is an exact copy of a stored one: see the outcomes line).
# With STEADY=N, afterwards: `neardup dedup`'s steady analysis rate of the same texts on the same
# cores (DedupSteadyRate, N passes in one JVM; FILE texts only), the ceiling of a verified ingest.
# Usage: benchmarks/service-texts.sh DATA JAR BENCHMARKS_JAR single|batch SECONDS CONNECTIONS [BATCH]
#   e.g. TEXTS=/work/data-full/queries.jsonl benchmarks/service-texts.sh /work/data-full/c96-10m \
#            cli/target/neardup.jar benchmarks/target/benchmarks.jar batch 30 2 100
#   env PORT, NEARDUP_JAVA_OPTS, TEXTS, STEADY, WARM (seconds of warm-up load, 10).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 6 ] && [ $# -le 7 ] || { echo "usage: $0 DATA JAR BENCHMARKS_JAR single|batch SECONDS CONNECTIONS [BATCH]" >&2; exit 2; }
data="$1"; jar="$2"; bench="$3"; mode="$4"; seconds="$5"; conns="$6"; size="${7:-100}"
texts="${TEXTS:-short}"
command -v wrk > /dev/null || { echo "needs wrk" >&2; exit 1; }
[ -d "$data" ] || { echo "no data directory $data" >&2; exit 2; }
. "$root/benchmarks/service-lib.sh"
serve_bench_init
. "$root/dist/src/bin/java-defaults.sh"
wrkdir="$root/server/src/test/resources/wrk"
case "$mode:$texts" in
  single:short) script="$wrkdir/insert.lua"; args=(default 30 text); warm_args=("${args[@]}"); per=1 ;;
  batch:short) script="$wrkdir/batch.lua"; args=(default "$size" text 30); warm_args=("${args[@]}"); per=$size ;;
  single:* | batch:*)
    [ -f "$texts" ] || { echo "no texts file $texts" >&2; exit 2; }
    # The warm-up sends the file's last third, the measured run the first two thirds: texts the
    # warm-up sent would come back as exact copies of stored documents.
    python3 -c '
import json, sys
texts = [json.dumps(t, ensure_ascii=False) for t in
         (json.loads(line).get("text") for line in open(sys.argv[1], encoding="utf-8")) if t]
cut = len(texts) * 2 // 3
for name, part in ((sys.argv[2], texts[:cut]), (sys.argv[3], texts[cut:])):
    with open(name, "w", encoding="utf-8") as out:
        out.write("".join(t + "\n" for t in part))
' "$texts" "$work/texts.txt" "$work/warm.txt"
    script="$root/benchmarks/wrk/texts.lua"
    n=0; [ "$mode" = single ] || n=$size
    args=(default "$work/texts.txt" "$n"); warm_args=(default "$work/warm.txt" "$n"); per=$((n > 0 ? n : 1)) ;;
  *) echo "mode is single or batch" >&2; exit 2 ;;
esac
files_before="$(ls "$data")"
restore() {
  serve_kill
  for f in $(comm -13 <(echo "$files_before" | sort) <(ls "$data" | sort)); do
    case "$f" in log-*.ndlog | sketches-*.tmp) rm -f "${data:?}/$f" ;; esac
  done
}
trap 'restore; rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $jar on $data; $mode, texts $texts, $seconds s, $conns connections$([ "$mode" = batch ] && echo ", $size per batch")"
serve_open "$jar" "$opts" --data "$data"
echo "/ready in $ready s"
# The same load for WARM seconds first (10 by default): the JIT, and the page cache of the sketches
# the checks read. wrk's timeout is 30 s, not its 2 s: a news batch of 100 under load took longer,
# and a timed-out request is dropped from wrk's latencies.
wrk -t1 -c"$conns" -d"${WARM:-10}s" --timeout 30s -s "$script" "$url" -- "${warm_args[@]}" > /dev/null
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
machine() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6, $9}' /proc/stat; }
# Every thread's CPU ticks, "ticks name" per line: the run's CPU per document by thread kind (the
# name less its number). The JIT's compiler threads' work follows the seconds since the start more
# than the documents (a server that answers fewer of them in the same seconds, on a busier machine,
# spends about as much compiling), so the CPU per document is also given without them.
thread_ticks() {
  awk '{ i = index($0, "("); j = match($0, /\) [A-Z] /); split(substr($0, j + 2), f, " ");
         print f[12] + f[13], substr($0, i + 1, j - i - 1) }' /proc/"$1"/task/*/stat 2>/dev/null
}
curl -sf "$url/metrics" > "$work/m0.txt"
stdbuf -oL wrk -t1 -c"$conns" -d"${seconds}s" --timeout 30s --latency -s "$script" "$url" -- "${args[@]}" > "$work/wrk" &
w=$!
# -s: the file may not exist yet when the first look comes before the shell has opened it for wrk.
until grep -qs "^Running" "$work/wrk"; do sleep 0.1; done
c0=$(ticks "$pid"); thread_ticks "$pid" > "$work/t0"; w0=$(ticks $w); w1=$w0; m0=$(machine)
while kill -0 $w 2>/dev/null; do w1=$(ticks $w || echo "$w1"); sleep 0.2; done
wait $w
m1=$(machine); c1=$(ticks "$pid"); thread_ticks "$pid" > "$work/t1"
curl -sf "$url/metrics" > "$work/m1.txt"
cat "$work/wrk"
n=$(grep -oP '\d+(?= requests in)' "$work/wrk")
rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk")
docs=$((n * per))
hz=$(getconf CLK_TCK)
echo "documents/s: $(awk -v r="$rps" -v p="$per" 'BEGIN {printf "%.0f", r * p}') ($n requests of $per)"
echo "server CPU per document: $(awk -v c=$((c1 - c0)) -v d=$docs -v hz="$hz" 'BEGIN {printf "%.0f", c / hz / d * 1e6}') us; wrk's: $(awk -v c=$((w1 - w0)) -v d=$docs -v hz="$hz" 'BEGIN {printf "%.0f", c / hz / d * 1e6}') us (user + system during the run)"
# By kind: each thread's ticks at the end less its ticks at the start (0 for one started since).
awk -v d=$docs -v hz="$hz" '
  { t = $1; $1 = ""; name = substr($0, 2); sub(/[-#]?[0-9]+$/, "", name) }
  FNR == NR { start[name] += t; next }
  { end[name] += t }
  END {
    for (k in end) { c = end[k] - start[k]; if (c > 0) { all += c; if (k ~ /CompilerThre/) jit += c; line = line sprintf(", %s %.1f", k, c / hz / d * 1e6) } }
    printf "server CPU per document without the JIT'"'"'s compiler threads: %.1f us; by thread: %s\n", (all - jit) / hz / d * 1e6, substr(line, 3)
  }' "$work/t0" "$work/t1"
echo "$m0 $m1" | awk '{b = $4 - $1; i = $5 - $2; printf "machine during the run: idle %.0f%%, stolen by the host %.1f%%\n", 100 * i / (b + i), 100 * ($6 - $3) / (b + i)}'
# The server's view of the run alone (the difference of two scrapes): the route's latency
# histogram, the documents' outcomes, the log's fsyncs.
python3 - "$work/m0.txt" "$work/m1.txt" "$mode" "$n" <<'PY'
import re, sys
def read(path):
    v = {}
    for line in open(path):
        m = re.match(r'(\w+)(\{.*\})? (\S+)$', line.strip())
        if m and not line.startswith("#"):
            v[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return v
a, b = read(sys.argv[1]), read(sys.argv[2])
d = {k: b[k] - a.get(k, 0) for k in b}
route = "/v1/collections/{c}/batch" if sys.argv[3] == "batch" else "/v1/collections/{c}/documents"
buckets = sorted((float(re.search(r'le="([^"]+)"', k[1]).group(1)), v) for k, v in d.items()
                 if k[0] == "neardup_http_requests_seconds_bucket" and 'route="%s"' % route in k[1]
                 and 'method="POST"' in k[1] and 'status="200"' in k[1])
if buckets and buckets[-1][1] > 0:
    total = buckets[-1][1]
    under = max((c for le, c in buckets if le <= 0.0105), default=0)
    p99 = next(le for le, c in buckets if c >= 0.99 * total)
    p50 = next(le for le, c in buckets if c >= 0.5 * total)
    print("server-side latency: %d requests, p50 <= %.2f ms, p99 <= %.2f ms, %.2f%% over 10 ms" % (total, p50 * 1e3, p99 * 1e3, 100 * (total - under) / total))
res = {re.search(r'result="([^"]+)"', k[1]).group(1): v for k, v in d.items() if k[0] == "neardup_documents_total" and 'result="' in k[1]}
print("outcomes: " + ", ".join("%s %d" % (r, v) for r, v in sorted(res.items()) if v))
f = d.get(("neardup_store_log_fsyncs_total", '{store="embedded"}'))
s = d.get(("neardup_store_log_fsync_seconds_total", '{store="embedded"}'))
if f:
    print("log fsyncs per request: %.2f, mean %.2f ms" % (f / int(sys.argv[4]), s / f * 1e3))
PY
echo "result mode=$mode docs=$docs rps=$rps server_ticks=$((c1 - c0)) wrk_ticks=$((w1 - w0))"
restore
if [ -n "${STEADY:-}" ] && [ -f "$texts" ]; then
  # shellcheck disable=SC2046
  java $(neardup_java_defaults dedup) -Xmx2g -cp "$bench" org.neardup.benchmarks.DedupSteadyRate "$jar" "$STEADY" "$texts" | tail -3
fi
echo "machine at the end: load $(cut -d' ' -f1-3 /proc/loadavg)"
