#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Check-and-insert through the HBase store on a mini-cluster in one JVM, or an HBase of its own
# (ZOOKEEPER below) (store-hbase's
# HBaseStoreBench): verified documents in batches and as single calls from 16 threads, then
# fingerprints only with the 4:1 and 5:2 block schemes side by side (block rows per check, bytes per
# fingerprint on disk after a flush and a major compaction). Prints store-hbase/target/hbase-bench.txt.
# Usage: benchmarks/hbase-store.sh [VERIFIED_DOCS] [FINGERPRINTS_PER_SCHEME] [BATCH] [PRELOAD]
#   (defaults 20000 200000 200 0); with PRELOAD > 0 each scheme's collection first gets PRELOAD
#   random fingerprints by HFile import, and the fingerprints are checked against them (no size
#   on disk then). The mini-cluster and the client share this machine's cores.
#   Environment: SINGLES=S single calls after the batches (default VERIFIED_DOCS / 10);
#   WARM=W verified documents in batches into a collection of their own first, not counted (the
#   steady state: JIT and start-up out of the figure); STORED=V verified documents imported into
#   the verified collection first (random fingerprints and band keys, real sketches);
#   JFR=FILE records a flight recording of the test JVM (client and mini-cluster) into FILE;
#   HEAP=SIZE the test JVM's heap (default 3g; PRELOAD=10000000 needs 4g);
#   SCHEME=m:r the verified documents' block scheme (default 4:1; the preload's too); a list
#   (SCHEME=4:1,5:2) runs the benchmark once per scheme, each in a JVM of its own, one after the
#   other; WARM_PART=P reports the warm-up in parts of P documents (each with its CPU split);
#   INDEX_FAMILY="key=value ..." the store's index-family options (see HBaseStoreProvider);
#   CAPACITY=C the verified collections' sketch capacity (default the settings' 512);
#   PRELOAD_PART=P the STORED preload in imports of P documents each, one unregistered collection
#   completed after the last (10M verified documents in one import need ~5-6 GB of heap);
#   IMPORT_ENCODING=family the preloads' files in the families' block encodings (less disk before
#   the first major compaction); BULK_DIR=DIR where the preloads stage their files (default /tmp);
#   VERIFIED_BYTES=1 the verified tables' bytes on disk after a flush and a major compaction, per
#   document: right after the STORED preload (so the checks meet compacted tables), or after the
#   verified phases when there is none; RETENTION=D the verified collections' retention (ISO-8601,
#   PT0S: kept forever, no TTL tags or expiry rows; default the settings' 48 hours);
#   ZOOKEEPER=HOST:PORT an HBase in another process instead of the mini-cluster (see
#   hbase-store-apart.sh), SERVER_PID=PID that process, whose CPU per document the report gives by
#   kind of thread beside the test JVM's; FP_SCHEMES=4:1 (or 5:2) the fingerprints phase in that
#   scheme only (default both, one after the other in the same mini-cluster); FILTER_AB=R instead
#   of the fingerprints phase, the region servers' distance filter (store option server-filter)
#   off and on side by side on one collection of PRELOAD fingerprints, R rounds of
#   FINGERPRINTS_PER_SCHEME new fingerprints per side, the side going first alternating, then the
#   medians of the rounds' on / off ratios (on the mini-cluster: it imports its collection each run);
#   with AB_OPTION=NAME AB_VALUES=OLD,NEW another store option's two values instead of the filter's
#   (e.g. AB_OPTION=scan-read AB_VALUES=default,pread).
#   PURGE=N after the rest, a drop's purge of N verified documents (SCHEME's, CAPACITY and
#   RETENTION as above) one slice at a time against four under way (the default), PURGE_ROUNDS=R
#   rounds (default 1) of two imported collections dropped one after the other, the first
#   alternating; progress every 10 s, then the medians of the rounds' ratios;
#   GC_LOG=FILE the test JVM's collections logged into FILE (-Xlog:gc);
#   RS_CONF="key=value ..." the mini-cluster's settings (e.g. an off-heap BucketCache of 3 GB:
#   RS_CONF="hbase.bucketcache.ioengine=offheap hbase.bucketcache.size=3072" with
#   HEAP="3g -XX:MaxDirectMemorySize=4g": HEAP's words all go on the test JVM's command line);
#   STEP_LIMIT=S each step's bound in seconds (default 600: the mini-cluster's start and stop, an
#   import, a phase of batches or singles, an A/B side's round, a flush and major compaction): a
#   step still running after it names itself in the report's last line (STALLED: ...), writes
#   every thread's stack to store-hbase/target/hbase-bench-stall-threads.txt and ends the run,
#   which then exits 2. A 10M verified preload with VERIFIED_BYTES needs more (e.g. 2400).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
echo "commit: $(git rev-parse --short HEAD)"
if [[ "${SCHEME:-}" == *,* ]]; then
  IFS=, read -ra schemes <<<"$SCHEME"
  for s in "${schemes[@]}"; do
    echo "=== scheme $s ==="
    SCHEME="$s" "$0" "$@"
  done
  exit 0
