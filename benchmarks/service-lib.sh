# SPDX-License-Identifier: Apache-2.0
# What the service benchmark scripts share (sourced, not run): a `neardup serve` of a given jar on
# a loopback port, in the background, waited for until it answers /ready, and its stop.
# Needs, before sourcing: $work (where serve.out and serve.err go), $port and $url; and
# dist/src/bin/java-defaults.sh sourced (neardup_java_defaults).
# serve_start JAR HEAP [SERVE_ARGS...]: starts java itself (not a function or a subshell, so that
#   $pid is java's and killing it leaves nothing behind) with the launcher's flags and -Xmx HEAP
#   plus $JAVA_EXTRA; sets pid, and ready (seconds from start to /ready). Exits 1 with the server's
#   stderr if it dies before it is ready.
# serve_stop: stops it and waits until the port answers no more, so the next server can bind it.
pid=""
ready=""
serve_start() {
  local jar="$1" opts="-Xmx$2 ${JAVA_EXTRA:-}" t0
  shift 2
  # shellcheck disable=SC2046,SC2086
  java $(NEARDUP_JAVA_OPTS="$opts" neardup_java_defaults serve) $opts -jar "$jar" serve \
    --port "$port" "$@" > "$work/serve.out" 2> "$work/serve.err" &
  pid=$!
  t0=$(date +%s.%N)
  until curl -sf "$url/ready" > /dev/null; do
    sleep 0.1
    kill -0 "$pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  done
  ready=$(echo "$(date +%s.%N) - $t0" | bc)
}
serve_stop() {
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  while curl -s "$url/health" > /dev/null; do sleep 0.2; done
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
