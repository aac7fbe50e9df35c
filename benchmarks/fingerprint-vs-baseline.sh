#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `neardup fingerprint` as a user runs it (the whole process, one core) against a plain Java TF-IDF
# simhash built on jieba-analysis 1.0.2 from Maven Central, measured warm in its own process on the
# same texts; then English and mixed text against Lucene's StandardAnalyzer (lucene-core 9.12.3) and a
# plain letters-and-digits tokenizer, each with the same top-20 sign vector; then start-up. The baseline (benchmarks/baseline/BaselineSimhash.java) is
# compiled here against jars fetched with `mvn dependency:copy`; it is never a dependency of the
# product.
#
#   benchmarks/fingerprint-vs-baseline.sh [DOCS.jsonl] [MEGABYTES] [PARTS]
#
# DOCS.jsonl defaults to ../shared/data/dev/docs.jsonl (fields id, lang, text); MEGABYTES (default
# 100) is how much text (UTF-8 bytes of the text fields) each measurement covers: the documents are
# repeated to that size. MB/s is always MB of text fields per second of wall time. PARTS (default
# "zh en mixed") picks the measurements: "zh en" leaves out the mixed text (a quiet run of all three
# took 5-6 minutes). Start-up is always measured.
#
# OLD_JAR=path/to/another/neardup.jar (an earlier build's cli/target/neardup.jar) adds that build's
# whole process on the same zh file, run right after this build's, as ./neardup runs a jar (this
# checkout's launcher flags and a class-data archive trained for that jar, beside a copy of it under
# benchmarks/target), with the ratio of the two builds' MB/s and each one's ratio to the baseline;
# and that build's start-up (--help, first fingerprint) in the same rounds as this one's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs="$(realpath "${1:-$root/../shared/data/dev/docs.jsonl}")"
mb="${2:-100}"
parts=" ${3:-zh en mixed} "
work="$root/benchmarks/target/fp-baseline"
lib="$work/lib"
mkdir -p "$work" "$lib"
cd "$root"

# The baseline and its jars (Maven Central, outside the product's dependency tree).
for a in com.huaban:jieba-analysis:1.0.2 com.fasterxml.jackson.core:jackson-core:2.20.1 \
    org.apache.lucene:lucene-core:9.12.3; do
  mvn -B -ntp -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy -Dartifact="$a" \
    -DoutputDirectory="$lib" >/dev/null
done
javac -d "$work/classes" -cp "$lib/*" benchmarks/baseline/BaselineSimhash.java
idf="$root/segment-jieba/src/main/resources/org/neardup/segment/jieba/idf.txt.gz"

# The corpora: each language's documents ({"id", "text"} only), and repeated to MEGABYTES of text.
python3 - "$docs" "$work" "$mb" <<'PY'
import json, sys
docs, work, mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
by = {"zh": [], "en": []}
for line in open(docs, encoding="utf-8"):
    d = json.loads(line)
    if d.get("lang") in by:
        by[d["lang"]].append(d["text"])
by["mixed"] = [z + "\n" + e for z, e in zip(by["zh"], by["en"])]
for lang, texts in by.items():
    with open(f"{work}/{lang}-once.jsonl", "w", encoding="utf-8") as f:
        for i, t in enumerate(texts):
            f.write(json.dumps({"id": f"{lang}{i}", "text": t}, ensure_ascii=False) + "\n")
    size, rep = 0, 0
    with open(f"{work}/{lang}.jsonl", "w", encoding="utf-8") as f:
        while size < mb * 1e6:
            for i, t in enumerate(texts):
                f.write(json.dumps({"id": f"{lang}{rep}.{i}", "text": t}, ensure_ascii=False) + "\n")
                size += len(t.encode("utf-8"))
            rep += 1
    print(f"{lang}: {len(texts)} documents, repeated {rep} times: {size / 1e6:.1f} MB of text")
    open(f"{work}/{lang}.mb", "w").write(f"{size / 1e6:.3f}\n")
PY

./neardup --help >/dev/null # builds the jar if needed, outside the timings

now() { date +%s.%N; }
neardup_mbs() { # LANG: whole process, one core
  local t0 t1
  t0=$(now)
  taskset -c 0 ./neardup fingerprint "$work/$1.jsonl" >"$work/$1.out"
  t1=$(now)
  python3 -c "import sys; mb=float(open(sys.argv[1]).read()); s=float(sys.argv[3])-float(sys.argv[2]); print(f'neardup $1: {mb:.1f} MB in {s:.2f} s: {mb/s:.2f} MB/s')" \
    "$work/$1.mb" "$t0" "$t1" | tee "$work/$1.neardup"
}
baseline_mbs() { # LANG KIND
  taskset -c 0 java -cp "$work/classes:$lib/*" BaselineSimhash "$2" "$work/$1-once.jsonl" "$idf" "$mb" \
    | tee "$work/$1.$2.baseline"
}
ratio() { # LANG KIND
  python3 -c "import re,sys; a=float(re.search(r'([0-9.]+) MB/s',open(sys.argv[1]).read()).group(1)); b=float(re.search(r'([0-9.]+) MB/s',open(sys.argv[2]).read()).group(1)); print(f'ratio $1 ($2 baseline): {a/b:.2f}x')" \
    "$work/$1.neardup" "$work/$1.$2.baseline"
}

