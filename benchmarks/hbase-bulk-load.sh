#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Import of precomputed fingerprints into HBase from a dump, import=hfiles (sorted HFiles + bulk
# load) for N records and import=puts for P records, side by side on one mini-cluster in one JVM
# (store-hbase's HBaseBulkLoadBench). Prints store-hbase/target/hbase-bulk-load.txt.
# Usage: benchmarks/hbase-bulk-load.sh [N] [P] [HEAP]   (defaults 1000000 100000 4g; the issue's
#   figure is N = 10000000, which needs about 3 GB of heap and 4 GB of disk under store-hbase/target)
# JFR_DIR=dir records a Java Flight Recording of the test JVM to dir/bulk-<commit>.jfr.
# SCHEME=5:2 imports with that block scheme (default 4:1); COMPACT=1 then flushes and major-compacts
# each import's tables and prints their bytes on disk per fingerprint. FORK=HEAP runs each import in
# a JVM of its own with that heap (the mini-cluster keeps HEAP to itself), e.g. FORK=3g for 10M.
# REPEAT=R runs the hfiles import R times on the one mini-cluster (tables of their own each).
# FORK_FLAGS="A|B" adds JVM flags to the importer's JVM (with FORK): the rounds take the sets in
# turn (e.g. REPEAT=4 FORK_FLAGS="-da|-da -XX:+UseParallelGC" alternates two).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
echo "commit: $(git rev-parse --short HEAD)"
jfr=()
if [[ -n "${JFR_DIR:-}" ]]; then
  jfr=("-Dtest.jvm.args=-ea -Xss4m -Duser.language=hi -Duser.country=IN -Dfile.encoding=UTF-8 -XX:StartFlightRecording=filename=$JFR_DIR/bulk-$(git rev-parse --short HEAD).jfr,settings=profile")
fi
mvn -B -ntp -q -pl store-hbase -am verify -Dsurefire.failIfNoSpecifiedTests=false "${jfr[@]}" \
  -Dtest=HBaseBulkLoadBench -Dneardup.hbase.bulk="${1:-1000000}" \
  -Dneardup.hbase.puts="${2:-100000}" -Dhbase.test.heap="${3:-4g}" -Dhbase.test.timeout=5400 \
  -Dneardup.hbase.scheme="${SCHEME:-4:1}" -Dneardup.hbase.fork="${FORK:-}" \
  -Dneardup.hbase.fork.flags="${FORK_FLAGS:-}" \
  -Dneardup.hbase.rounds="${REPEAT:-1}" -Dneardup.hbase.compact="$([[ ${COMPACT:-0} == 1 ]] && echo true || echo false)" ||
  echo "(maven reported a failure: HBase's threads can hold the test JVM past its exit; the report is below)"
cat store-hbase/target/hbase-bulk-load.txt
