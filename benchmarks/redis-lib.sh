# SPDX-License-Identifier: Apache-2.0
# What the Redis benchmark scripts share (sourced, not run): a fresh redis-server on a free loopback
# port in a temp dir (no persistence, on the same cores as the loaders), stopped and removed on
# exit; the build of benchmarks.jar (BUILD=0 skips it, JAR=path runs another build); the machine
# and commit header; redis-server's CPU seconds so far (rcpu) and what share of the cores it used
# since a point (cpu); its commands' own time per stored document (usec, from INFO commandstats).
# After sourcing: $root (the worktree, also the cwd), $work, $port, $jar.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --pidfile "$work/redis.pid" --logfile "$work/redis.log"
cleanup() {
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
[ "${BUILD:-1}" = 0 ] || mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl benchmarks -am package
jar="${JAR:-benchmarks/target/benchmarks.jar}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD); jar: $jar; redis-server $(redis-server --version | cut -d' ' -f3)"
# redis-server's CPU seconds (user + sys, all threads) so far.
rcpu() { redis-cli -p "$port" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ {s += $2} END {printf "%.2f", s}'; }
# cpu TAG CPU0 T0: what fraction of the machine's cores redis-server used since T0.
cpu() {
  local c1 t1
  c1=$(rcpu); t1=$(date +%s.%N)
  echo "$1: redis-server used $(echo "$c1 - $2" | bc) s of CPU in $(printf '%.1f' "$(echo "$t1 - $3" | bc)") s" \
    "($(printf '%.0f' "$(echo "100 * ($c1 - $2) / ($t1 - $3) / $(nproc)" | bc -l)")% of the $(nproc) cores)"
}
# per_doc TAG DOCS: redis-server's CPU per document since the last per_doc (or the start), and per
# command its calls and microseconds per document (INFO commandstats; a script's inner calls are
# counted in the script and again under their own names); then resets the command stats.
cpu0=0
per_doc() {
  local c
  c=$(rcpu)
  echo "$1: redis-server CPU $(echo "1000000 * ($c - $cpu0) / $2" | bc -l | xargs printf '%.1f') us per document;" \
    "per document: $(redis-cli -p "$port" info commandstats | tr -d '\r' \
      | sed -n 's/^cmdstat_\([a-z|]*\):calls=\([0-9]*\),usec=\([0-9]*\),.*/\1 \2 \3/p' \
      | awk -v n="$2" '$1 != "info" && $1 != "config|resetstat" && $2 >= n / 100 {printf "%s %.2f calls %.1f us; ", $1, $2 / n, $3 / n}')"
  redis-cli -p "$port" config resetstat > /dev/null
  cpu0=$(rcpu)
}