old_mbs() { # LANG: the OLD_JAR build's whole process, one core, as ./neardup runs a jar
  local t0 t1 jar="$work/old/neardup.jar"
  mkdir -p "$work/old"
  cmp -s "$OLD_JAR" "$jar" || cp "$OLD_JAR" "$jar"
  (. dist/src/bin/cds.sh && neardup_cds_archive "$work/old/neardup.jsa" "$jar" java -jar "$jar")
  t0=$(now)
  # shellcheck disable=SC2046 # the flags are words
  taskset -c 0 java $(. dist/src/bin/java-defaults.sh && neardup_java_defaults fingerprint) \
    -XX:SharedArchiveFile="$work/old/neardup.jsa" -Xlog:cds=off,cds+dynamic=off -jar "$jar" \
    fingerprint "$work/$1.jsonl" >"$work/$1.old.out"
  t1=$(now)
  python3 -c "import sys; mb=float(open(sys.argv[1]).read()); s=float(sys.argv[3])-float(sys.argv[2]); print(f'OLD_JAR $1: {mb:.1f} MB in {s:.2f} s: {mb/s:.2f} MB/s')" \
    "$work/$1.mb" "$t0" "$t1" | tee "$work/$1.old"
  cmp -s "$work/$1.out" "$work/$1.old.out" && echo "OLD_JAR $1: output byte-identical" ||
    echo "OLD_JAR $1: OUTPUT DIFFERS"
}

if [[ "$parts" == *" zh "* ]]; then
  echo "== Chinese: neardup fingerprint (whole process, taskset -c 0) against jieba-analysis TF-IDF simhash (warm, taskset -c 0)"
  neardup_mbs zh
  if [ -n "${OLD_JAR:-}" ]; then
    old_mbs zh
  fi
  baseline_mbs zh zh
  ratio zh zh
  if [ -n "${OLD_JAR:-}" ]; then
    python3 -c "import re,sys; f=lambda p: float(re.search(r'([0-9.]+) MB/s',open(p).read()).group(1)); n,o,b=f(sys.argv[1]),f(sys.argv[2]),f(sys.argv[3]); print(f'OLD_JAR zh: ratio to the baseline {o/b:.2f}x; this build / OLD_JAR {n/o:.3f}')" \
      "$work/zh.neardup" "$work/zh.old" "$work/zh.zh.baseline"
  fi
fi
if [[ "$parts" == *" en "* ]]; then
  echo "== English: against Lucene's StandardAnalyzer and a letters-and-digits tokenizer, same simhash"
  neardup_mbs en
  baseline_mbs en lucene
  baseline_mbs en letters
  ratio en lucene
  ratio en letters
fi
if [[ "$parts" == *" mixed "* ]]; then
  echo "== Mixed: the same baselines, and jieba's"
  neardup_mbs mixed
  baseline_mbs mixed lucene
  baseline_mbs mixed letters
  baseline_mbs mixed zh
  ratio mixed lucene
  ratio mixed letters
  ratio mixed zh
fi

echo "== start-up (taskset -c 0; median of 5; with the class-data archive and with NEARDUP_CDS=0, alternating)"
median() { sort -n | sed -n 3p; }
head -1 "$work/zh-once.jsonl" >"$work/one.jsonl"
./neardup fingerprint "$work/one.jsonl" >/dev/null # writes the archive when missing
for cds in 1 0; do
  : >"$work/help.$cds"
  : >"$work/first.$cds"
done
old_java() { # ARGS...: the OLD_JAR build as ./neardup runs a jar (this launcher's flags, its archive)
  # shellcheck disable=SC2046 # the flags are words
  taskset -c 0 java $(. dist/src/bin/java-defaults.sh && neardup_java_defaults fingerprint) \
    -XX:SharedArchiveFile="$work/old/neardup.jsa" -Xlog:cds=off,cds+dynamic=off \
    -jar "$work/old/neardup.jar" "$@"
}
if [ -n "${OLD_JAR:-}" ]; then
  mkdir -p "$work/old"
  cmp -s "$OLD_JAR" "$work/old/neardup.jar" || cp "$OLD_JAR" "$work/old/neardup.jar"
  (. dist/src/bin/cds.sh && neardup_cds_archive "$work/old/neardup.jsa" "$work/old/neardup.jar" \
    java -jar "$work/old/neardup.jar")
  : >"$work/help.old"
  : >"$work/first.old"
fi
for i in 1 2 3 4 5; do
  for cds in 1 0; do
    t0=$(now); NEARDUP_CDS=$cds taskset -c 0 ./neardup fingerprint --help >/dev/null; t1=$(now)
    echo "$t1 - $t0" | bc >>"$work/help.$cds"
    t0=$(now); NEARDUP_CDS=$cds taskset -c 0 ./neardup fingerprint "$work/one.jsonl" >/dev/null; t1=$(now)
    echo "$t1 - $t0" | bc >>"$work/first.$cds"
  done
  if [ -n "${OLD_JAR:-}" ]; then # the older build in the same rounds, with its own archive
    t0=$(now); old_java fingerprint --help >/dev/null; t1=$(now)
    echo "$t1 - $t0" | bc >>"$work/help.old"
    t0=$(now); old_java fingerprint "$work/one.jsonl" >/dev/null; t1=$(now)
    echo "$t1 - $t0" | bc >>"$work/first.old"
  fi
done
for cds in 1 0; do
  echo "NEARDUP_CDS=$cds: neardup fingerprint --help $(median <"$work/help.$cds") s;" \
    "first fingerprint of a one-line input $(median <"$work/first.$cds") s"
done
if [ -n "${OLD_JAR:-}" ]; then
  echo "OLD_JAR (its own archive, same rounds): fingerprint --help $(median <"$work/help.old") s;" \
    "first fingerprint of a one-line input $(median <"$work/first.old") s"
fi
