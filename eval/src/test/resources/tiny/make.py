#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Builds docs.jsonl and pairs.jsonl of this tiny dataset from texts.json, with the label of
shared/data/README.md: Jaccard of shingle sets (zh: character 5-grams of letters and digits; en:
word 3-grams) of the NFKC-casefolded visible text, rounded down to 4 decimals; label = J >= 0.8.
Lists every pair with J >= 0.5 plus every edited copy with its parent and every hard negative.
Run: python3 make.py  (standard library only)."""
import html, itertools, json, math, re, unicodedata

HTML = re.compile(r"<!DOCTYPE html|<(html|body|p|div|br|article|span|h[1-6])[\s/>]", re.I)

def visible(t):
    if not HTML.search(t):
        return t
    t = re.sub(r"(?is)<head\b.*?</head>|<script\b.*?</script>|<style\b.*?</style>|<!--.*?-->", " ", t)
    return html.unescape(re.sub(r"(?s)<[^>]*>", " ", t))

def shingles(t, lang):
    t = unicodedata.normalize("NFKC", visible(t)).casefold()
    if lang == "zh":
        cs = [c for c in t if c.isalnum()]
        return {"".join(cs)} if len(cs) < 5 else {"".join(cs[i:i + 5]) for i in range(len(cs) - 4)}
    ws = re.findall(r"[^\W_]+", t)
    return {" ".join(ws)} if len(ws) < 3 else {" ".join(ws[i:i + 3]) for i in range(len(ws) - 2)}

def floor4(x):
    return math.floor(x * 10000 + 1e-9) / 10000

docs = json.load(open("texts.json", encoding="utf-8"))
rank = {"short": 0, "medium": 1, "long": 2}
for d in docs:
    n = len(" ".join(visible(d["text"]).split()))
    d["n_chars"] = n
    d["len_class"] = "short" if n <= 200 else "long" if n >= 500 else "medium"
with open("docs.jsonl", "w", encoding="utf-8") as f:
    for d in docs:
        f.write(json.dumps({k: d[k] for k in ("id", "lang", "len_class", "n_chars", "source", "text")}, ensure_ascii=False) + "\n")
made = {(d["parent"], d["id"]): d["kind"] for d in docs if "parent" in d}
sh = {d["id"]: shingles(d["text"], d["lang"]) for d in docs}
with open("pairs.jsonl", "w", encoding="utf-8") as f:
    for a, b in itertools.combinations(docs, 2):
        if a["lang"] != b["lang"]:
            continue
        A, B = sh[a["id"]], sh[b["id"]]
        j = floor4(len(A & B) / len(A | B))
        kind = made.get((a["id"], b["id"])) or made.get((b["id"], a["id"]))
        if kind is None and j < 0.5:
            continue
        kind = kind or ("sibling" if a.get("parent") and a.get("parent") == b.get("parent") else "natural")
        lc = min(a["len_class"], b["len_class"], key=rank.get)
        f.write(json.dumps({"a": a["id"], "b": b["id"], "jaccard": j,
                            "containment": floor4(len(A & B) / min(len(A), len(B))), "kind": kind,
                            "label": int(j >= 0.8), "lang": a["lang"], "len_class": lc}) + "\n")
