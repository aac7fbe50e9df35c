#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Converts jieba 0.42.1's data files into the compact resources of neardup-segment-jieba.

Usage: convert.py JIEBA_DIR OUT_DIR

JIEBA_DIR is the installed `jieba` package directory (e.g. from the Debian package
python3-jieba: usr/lib/python3/dist-packages/jieba). Writes into OUT_DIR:

  dict.txt.gz  jieba/dict.txt with the part-of-speech column dropped: one "word SP freq" line per
               entry, in the original order, duplicates kept (jieba lets the last one win and
               adds every one to the total).
  idf.txt.gz   jieba/analyse/idf.txt, byte for byte.
  hmm.txt.gz   jieba/finalseg/prob_{start,trans,emit}.py, the B/M/E/S hidden Markov model, as
               "start S LOGP", "trans S1 S2 LOGP" and "emit S HEX LOGP" lines (HEX is the code
               point in hexadecimal). LOGP is Python's repr of the float, which parses back to
               the same double in Java.

The gzip streams are written with mtime 0 and no file name, so the output is byte-for-byte
reproducible. Only the standard library is used; the .py model files are read with
ast.literal_eval, never executed.
"""
import ast
import gzip
import io
import os
import sys


def write_gz(path, data):
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
            gz.write(data)


def read_model(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    at = text.index("P=")
    return ast.literal_eval(text[at + 2:].strip())


def convert_dict(src):
    out = io.StringIO()
    n = 0
    with open(src, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            parts = line.split(" ")
            if len(parts) < 2 or not parts[0] or not parts[1].isdigit():
                sys.exit("%s:%d: expected 'word freq [tag]', got %r" % (src, lineno, line))
            out.write("%s %d\n" % (parts[0], int(parts[1])))
            n += 1
    return out.getvalue().encode("utf-8"), n


def convert_hmm(finalseg):
    start = read_model(os.path.join(finalseg, "prob_start.py"))
    trans = read_model(os.path.join(finalseg, "prob_trans.py"))
    emit = read_model(os.path.join(finalseg, "prob_emit.py"))
    states = "BMES"
    lines = ["# jieba 0.42.1 finalseg HMM (natural-log probabilities), converted by convert.py"]
    for s in states:
        lines.append("start %s %r" % (s, float(start[s])))
    for s in states:
        for t in states:
            if t in trans[s]:
                lines.append("trans %s %s %r" % (s, t, float(trans[s][t])))
    n = 0
    for s in states:
        for ch in sorted(emit[s]):
            if len(ch) != 1:
                sys.exit("emission key %r is not one code point" % ch)
            lines.append("emit %s %x %r" % (s, ord(ch), float(emit[s][ch])))
            n += 1
    return ("\n".join(lines) + "\n").encode("utf-8"), n


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    data, n = convert_dict(os.path.join(src, "dict.txt"))
    write_gz(os.path.join(out, "dict.txt.gz"), data)
    print("dict.txt.gz: %d entries" % n)
    with open(os.path.join(src, "analyse", "idf.txt"), "rb") as f:
        write_gz(os.path.join(out, "idf.txt.gz"), f.read())
    print("idf.txt.gz: copied")
    data, n = convert_hmm(os.path.join(src, "finalseg"))
    write_gz(os.path.join(out, "hmm.txt.gz"), data)
    print("hmm.txt.gz: %d emission entries" % n)


if __name__ == "__main__":
    main()
