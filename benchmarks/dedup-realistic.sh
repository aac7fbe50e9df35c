#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# neardup dedup on a corpus with real near-duplicate structure (issue 20, part 2): every document of
# BASE (default: the dev set), then rounds of mutated copies (MutatedCorpus: 1-5% of characters
# replaced, deleted or inserted, some with a tag or a line appended) up to DOCS documents. Runs each
# JAR given (default: the current cli/target/neardup.jar) RUNS times, alternating, with -Xmx1g, and
# prints wall and CPU seconds, peak RSS, the phase times from summary.json, and whether every run
# wrote the same clusters and pairs as the first.
# Usage: benchmarks/dedup-realistic.sh [DOCS] [RUNS] [JAR...]
#   env BASE=path/to/docs.jsonl, WORK=dir (default: a temporary directory, removed at the end)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs="${1:-1000000}"
runs="${2:-3}"
shift $(( $# < 2 ? $# : 2 ))
jars=("$@")
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time: apt-get install time" >&2; exit 1; }
[ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
work="${WORK:-$(mktemp -d)}"
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

(cd "$root" && mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli,benchmarks -am package)
if [ ${#jars[@]} -eq 0 ]; then
  cp "$root/cli/target/neardup.jar" "$work/current.jar"
  jars=("$work/current.jar")
fi
corpus="$work/mutated-$docs.jsonl"
[ -f "$corpus" ] || java -cp "$root/benchmarks/target/benchmarks.jar" org.neardup.benchmarks.MutatedCorpus \
  "$base" "$docs" "$corpus"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "corpus: $docs documents, $(( $(stat -c %s "$corpus") / 1000000 )) MB"

first=""
for r in $(seq 1 "$runs"); do
  for jar in "${jars[@]}"; do
    out="$work/out"
    rm -rf "$out"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" \
      java -Xss4m -Xmx1g -jar "$jar" dedup "$corpus" --out "$out" --quiet --json > "$work/summary.json"
    read -r wall user sys rss < "$work/time"
    phases="$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(f"{k}={v}" for k, v in d["phase_seconds"].items()), "docs/s=%d" % d["documents_per_second"], "found=%d pairs" % d["pairs"])' "$work/summary.json")"
    sig="$(sort "$out/clusters.jsonl" "$out/pairs.jsonl" | sha256sum | cut -c1-16)"
    [ -n "$first" ] || first="$sig"
    same=$([ "$sig" = "$first" ] && echo same || echo DIFFERENT)
    printf '%s run %d: wall %s s, cpu %.1f s, peak RSS %d MB, %s, output %s (%s)\n' \
      "$(basename "$jar")" "$r" "$wall" "$(awk "BEGIN { print $user + $sys }")" $(( rss / 1024 )) "$phases" "$sig" "$same"
  done
done
