#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# neardup dedup on a corpus with real near-duplicate structure (issue 20, part 2): every document of
# BASE (default: the dev set), then rounds of mutated copies (MutatedCorpus: 1-5% of characters
# replaced, deleted or inserted, some with a tag or a line appended) up to DOCS documents. Runs each
# JAR given (default: the current cli/target/neardup.jar) RUNS times, alternating, with -Xmx1g and the
# JVM flags `neardup dedup` runs with from that jar's own tree (see DEFAULTS below), and
# prints wall and CPU seconds, peak RSS, the phase times (and, from jars that write them, the
# phases' CPU seconds and the pairs phase's counts) from summary.json, and whether every run wrote
# the same clusters and pairs as the first, and the same unique and duplicate records.
# Usage: benchmarks/dedup-realistic.sh [DOCS] [RUNS] [JAR...]
#   env BASE=path/to/docs.jsonl, BASES=N (base texts: BASE's documents, then mixes of their
#   sentences up to N, so that a large corpus keeps the copies per text of a small one: 10M with
#   BASES=270000 has the 37 copies per text of 1M from the dev set; see MutatedCorpus),
#   WORK=dir (default: a temporary directory, removed at the end),
#   CORES="2 1" (default 2: each run on every core; 1 pins a run to one core with taskset, so
#   "2 1" runs each jar both ways, side by side), HEAP=1g (the -Xmx of each run),
#   DEDUP_OPTS="..." (more options for every dedup run, e.g. --columns-in-heap-up-to 0),
#   RSS_LOG=file (appends, every 2 s of each run, the seconds since its start and the process's
#   RssAnon, RssFile and VmHWM in kB from /proc: what the resident set is made of, over time),
#   DEFAULTS=launcher|none (launcher, the default: each jar runs with the flags its tree's launcher
#   gives dedup, from JAR/../../dist/src/bin/java-defaults.sh for a jar in a tree's cli/target,
#   else from this tree's, as `NEARDUP_JAVA_OPTS=-XmxHEAP neardup dedup` runs; none: -Xss4m only)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs="${1:-1000000}"
runs="${2:-3}"
shift $(( $# < 2 ? $# : 2 ))
jars=("$@")
cores="${CORES:-2}"
heap="${HEAP:-1g}"
base="${BASE:-$root/../shared/data/dev/docs.jsonl}"
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time: apt-get install time" >&2; exit 1; }
work="${WORK:-$(mktemp -d)}"
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

bases="${BASES:-}"
corpus="$work/mutated-$docs${bases:+-b$bases}.jsonl"
# The base texts are needed only to write a corpus that is not there yet.
[ -f "$corpus" ] || [ -f "$base" ] || { echo "no base corpus at $base (set BASE)" >&2; exit 2; }
# Build only what is missing: the current jar when none is given, the generator when the corpus is.
if [ ${#jars[@]} -eq 0 ] || [ ! -f "$corpus" ]; then
  (cd "$root" && mvn -q -B -DskipTests -Dforbiddenapis.skip=true -pl cli,benchmarks -am package)
fi
if [ ${#jars[@]} -eq 0 ]; then
  cp "$root/cli/target/neardup.jar" "$work/current.jar"
  jars=("$work/current.jar")
fi
[ -f "$corpus" ] || java -cp "$root/benchmarks/target/benchmarks.jar" org.neardup.benchmarks.MutatedCorpus \
  "$base" "$docs" "$corpus" ${bases:+20261124 "$bases"}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "corpus: $docs documents, $(( $(stat -Lc %s "$corpus") / 1000000 )) MB"

# The flags the launcher of the jar's tree gives `neardup dedup` (the user's -Xmx after them).
launcher_flags() {
  local tree defaults_sh
  if [ "${DEFAULTS:-launcher}" = none ]; then
    echo "-Xss4m"
    return
  fi
  tree="$(cd "$(dirname "$1")/../.." && pwd)"
  defaults_sh="$tree/dist/src/bin/java-defaults.sh"
  [ -f "$defaults_sh" ] || defaults_sh="$root/dist/src/bin/java-defaults.sh"
  # shellcheck disable=SC1090 # the jar's own tree's file
  (NEARDUP_JAVA_OPTS="-Xmx$heap" && . "$defaults_sh" && neardup_java_defaults dedup)
}

first=""
for r in $(seq 1 "$runs"); do
  for jar in "${jars[@]}"; do
    for n in $cores; do
      out="$work/out"
      rm -rf "$out"
      pin=()
      [ "$n" = 1 ] && pin=(taskset -c 0)
      read -r -a flags <<< "$(launcher_flags "$jar")"
      /usr/bin/time -f "%e %U %S %M" -o "$work/time" \
        "${pin[@]}" java "${flags[@]}" "-Xmx$heap" -jar "$jar" dedup "$corpus" --out "$out" --quiet --json ${DEDUP_OPTS:-} > "$work/summary.json" &
      timer=$!
      if [ -n "${RSS_LOG:-}" ]; then
        echo "# $(basename "$jar") run $r, $n core(s): seconds RssAnon RssFile VmHWM (kB)" >> "$RSS_LOG"
        start=$SECONDS
        while kill -0 "$timer" 2>/dev/null; do
          child="$(cut -d' ' -f1 "/proc/$timer/task/$timer/children" 2>/dev/null || true)"
          if [ -n "$child" ] && [ -r "/proc/$child/status" ]; then
            awk -v t=$((SECONDS - start)) '/^(RssAnon|RssFile|VmHWM):/ { v[$1] = $2 }
              END { if (length(v)) print t, v["RssAnon:"], v["RssFile:"], v["VmHWM:"] }' "/proc/$child/status" >> "$RSS_LOG" || true
          fi
          sleep 2
        done
      fi
      wait "$timer"
      read -r wall user sys rss < "$work/time"
      phases="$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
parts = [" ".join(f"{k}={v}" for k, v in d["phase_seconds"].items())]
if "phase_cpu_seconds" in d:
    parts.append("cpu: " + " ".join(f"{k}={v}" for k, v in d["phase_cpu_seconds"].items()))
if "pairs_phase" in d:
    parts.append("pairs phase: " + " ".join(f"{k}={v}" for k, v in d["pairs_phase"].items()))
parts.append("docs/s=%d found=%d pairs" % (d["documents_per_second"], d["pairs"]))
print(", ".join(parts))' "$work/summary.json")"
      sig="$(sort "$out/clusters.jsonl" "$out/pairs.jsonl" | sha256sum | cut -c1-16)"
      [ -n "$first" ] || first="$sig"
      same=$([ "$sig" = "$first" ] && echo same || echo DIFFERENT)
      # The records copied to unique.jsonl and duplicates.jsonl, in their order (read again from
      # the input by newer jars, spilled by older ones): the same bytes in every run.
      recs="$(cat "$out/unique.jsonl" "$out/duplicates.jsonl" | sha256sum | cut -c1-16)"
      [ -n "${first_recs:-}" ] || first_recs="$recs"
      recs_same=$([ "$recs" = "$first_recs" ] && echo same || echo DIFFERENT)
      printf '%s run %d, %s core(s), flags %s: wall %s s, cpu %.1f s, peak RSS %d MB, %s, output %s (%s), records %s (%s)\n' \
        "$(basename "$jar")" "$r" "$n" "${flags[*]}" "$wall" "$(awk "BEGIN { print $user + $sys }")" $(( rss / 1024 )) "$phases" "$sig" "$same" "$recs" "$recs_same"
    done
  done
done
