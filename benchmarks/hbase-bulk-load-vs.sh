#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# import=hfiles of an older commit and of this tree side by side in one run: the older commit's
# tree is exported to a temporary directory and given this tree's benchmark classes
# (HBaseBulkLoadBench, MiniHBase: test code only), then benchmarks/hbase-bulk-load.sh runs in the
# old tree and here, ROUNDS times alternately (old first), with the same arguments; the last lines
# are each run's fingerprints/s and the new/old ratio of the mean rates.
# Usage: benchmarks/hbase-bulk-load-vs.sh OLD_COMMIT ROUNDS [hbase-bulk-load.sh arguments...]
#   e.g. benchmarks/hbase-bulk-load-vs.sh d39c087 1 1000000 0 3g   (about 4-5 minutes on a quiet box)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/hbase-lib.sh"
old_commit="$1"
rounds="$2"
shift 2
bench=store-hbase/src/test/java/org/neardup/store/hbase
old_tree "$old_commit" "$bench/HBaseBulkLoadBench.java" "$bench/MiniHBase.java" \
  benchmarks/hbase-bulk-load.sh
summary=()
for ((i = 1; i <= rounds; i++)); do
  for side in old new; do
    if [[ $side == old ]]; then dir="$old"; else dir="$root"; fi
    echo "=== round $i: $side ==="
    (cd "$dir" && benchmarks/hbase-bulk-load.sh "$@") | tee "$old/last.txt"
    rate="$(sed -n 's/^import=hfiles: .* = \([0-9,]*\) fingerprints\/s.*/\1/p' "$old/last.txt" | tr -d ,)"
    summary+=("$side ${rate:-none}")
  done
done
echo "=== summary (import=hfiles fingerprints/s) ==="
printf '%s\n' "${summary[@]}"
printf '%s\n' "${summary[@]}" | awk '$2 != "none" { s[$1] += $2; c[$1]++ }
  END { if (c["old"] && c["new"]) printf "new/old: %.2f (old mean %.0f/s, new mean %.0f/s)\n",
    (s["new"] / c["new"]) / (s["old"] / c["old"]), s["old"] / c["old"], s["new"] / c["new"] }'
