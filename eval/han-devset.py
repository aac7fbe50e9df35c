#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Builds the dev set with simplified/traditional conversions added, to decide --han's default.

Usage: /usr/bin/python3 eval/han-devset.py DEV_DIR OUT_DIR [COUNT]   (needs Debian's opencc)

Copies DEV_DIR (docs.jsonl, pairs.jsonl) to OUT_DIR and adds COUNT (default 600) converted
documents: zh documents drawn with a fixed seed, half of them mostly simplified (converted with
opencc's s2t, s2tw or s2hk in turn) and half mostly traditional (converted with t2s). A converted
copy is the same text to a reader, so it gets a pair with its original (kind "han_convert",
jaccard 1.0, label 1) and a copy of every pair its original has, with the original's jaccard and
label. Nothing else changes, so the scores on the other pairs are those of the dev set.
"""
import json
import os
import random
import subprocess
import sys


def is_traditional(text):
    # Characters that differ between the forms; count the traditional side via opencc's t2s.
    return text != opencc(text[:400], "t2s.json")[:len(text[:400])]


def opencc(text, config):
    return subprocess.run(["opencc", "-c", config], input=text.encode("utf-8"),
                          stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    dev, out = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) == 4 else 600
    os.makedirs(out, exist_ok=True)
    docs = [json.loads(l) for l in open(os.path.join(dev, "docs.jsonl"), encoding="utf-8")]
    pairs = [json.loads(l) for l in open(os.path.join(dev, "pairs.jsonl"), encoding="utf-8")]
    rnd = random.Random(314)
    zh = [d for d in docs if d["lang"] == "zh"]
    rnd.shuffle(zh)
    simp, trad = [], []
    for d in zh:
        if len(simp) >= count // 2 and len(trad) >= count // 2:
            break
        t = is_traditional(d["text"])
        if t and len(trad) < count // 2:
            trad.append(d)
        elif not t and len(simp) < count // 2:
            simp.append(d)
    by_doc = {}
    for p in pairs:
        by_doc.setdefault(p["a"], []).append(p)
        by_doc.setdefault(p["b"], []).append(p)
    new_docs, new_pairs = [], []
    configs = ["s2t.json", "s2tw.json", "s2hk.json"]
    for i, d in enumerate(simp + trad):
        config = configs[i % 3] if d in simp else "t2s.json"
        c = dict(d)
        c["id"] = d["id"] + "-" + config.split(".")[0]
        c["text"] = opencc(d["text"], config)
        if c["text"] == d["text"]:
            continue
        new_docs.append(c)
        new_pairs.append({"a": d["id"], "b": c["id"], "jaccard": 1.0, "containment": 1.0,
                          "kind": "han_convert", "label": 1, "lang": "zh",
                          "len_class": d["len_class"]})
        for p in by_doc.get(d["id"], []):
            q = dict(p)
            if q["a"] == d["id"]:
                q["a"] = c["id"]
            else:
                q["b"] = c["id"]
            new_pairs.append(q)
    with open(os.path.join(out, "docs.jsonl"), "w", encoding="utf-8") as f:
        for d in docs + new_docs:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(out, "pairs.jsonl"), "w", encoding="utf-8") as f:
        for p in pairs + new_pairs:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    print("%s: %d converted documents (%d from simplified, %d from traditional), %d pairs added"
          % (out, len(new_docs), len(simp), len(trad), len(new_pairs)), file=sys.stderr)


if __name__ == "__main__":
    main()
