#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# import=hfiles of an older commit and of this tree side by side in one run: the older commit's
# tree is exported to a temporary directory and given this tree's benchmark classes
# (HBaseBulkLoadBench, BulkImportProcess, MiniHBase: test code only), then
# benchmarks/hbase-bulk-load.sh runs in the old tree and here, ROUNDS times alternately (old
# first), with the same arguments (and REPEAT=R: R imports per run, on one mini-cluster; FORK=HEAP:
# each import in a JVM of its own, whose CPU per fingerprint is then compared too); the last lines
# are every import's fingerprints/s, each side's median and mean, and new/old of both.
# Usage: benchmarks/hbase-bulk-load-vs.sh OLD_COMMIT ROUNDS [hbase-bulk-load.sh arguments...]
#   e.g. REPEAT=3 benchmarks/hbase-bulk-load-vs.sh 994b434 1 1000000 0 3g   (about 5 minutes quiet)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/hbase-lib.sh"
old_commit="$1"
rounds="$2"
shift 2
bench=store-hbase/src/test/java/org/neardup/store/hbase
old_tree "$old_commit" "$bench/HBaseBulkLoadBench.java" "$bench/BulkImportProcess.java" \
  "$bench/MiniHBase.java" "$bench/Timeline.java" benchmarks/hbase-bulk-load.sh
summary=()
cpu=()
tail=()
for ((i = 1; i <= rounds; i++)); do
  for side in old new; do
    if [[ $side == old ]]; then dir="$old"; else dir="$root"; fi
    echo "=== round $i: $side ==="
    (cd "$dir" && benchmarks/hbase-bulk-load.sh "$@") | tee "$old/last.txt"
    rates="$(sed -n 's/^import=hfiles: .* = \([0-9,]*\) fingerprints\/s.*/\1/p' "$old/last.txt" | tr -d ,)"
    for rate in ${rates:-none}; do
      summary+=("$side $rate")
    done
    # The bulk load's seconds after the writing ended (the part of the load not overlapped).
    for sec in $(sed -n 's/^import=hfiles: .* bulk load \([0-9.]*\) s).*/\1/p' "$old/last.txt"); do
      tail+=("$side $sec")
    done
    # With FORK=HEAP: the importer JVM's CPU per fingerprint.
    for us in $(sed -n 's/^import=hfiles: .* = \([0-9.]*\) µs per fingerprint.*/\1/p' "$old/last.txt"); do
      cpu+=("$side $us")
    done
  done
done
# Prints each side's median and mean of the values in lines "side value", and new/old of both.
compare() {
  awk -v unit="$1" '$2 != "none" { v[$1, ++c[$1]] = $2; s[$1] += $2 }
  function median(side,   n, i, j, t, a) {
    n = c[side]
    for (i = 1; i <= n; i++) a[i] = v[side, i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END { if (c["old"] && c["new"]) {
    mo = median("old"); mn = median("new")
    printf "old: median %.2f %s, mean %.2f (%d imports)\n", mo, unit, s["old"] / c["old"], c["old"]
    printf "new: median %.2f %s, mean %.2f (%d imports)\n", mn, unit, s["new"] / c["new"], c["new"]
    printf "new/old: %.2f by medians, %.2f by means\n", mn / mo, (s["new"] / c["new"]) / (s["old"] / c["old"]) } }'
}
echo "=== summary (import=hfiles fingerprints/s) ==="
printf '%s\n' "${summary[@]}"
printf '%s\n' "${summary[@]}" | compare "fingerprints/s"
if ((${#tail[@]} > 0)); then
  echo "=== summary (seconds of bulk load after the writing ended) ==="
  printf '%s\n' "${tail[@]}" | compare "s"
fi
if ((${#cpu[@]} > 0)); then
  echo "=== summary (the importer JVM's CPU per fingerprint, FORK=HEAP) ==="
  printf '%s\n' "${cpu[@]}"
  printf '%s\n' "${cpu[@]}" | compare "µs CPU per fingerprint"
fi
