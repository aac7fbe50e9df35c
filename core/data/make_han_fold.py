#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes han-fold.txt, the traditional -> simplified character table of core's HanFolder.

Usage: /usr/bin/python3 make_han_fold.py DIR OUT
  DIR holds OpenCC's TSCharacters.txt, STCharacters.txt, TWVariants.txt and HKVariants.txt (text
  dumps of Debian libopencc-data's .ocd2 files, made by update-han-fold.sh with opencc_dict).

The table: every character of TSCharacters maps to its first candidate (OpenCC's t2s choice);
every Taiwan or Hong Kong variant form (TWVariants/HKVariants values) maps to what its standard
traditional form maps to, unless the variant is itself a simplified character (for example 么,
which TWVariantsRev would send to 幺: 什么 must stay 什么); chains are followed to the end, so
folding is idempotent. Where the simplified form is outside the BMP (a surrogate pair) and a
traditional form is in it, the whole class folds to that BMP character instead, so that folding
never makes a text longer. Output: one "FROM<TAB>TO" line per character, sorted by code point.
"""
import os
import sys


def load(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, values = line.rstrip("\n").split("\t")
            table[key] = values.split(" ")
    return table


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d, out = sys.argv[1], sys.argv[2]
    ts = load(os.path.join(d, "TSCharacters.txt"))
    st = load(os.path.join(d, "STCharacters.txt"))
    fold = {k: v[0] for k, v in ts.items() if len(k) == 1 and len(v[0]) == 1}
    simplified = set(st) | set(fold.values())
    for name in ("TWVariants.txt", "HKVariants.txt"):
        for standard, variants in load(os.path.join(d, name)).items():
            if len(standard) != 1:
                continue
            for v in variants:
                if len(v) == 1 and v != standard and v not in simplified and v not in fold:
                    fold[v] = fold.get(standard, standard)
    changed = True
    while changed:
        changed = False
        for k, v in list(fold.items()):
            if v in fold and fold[v] != v:
                fold[k] = fold[v]
                changed = True
    # A text must never grow when folded (HanFolder folds in place): where a class's simplified
    # form is outside the BMP and one of its members is in it, that BMP member represents it.
    classes = {}
    for k, v in fold.items():
        classes.setdefault(v, set()).add(k)
    for target, members in classes.items():
        if ord(target) >= 0x10000:
            bmp = sorted(m for m in members if ord(m) < 0x10000)
            if bmp:
                rep = bmp[0]
                for m in members:
                    fold[m] = rep
                fold[target] = rep
    rows = sorted((k, v) for k, v in fold.items() if k != v)
    assert all(ord(v) < 0x10000 or ord(k) >= 0x10000 for k, v in rows), "a BMP char would grow"
    assert all(fold.get(v, v) == v for _, v in rows), "not idempotent"
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for k, v in rows:
            f.write("%s\t%s\n" % (k, v))
    bmp = sum(1 for k, v in rows if ord(k) < 0x10000 and ord(v) < 0x10000)
    print("%s: %d characters (%d BMP to BMP)" % (out, len(rows), bmp), file=sys.stderr)


if __name__ == "__main__":
    main()
