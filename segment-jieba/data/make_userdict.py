#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a jieba user dictionary (jieba.load_userdict's format) for tests and benchmarks.

Usage: /usr/bin/python3 make_userdict.py OUT.txt WORDS [--plain]

WORDS words are drawn, with a fixed seed, from the same Chinese text make_golden.py reads: Han
substrings of 2-5 chars and mixed Han/ASCII blocks (such as "win7系统"), each with a random
frequency, no frequency (jieba then suggests one), or frequency 0 (jieba then forces the word
apart). Unless --plain is given, the file also holds the lines that exercise jieba's parsing
rules: a BOM, blank lines, CRLF endings, "#" lines (jieba has no comments: "#" becomes a word),
tags, words with spaces, upper case, full-width digits, a repeated word.
"""
import random
import re
import sys
import unicodedata

import make_golden

BLOCK = re.compile("[\u4E00-\u9FD5a-z0-9+#&._%\\-]+")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    out, count = sys.argv[1], int(sys.argv[2])
    plain = len(sys.argv) == 4 and sys.argv[3] == "--plain"
    rnd = random.Random(1414)
    han, mixed = [], []
    seen_han, seen_mixed = set(), set()
    for _, texts in make_golden.sources():
        for text in texts:
            norm = unicodedata.normalize("NFKC", text).lower()
            for block in BLOCK.findall(norm):
                has_han = any("\u4e00" <= c <= "\u9fd5" for c in block)
                has_ascii = any(c.isascii() and c.isalnum() for c in block)
                if has_han and has_ascii and len(block) <= 12 and block not in seen_mixed:
                    seen_mixed.add(block)
                    mixed.append(block)
            for run in make_golden.han_runs(text):
                if len(run) >= 5 and len(han) < 400000:
                    n = rnd.choice([2, 3, 3, 4, 4, 5])
                    at = rnd.randrange(0, len(run) - n + 1)
                    w = run[at:at + n]
                    if all("\u4e00" <= c <= "\u9fd5" for c in w) and w not in seen_han:
                        seen_han.add(w)
                        han.append(w)
    rnd.shuffle(han)
    rnd.shuffle(mixed)
    n_mixed = min(len(mixed), count // 10)
    words = mixed[:n_mixed] + han[:count - n_mixed]
    rnd.shuffle(words)
    lines = []
    for w in words:
        r = rnd.random()
        if r < 0.6:
            lines.append("%s %d" % (w, rnd.choice([1, 3, 10, 100, 1000, 20000, 300000])))
        elif r < 0.7:
            lines.append("%s %d %s" % (w, rnd.randint(1, 5000), rnd.choice(["n", "nz", "v", "eng"])))
        elif r < 0.98:
            lines.append(w)
        else:
            lines.append("%s 0" % w)
    if not plain:
        special = [
            "",
            "   ",
            "# a comment line: jieba makes '#' a word",
            "江南 style",
            "new york 10 ns",
            "iPhone手机 500",
            "Ｃ＋＋编程 ２００",
            "数据挖掘 0",
            "自然语言处理 30 n",
            "云计算\t",
            "大数据",
            "大数据 8",
            "node.js 50",
            ".net框架",
            "3.5%利率 5",
            "4s店 7",
        ]
        for s in special:
            lines.insert(rnd.randrange(0, len(lines) + 1), s)
        body = "\ufeff" + "".join(
            line + ("\r\n" if i % 7 == 3 else "\n") for i, line in enumerate(lines))
    else:
        body = "".join(line + "\n" for line in lines)
    with open(out, "wb") as f:
        f.write(body.encode("utf-8"))
    print("%s: %d lines, %d words (%d mixed)" % (out, len(lines), len(words), n_mixed), file=sys.stderr)


if __name__ == "__main__":
    main()
