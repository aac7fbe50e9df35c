#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes CPython's math.log of every distinct frequency in jieba 0.42.1's dictionary, and of
the dictionary's total, for ExactLogTest: jieba's word weights are log(freq) - log(total), and
the route it picks can depend on their last bit.

Usage: /usr/bin/python3 make_ln.py OUT.txt.gz     (needs python3-jieba)

Format: one "N SP repr(math.log(N))" line per integer, ascending.
"""
import gzip
import math
import sys

import jieba


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    jieba.setLogLevel(60)
    jieba.dt.check_initialized()
    values = {f for f in jieba.dt.FREQ.values() if f > 0}
    values.add(jieba.dt.total)
    text = "".join("%d %r\n" % (n, math.log(n)) for n in sorted(values))
    with open(sys.argv[1], "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
            gz.write(text.encode("utf-8"))
    print("%s: %d integers" % (sys.argv[1], len(values)), file=sys.stderr)


if __name__ == "__main__":
    main()
