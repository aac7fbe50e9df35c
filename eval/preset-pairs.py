#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Every pair whose verdict a preset changes, classified by cause, per kind of pair.

Usage: /usr/bin/python3 eval/preset-pairs.py DEV_DIR BEFORE.jsonl AFTER.jsonl \
           TEXTS_AFTER.jsonl TEXTS_VOLATILE.jsonl [--examples N]

BEFORE and AFTER are `neardup eval --pairs` files (e.g. the defaults and `--preset web`).
TEXTS_AFTER is `neardup eval --texts` with the preset's reading of every document (for
`--preset web`: `--preset web --han keep`, since the label compares characters as they are),
TEXTS_VOLATILE the same with `--html visible` added (volatile lines left out, HTML not reduced to
its main content), which tells a template from a counter line as the cause.

For each pair reported by one run and not the other, the dataset's own label rule (README of the
dev set: NFKC, casefold; zh: letters and digits, character 5-grams; en: word 3-grams; Jaccard
rounded down to 4 decimals) is applied again to the texts as the preset reads them:
  new false positive, label J >= 0.8 once what the preset leaves out is left out: "volatile lines"
      (already on TEXTS_VOLATILE) or "template (+ volatile lines)" (only with HTML's main content);
      J >= 0.8 only with digits folded as well: "digits (+ lines/template)";
  new false positive still below 0.8 on the preset's text: "below 0.8 on preset text" (an error
      of the engine, not of the label);
  gained true positive: "TP gained"; false positive no longer reported: "FP removed";
  lost true positive: "lost: below 0.8 on preset text" (the label's 0.8 relied on what the preset
      leaves out, e.g. the same counter line in both copies) or "lost: engine" otherwise.
Prints a Markdown table (kind x cause, counts) and example ids for each cell. Standard library only.
"""
import collections
import json
import math
import os
import re
import sys
import unicodedata

WORD = re.compile(r"[^\W_]+")


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def shingles(text, lang, fold_digits=False):
    t = unicodedata.normalize("NFKC", text).casefold()
    if fold_digits:
        t = re.sub(r"\d", "0", t)
    if lang == "zh":
        s = "".join(ch for ch in t if ch.isalnum())
        return {s} if len(s) < 5 else {s[i:i + 5] for i in range(len(s) - 4)}
    w = WORD.findall(t)
    return {" ".join(w)} if len(w) < 3 else {" ".join(w[i:i + 3]) for i in range(len(w) - 2)}


def jaccard(a, b):
    union = len(a | b)
    return math.floor(len(a & b) / union * 10000) / 10000 if union else 1.0


def pair_set(path):
    return {tuple(sorted((r["a"], r["b"]))) for r in read_jsonl(path)}


def main(argv):
    examples = 3
    if "--examples" in argv:
        i = argv.index("--examples")
        examples = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 5:
        sys.exit(__doc__)
    dev, before_path, after_path, texts_after, texts_volatile = argv
    lang = {d["id"]: d["lang"] for d in read_jsonl(os.path.join(dev, "docs.jsonl"))}
    gold = {}
    for p in read_jsonl(os.path.join(dev, "pairs.jsonl")):
        gold[tuple(sorted((p["a"], p["b"])))] = p
    after_text = {r["id"]: r["text"] for r in read_jsonl(texts_after)}
    volatile_text = {r["id"]: r["text"] for r in read_jsonl(texts_volatile)}
    before, after = pair_set(before_path), pair_set(after_path)

    cells = collections.Counter()
    ids = collections.defaultdict(list)
    for k in sorted(before ^ after):
        g = gold.get(k)
        kind = g["kind"] if g else "unlisted (J < 0.5)"
        label = g is not None and g["jaccard"] >= 0.8
        added = k in after
        lg = lang[k[0]]
        j_after = jaccard(shingles(after_text[k[0]], lg), shingles(after_text[k[1]], lg))
        j_digits = jaccard(shingles(after_text[k[0]], lg, True), shingles(after_text[k[1]], lg, True))
        if added and not label:
            if j_after >= 0.8:
                j_vol = jaccard(shingles(volatile_text[k[0]], lg), shingles(volatile_text[k[1]], lg))
                cause = "FP: volatile lines" if j_vol >= 0.8 else "FP: template (+ volatile lines)"
            elif j_digits >= 0.8:
                cause = "FP: digits (+ lines/template)"
            else:
                cause = "FP: below 0.8 on preset text"
        elif label and not added:
            cause = "lost: below 0.8 on preset text" if j_digits < 0.8 else "lost: engine"
        else:
            cause = "FP removed" if not added else "TP gained"
        cells[(kind, cause)] += 1
        ids[(kind, cause)].append("%s/%s" % k)

    causes = sorted({c for _, c in cells})
    kinds = sorted({k for k, _ in cells})
    print("| kind | " + " | ".join(causes) + " |")
    print("|---|" + "---:|" * len(causes))
    for kd in kinds:
        print("| %s | %s |" % (kd, " | ".join(str(cells.get((kd, c), "")) for c in causes)))
    print("| all | %s |" % " | ".join(str(sum(n for (_, c), n in cells.items() if c == cc)) for cc in causes))
    print()
    for (kd, c), n in sorted(cells.items()):
        print("- %s, %s (%d): %s" % (kd, c, n, " ".join(ids[(kd, c)][:examples])))


if __name__ == "__main__":
    main(sys.argv[1:])
