#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HBase store's check-and-insert, an older commit and this tree side by side in one run: the
# older commit's tree is exported to a temporary directory and given this tree's benchmark classes
# (HBaseStoreBench, MiniHBase: test code only), then benchmarks/hbase-store.sh runs in the old
# tree and here, ROUNDS times alternately (old first), with the same arguments; then a summary of
# the batch phases' CPU per document, old against new round by round (hbase-store-vs.awk).
# Usage: benchmarks/hbase-store-vs.sh OLD_COMMIT ROUNDS [hbase-store.sh arguments...]
#   e.g. benchmarks/hbase-store-vs.sh c3f9448 1 2000 20000 200 1000000
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/hbase-lib.sh"
old_commit="$1"
rounds="$2"
shift 2
bench=store-hbase/src/test/java/org/neardup/store/hbase
old_tree "$old_commit" "$bench/HBaseStoreBench.java" "$bench/MiniHBase.java" \
  benchmarks/hbase-store.sh
out="$(mktemp /tmp/neardup-hbase-vs.XXXXXX)"
trap 'rm -rf "$old" "$out"' EXIT
for ((i = 1; i <= rounds; i++)); do
  echo "=== round $i: old ($old_commit) ===" | tee -a "$out"
  (cd "$old" && benchmarks/hbase-store.sh "$@") | tee -a "$out"
  echo "=== round $i: new ($(git -C "$root" rev-parse --short HEAD)) ===" | tee -a "$out"
  (cd "$root" && benchmarks/hbase-store.sh "$@") | tee -a "$out"
done
awk -f "$root/benchmarks/hbase-store-vs.awk" "$out"