fi
# A run ended by its step limit leaves its mini-cluster's files (up to ~3 GB at 10M).
rm -rf store-hbase/target/test-data
mvn -B -ntp -q -pl store-hbase -am verify -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtest=HBaseStoreBench -Dneardup.hbase.bench="${1:-20000}" \
  -Dneardup.hbase.schemes="${2:-200000}" -Dneardup.hbase.batch="${3:-200}" \
  -Dneardup.hbase.preload="${4:-0}" -Dhbase.test.heap="${HEAP:-3g}" -Dhbase.test.timeout=3600 \
  ${SINGLES:+-Dneardup.hbase.singles=$SINGLES} ${WARM:+-Dneardup.hbase.warm=$WARM} \
  ${STORED:+-Dneardup.hbase.verified-preload=$STORED} \
  ${SCHEME:+-Dneardup.hbase.verified-scheme=$SCHEME} \
  ${WARM_PART:+-Dneardup.hbase.warm-part=$WARM_PART} \
  ${INDEX_FAMILY:+"-Dneardup.hbase.index-family=$INDEX_FAMILY"} \
  ${CAPACITY:+-Dneardup.hbase.capacity=$CAPACITY} \
  ${PRELOAD_PART:+-Dneardup.hbase.preload-part=$PRELOAD_PART} \
  ${IMPORT_ENCODING:+-Dneardup.hbase.import-encoding=$IMPORT_ENCODING} \
  ${BULK_DIR:+-Dneardup.hbase.bulk-dir=$BULK_DIR} \
  ${VERIFIED_BYTES:+-Dneardup.hbase.verified-bytes=true} \
  ${RETENTION:+-Dneardup.hbase.retention=$RETENTION} \
  ${ZOOKEEPER:+-Dneardup.hbase.zookeeper=$ZOOKEEPER} \
  ${SERVER_PID:+-Dneardup.hbase.server-pid=$SERVER_PID} \
  ${FP_SCHEMES:+-Dneardup.hbase.fp-schemes=$FP_SCHEMES} \
  ${FILTER_AB:+-Dneardup.hbase.filter-ab=$FILTER_AB} \
  ${STEP_LIMIT:+-Dneardup.hbase.step-limit=$STEP_LIMIT} \
  ${RS_CONF:+"-Dneardup.hbase.rs-conf=$RS_CONF"} \
  ${PURGE:+-Dneardup.hbase.purge=$PURGE} ${PURGE_ROUNDS:+-Dneardup.hbase.purge-rounds=$PURGE_ROUNDS} \
  ${AB_OPTION:+-Dneardup.hbase.ab-option=$AB_OPTION} ${AB_VALUES:+-Dneardup.hbase.ab-values=$AB_VALUES} \
  ${JFR:+"-Dtest.jvm.args=-ea -Xss4m -Duser.language=hi -Duser.country=IN -Dfile.encoding=UTF-8 -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=settings=profile,filename=$JFR"} \
  ${GC_LOG:+"-Dtest.jvm.args=-ea -Xss4m -Duser.language=hi -Duser.country=IN -Dfile.encoding=UTF-8 -Xlog:gc:file=$GC_LOG"} ||
  echo "(maven reported a failure: HBase's threads can hold the test JVM past its exit; the report is below)"
cat store-hbase/target/hbase-bench.txt
if grep -q '^STALLED' store-hbase/target/hbase-bench.txt; then
  rm -rf store-hbase/target/test-data
  exit 2
fi
