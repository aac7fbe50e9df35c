# SPDX-License-Identifier: Apache-2.0
# What the service benchmark scripts share (sourced, not run: service-ingest.sh, service-news.sh, ready-heap-ab.sh,
# service-open.sh, and through it service-slope.sh, service-curve.sh): a `neardup serve` of a given
# jar on a loopback port, in the background, waited for until it answers /ready; its stop; and the
# figures read from the running server.
# Needs, before sourcing: $work (where serve.out and serve.err go), $port and $url; and
# dist/src/bin/java-defaults.sh sourced (neardup_java_defaults).
# serve_open JAR JAVA_OPTS [SERVE_ARGS...]: starts java itself (not a function or a subshell, so
#   that $pid is java's and killing it leaves nothing behind) with the launcher's flags for
#   NEARDUP_JAVA_OPTS=JAVA_OPTS, then JAVA_OPTS; sets pid, and ready (seconds from start to /ready).
#   Exits 1 with the server's stderr if it dies before it is ready.
# serve_start JAR HEAP [SERVE_ARGS...]: serve_open with -Xmx HEAP plus $JAVA_EXTRA.
# serve_stop: stops it (SIGTERM: it writes a snapshot) and waits until the port answers no more, so
#   the next server can bind it. serve_kill: the same with SIGKILL (no snapshot written).
# serve_cleanup: serve_stop, then removes $work unless the caller was given it in WORK (for trap).
# server_cpu: the server's CPU seconds so far (user + system, all threads).
# live_heap [KEEP]: the live heap in bytes after a full GC (jcmd GC.class_histogram, tried three
#   times: on a loaded machine the attach can time out); KEEP, a file to keep the histogram in.
# server_rss: the server's resident set in bytes.
# server_pss: its proportional set size in bytes: with ZGC, whose heap pages are mapped in three
#   views, RSS counts a touched heap page up to three times (at 50M, -Xmx10g: RSS 13.9 GB against
#   PSS 10.4 GB, the committed heap and ~0.2 GB besides); PSS counts it once.
# collection_stats [NAME]: "documents ramBytes" of collection NAME, or summed over all of them.
# id_stats NAME: "idArrayBytes idLengths" of collection NAME (the heap of the arrays holding the
#   ids' bytes, and the ids' summed length); "0 0" from a server that does not report them.
# data_bytes DIR: "durable scratch": bytes of DIR's files, and of its *.tmp files (sketch files).
# stage_quantiles BEFORE AFTER METRIC: from two scrapes of /metrics, each stage's count, mean,
#   p50, p90 and p99 (the upper bound of the histogram bucket that holds it, ~10% wide) of the
#   requests timed between them, e.g. METRIC neardup_single_stage_seconds; then the log's fsyncs
#   in that time (count and mean), the disk's part of a request's "durable" stage.
# serve_bench_init: the setup of a script that opens a data directory it is given: checks for jcmd,
#   curl and python3; sets $port (PORT, else a random one), $url, $opts (NEARDUP_JAVA_OPTS, -Xmx4g
#   by default) and a fresh $work, which goes on exit with any server still running killed.
pid=""
ready=""
serve_open() {
  local jar="$1" opts="$2" t0
  shift 2
  t0=$(date +%s.%N)
  # shellcheck disable=SC2046,SC2086
  java $(NEARDUP_JAVA_OPTS="$opts" neardup_java_defaults serve) $opts -jar "$jar" serve \
    --port "$port" "$@" > "$work/serve.out" 2> "$work/serve.err" &
  pid=$!
  until curl -sf "$url/ready" > /dev/null; do
    sleep 0.1
    kill -0 "$pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  done
  ready=$(echo "$(date +%s.%N) - $t0" | bc)
}
serve_start() {
  local jar="$1" heap="$2"
  shift 2
  serve_open "$jar" "-Xmx$heap ${JAVA_EXTRA:-}" "$@"
}
serve_stop() {
  [ -n "$pid" ] || return 0
  kill "${1:--TERM}" "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  while curl -s "$url/health" > /dev/null; do sleep 0.2; done
}
serve_kill() { serve_stop -KILL; }
serve_cleanup() {
  serve_stop
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
server_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f\n", ($14 + $15) / hz }' "/proc/$pid/stat"
}
live_heap() {
  local attempt histogram="$work/histogram.txt" heap=""
  for attempt in 1 2 3; do
    jcmd "$pid" GC.class_histogram > "$histogram" || continue
    heap=$(awk '$1 == "Total" { print $3 }' "$histogram") && [ -n "$heap" ] && break
  done
  [ -z "${1:-}" ] || cp "$histogram" "$1"
  echo "$heap"
}
server_rss() {
  awk '/VmRSS/ { printf "%.0f\n", $2 * 1024 }' "/proc/$pid/status"
}
server_pss() {
  awk '$1 == "Pss:" { printf "%.0f\n", $2 * 1024 }' "/proc/$pid/smaps_rollup"
}
collection_stats() {
  python3 - "$url" "${1:-}" <<'PY'
import json, sys, urllib.request
url, name = sys.argv[1], sys.argv[2]
if name:
    names = [name]
else:
    d = json.load(urllib.request.urlopen(url + "/v1/collections"))
    names = [c["name"] if isinstance(c, dict) else c for c in (d["collections"] if isinstance(d, dict) else d)]
n = r = 0
for name in names:
    s = json.load(urllib.request.urlopen(url + "/v1/collections/" + name + "/stats"))
    n += s["documents"]; r += s["ramBytes"]
print(n, r)
PY
}
id_stats() {
  python3 - "$url" "$1" <<'PY'
import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1] + "/v1/collections/" + sys.argv[2] + "/stats"))
print(s.get("idArrayBytes", 0), s.get("idLengths", 0))
PY
}
data_bytes() {
  local durable scratch
  durable=$(find "$1" -type f ! -name '*.tmp' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }')
  scratch=$(find "$1" -type f -name '*.tmp' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }')
  echo "$durable $scratch"
}
# thread_cpu PID: the CPU ticks (CLK_TCK) each kind of the server's threads has used so far, as
#   "workers jit http log gc other": workers are the batch workers and the singles pool (parse,
#   analyse, decide, store, answer), jit the C1/C2 compiler threads, http Undertow's XNIO threads
#   (bodies in, answers out), log the log writer and force, gc the collector's threads.
thread_cpu() {
  python3 - "$1" <<'PY'
import os, re, sys
pid = sys.argv[1]
kinds = {"workers": 0, "jit": 0, "http": 0, "log": 0, "gc": 0, "other": 0}
rules = [("workers", r"^neardup-(worker|single)"), ("jit", r"Compiler"), ("http", r"^XNIO"),
         ("log", r"^neardup-log"), ("gc", r"^(Z|G1|GC|VM Thread|Concurrent)")]
for t in os.listdir("/proc/%s/task" % pid):
    try:
        s = open("/proc/%s/task/%s/stat" % (pid, t)).read()
    except OSError:
        continue  # the thread ended meanwhile
    name = s[s.index("(") + 1:s.rindex(")")]
    f = s[s.rindex(")") + 2:].split()
    kind = next((k for k, r in rules if re.search(r, name)), "other")
    kinds[kind] += int(f[11]) + int(f[12])
print(" ".join(str(kinds[k]) for k in ("workers", "jit", "http", "log", "gc", "other")))
PY
}
stage_quantiles() {
  python3 - "$1" "$2" "$3" <<'PY'
import re, sys
def read(path, metric):
    buckets, sums, counts, store = {}, {}, {}, {}
    for line in open(path):
        if line.startswith("#"):
            continue
        m = re.match(r'(\w+)\{([^}]*)\} (\S+)', line)
        if not m:
            continue
        name, labels, value = m.group(1), dict(re.findall(r'(\w+)="([^"]*)"', m.group(2))), float(m.group(3))
        if name.startswith("neardup_store_log_fsync"):
            store[name] = value
        if not name.startswith(metric):
            continue
        stage = labels.get("stage")
        if name == metric + "_bucket":
            buckets.setdefault(stage, {})[float(labels["le"])] = value
        elif name == metric + "_sum":
            sums[stage] = value
        elif name == metric + "_count":
            counts[stage] = value
    return buckets, sums, counts, store
b0, s0, c0, st0 = read(sys.argv[1], sys.argv[3])
b1, s1, c1, st1 = read(sys.argv[2], sys.argv[3])
order = ["read", "analyse", "turn", "decide", "render", "durable", "answer"]
for stage in sorted(c1, key=lambda x: order.index(x) if x in order else len(order)):
    n = c1[stage] - c0.get(stage, 0)
    if n <= 0:
        continue
    les = sorted(b1[stage])
    def q(p):
        for le in les:
            if b1[stage][le] - b0.get(stage, {}).get(le, 0) >= p * n:
                return le * 1e3
        return float("inf")
    print("%s stage %s: %d timed, mean %.2f ms, p50 <= %.2f, p90 <= %.2f, p99 <= %.2f ms" % (
        sys.argv[3], stage, n, (s1[stage] - s0.get(stage, 0)) / n * 1e3, q(0.5), q(0.9), q(0.99)))
k, s = "neardup_store_log_fsyncs_total", "neardup_store_log_fsync_seconds_total"
if k in st1:
    n = st1[k] - st0.get(k, 0)
    print("log fsyncs meanwhile: %d, mean %.2f ms" % (n, (st1[s] - st0.get(s, 0)) / max(n, 1) * 1e3))
PY
}
serve_bench_init() {
  local tool
  for tool in jcmd curl python3; do
    command -v "$tool" > /dev/null || { echo "needs $tool" >&2; exit 1; }
  done
  port="${PORT:-$((20000 + RANDOM % 20000))}"
  url="http://127.0.0.1:$port"
  opts="${NEARDUP_JAVA_OPTS:--Xmx4g}"
  work="$(mktemp -d)"
  trap 'serve_kill; rm -rf "$work"' EXIT
}
