#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HBase store's check-and-insert, an older commit and this tree side by side in one run: the
# older commit's tree is exported to a temporary directory and given this tree's benchmark classes
# (HBaseStoreBench, MiniHBase: test code only), then benchmarks/hbase-store.sh runs in the old
# tree and here, ROUNDS times alternately (old first), with the same arguments.
# Usage: benchmarks/hbase-store-vs.sh OLD_COMMIT ROUNDS [hbase-store.sh arguments...]
#   e.g. benchmarks/hbase-store-vs.sh c3f9448 1 2000 20000 200 1000000
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old_commit="$1"
rounds="$2"
shift 2
old="$(mktemp -d /tmp/neardup-hbase-old.XXXXXX)"
trap 'rm -rf "$old"' EXIT
git -C "$root" archive "$old_commit" | tar -x -C "$old"
bench=store-hbase/src/test/java/org/neardup/store/hbase
cp "$root/$bench/HBaseStoreBench.java" "$root/$bench/MiniHBase.java" "$old/$bench/"
cp "$root/benchmarks/hbase-store.sh" "$old/benchmarks/"
# hbase-store.sh prints the commit of the tree it runs in: give the old tree a repository.
git -C "$old" init -q
git -C "$old" add -A
git -C "$old" -c user.name=bench -c user.email=bench@localhost commit -q -m "$old_commit + bench"
for ((i = 1; i <= rounds; i++)); do
  echo "=== round $i: old ($old_commit) ==="
  (cd "$old" && benchmarks/hbase-store.sh "$@")
  echo "=== round $i: new ($(git -C "$root" rev-parse --short HEAD)) ==="
  (cd "$root" && benchmarks/hbase-store.sh "$@")
done
