#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two builds' warm fingerprinting side by side in one JVM (benchmarks/passes/FingerprintPassesAB):
# each build's jar in a class loader of its own, passes over the same texts alternating between
# them, the thread CPU of every pass, the medians after the warm-up and B / A, and whether the
# builds' fingerprints agree. On a loaded machine this compares builds far better than separate
# processes do: both share the moment's load, cache pressure and core. The JVM favours the build
# it loads first (one build against itself read 1.059 at load ~20), so the script runs two JVMs,
# A first then B first, and prints the geometric mean of the two B / A ratios, where that cancels.
#
#   benchmarks/fingerprint-passes-ab.sh INPUT.jsonl A.jar B.jar [PASSES]
#
# INPUT.jsonl: records with a "text" field; A.jar, B.jar: builds' cli/target/neardup.jar.
# CORE (default 0) is the core the JVM runs on; NEARDUP_JAVA_OPTS is passed to the JVM.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
input="$(realpath "$1")"
a="$(realpath "$2")"
b="$(realpath "$3")"
passes="${4:-20}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$input" "$work/texts" <<'PY'
import json, sys
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("\0".join(json.loads(line)["text"] for line in open(sys.argv[1], encoding="utf-8")))
PY
javac -d "$work/classes" "$root/benchmarks/passes/FingerprintPassesAB.java"
run() { # FIRST SECOND
  taskset -c "${CORE:-0}" java -Xss4m -Xmx2g ${NEARDUP_JAVA_OPTS:-} -cp "$work/classes" \
    FingerprintPassesAB "$work/texts" "$1" "$2" "$passes"
}
echo "== A = $a first"
run "$a" "$b" | tee "$work/ab"
echo "== B = $b first (its A and B are the other way round)"
run "$b" "$a" | tee "$work/ba"
python3 - "$work/ab" "$work/ba" <<'PY'
import re, sys
ab = float(re.search(r"B/A ([0-9.]+)", open(sys.argv[1]).read()).group(1))
ba = float(re.search(r"B/A ([0-9.]+)", open(sys.argv[2]).read()).group(1))
print(f"B / A: {ab:.3f} with A first, {1 / ba:.3f} with B first; geometric mean {(ab / ba) ** 0.5:.3f}")
PY
