#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HBase store's check-and-insert (benchmarks/hbase-store.sh) with HBase in a JVM of its own:
# `neardup dev hbase` (ZooKeeper, master and region server in one process, data on the local disk
# under DATA) is started here, the benchmark's client runs in the test JVM, and the report gives the
# CPU per document of each: the test JVM's by thread (caller, HBase client, JIT, GC) and the HBase
# process's from /proc (RPC handlers, JIT, GC, WAL, ...). The data stays in DATA: a later run with
# the same STORED uses the preloaded collection again, with new documents of its own.
# Usage: benchmarks/hbase-store-apart.sh DATA [hbase-store.sh arguments...]
#   e.g. STORED=1000000 WARM=20000 SINGLES=200 benchmarks/hbase-store-apart.sh /work/data-hbase/apart 4000 0 200 0
#   Environment as hbase-store.sh (HEAP is the client's, default 1g here; BULK_DIR defaults to
#   DATA/bulk, on the file system the HBase reads); SERVER_HEAP the HBase JVM's heap (default 2g);
#   PORT ZooKeeper's port (default 21817).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$(mkdir -p "$1" && cd "$1" && pwd)"
shift
port="${PORT:-21817}"
log="$data/dev-hbase.log"
NEARDUP_JAVA_OPTS="-Xmx${SERVER_HEAP:-2g}" "$root/neardup" dev hbase --port "$port" --data "$data" \
  >"$log" 2>&1 &
pid=$!
stop() {
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
trap stop EXIT
for ((i = 0; i < 600; i++)); do
  grep -qx ready "$log" && break
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$log" >&2
    exit 1
  fi
  sleep 1
done
grep -qx ready "$log" || { echo "neardup dev hbase did not get ready in 600 s" >&2; exit 1; }
echo "HBase: neardup dev hbase, pid $pid, ZooKeeper 127.0.0.1:$port, data $data"
ZOOKEEPER="127.0.0.1:$port" SERVER_PID="$pid" HEAP="${HEAP:-1g}" BULK_DIR="${BULK_DIR:-$data/bulk}" \
  "$root/benchmarks/hbase-store.sh" "$@"
