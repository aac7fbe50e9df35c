#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Builds the golden segmentation file that JiebaAgreementTest checks JiebaSegmenter against.

Usage: /usr/bin/python3 make_golden.py OUT.txt.gz [MAX_CHARS]
       /usr/bin/python3 make_golden.py --synthetic OUT.txt.gz RUNS
       /usr/bin/python3 make_golden.py --blocks OUT.txt.gz MAX_CHARS [USERDICT]

Needs Debian's python3-jieba 0.42.1 (the reference) and Chinese text from apt
(manpages-zh, debian-reference-zh-cn, fortunes-zh) plus, if present, the team's dev set
(/work/shared/data/dev/docs.jsonl, lang "zh"):

  apt-get install -y python3-jieba manpages-zh debian-reference-zh-cn fortunes-zh

Each text is normalised as neardup's core does (NFKC, then lower case) and cut into maximal runs
of Han characters, the code points for which Java 17's Character.UnicodeScript.of(cp) == HAN
(HAN_RANGES below, dumped from Java). Distinct runs are shuffled with a fixed seed and written,
up to MAX_CHARS Han chars in all (default 200,000; 0 = all), one per line, as jieba's
jieba.lcut(run, HMM=True) words separated by single spaces. Output is deterministic: same
packages, same file.

With --blocks, the runs are jieba's own blocks (re_han_default, [\u4E00-\u9FD5a-z0-9+#&._%-]+,
of the normalised text) that hold a Han char or an ASCII letter or digit, half of the file those
that mix Han chars with ASCII (such as "win7系统" or "c++"), so that JiebaSegmenter's mixed runs are
checked; with USERDICT, jieba loads that user dictionary first (jieba.load_userdict), each line
normalised first as neardup normalises it: ASCII white space stripped, a leading BOM dropped,
NFKC, lower case, ASCII white space stripped again.

With --synthetic, the runs are instead RUNS random strings (seeded) meant to hit the corner cases
real text rarely does: chars that are in neither the dictionary nor the HMM's emission table
(Viterbi ties at MIN_FLOAT), in-range chars that only the HMM knows, Han chars outside jieba's
\u4E00-\u9FD5 (extension A, extension B as surrogate pairs, U+3007), runs of one repeated char,
mixed with common characters.
"""
import glob
import gzip
import io
import json
import os
import random
import sys
import unicodedata

import jieba

HAN_RANGES = [
    (0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x3005, 0x3005), (0x3007, 0x3007),
    (0x3021, 0x3029), (0x3038, 0x303B), (0x3400, 0x4DBF), (0x4E00, 0x9FFC), (0xF900, 0xFA6D),
    (0xFA70, 0xFAD9), (0x16FF0, 0x16FF1), (0x20000, 0x2A6DD), (0x2A700, 0x2B734),
    (0x2B740, 0x2B81D), (0x2B820, 0x2CEA1), (0x2CEB0, 0x2EBE0), (0x2F800, 0x2FA1D),
    (0x30000, 0x3134A),
]


def is_han(ch):
    cp = ord(ch)
    for lo, hi in HAN_RANGES:
        if cp < lo:
            return False
        if cp <= hi:
            return True
    return False


def han_runs(text):
    text = unicodedata.normalize("NFKC", text).lower()
    run = []
    for ch in text:
        if is_han(ch):
            run.append(ch)
        elif run:
            yield "".join(run)
            run = []
    if run:
        yield "".join(run)


def read_gz_or_plain(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    for enc in ("utf-8", "gb18030"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass
    return data.decode("utf-8", "replace")


def sources():
    yield "debian-reference", [read_gz_or_plain("/usr/share/debian-reference/debian-reference.zh-cn.txt.gz")]
    yield "manpages-zh", [read_gz_or_plain(p) for p in sorted(glob.glob("/usr/share/man/zh_CN/man*/*"))]
    yield "fortunes-zh", [read_gz_or_plain("/usr/share/games/fortunes/" + n) for n in ("chinese", "tang300", "song100")]
    dev = "/work/shared/data/dev/docs.jsonl"
    if os.path.exists(dev):
        texts = []
        with open(dev, encoding="utf-8") as f:
            for line in f:
                doc = json.loads(line)
                if doc["lang"] == "zh":
                    texts.append(doc["text"])
        yield "dev docs.jsonl (zh)", texts


def write_gz(out, text):
    with open(out, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
            gz.write(text.encode("utf-8"))


def synthetic(out, count):
    import jieba.finalseg as finalseg
    jieba.setLogLevel(60)
    jieba.dt.check_initialized()
    freq = jieba.dt.FREQ
    emit = finalseg.emit_P
    in_range = [chr(c) for c in range(0x4E00, 0x9FD6)]
    unknown = [c for c in in_range if c not in freq and all(c not in emit[s] for s in "BMES")]
    hmm_only = [c for c in in_range if not freq.get(c) and any(c in emit[s] for s in "BMES")]
    common = sorted((c for c in in_range if freq.get(c)), key=lambda c: -freq[c])[:3000]
    outside = [chr(c) for c in range(0x3400, 0x3420)] + [chr(c) for c in range(0x20000, 0x20020)] + ["\u3007"]
    rnd = random.Random(7)
    pools = [(common, 0.5), (unknown, 0.2), (hmm_only, 0.2), (outside, 0.1)]
    lines = []
    for i in range(count):
        n = rnd.choice([1, 2, 3, 5, 8, 13, 21, 40])
        if i % 50 == 0:
            run = rnd.choice(common + unknown) * n
        else:
            chars = []
            for _ in range(n):
                r = rnd.random()
                for pool, p in pools:
                    if r < p:
                        break
                    r -= p
                chars.append(rnd.choice(pool))
            run = "".join(chars)
        ws = jieba.lcut(run, HMM=True)
        assert "".join(ws) == run
        lines.append(" ".join(ws))
    write_gz(out, "\n".join(lines) + "\n")
    print("%s: %d synthetic runs" % (out, count), file=sys.stderr)


def normalised_userdict(path, out):
    """Writes the user dictionary at path as neardup reads it: each line normalised."""
    with open(path, "rb") as f:
        data = f.read()
    lines = []
    for raw in data.split(b"\n"):
        line = raw.strip().decode("utf-8").lstrip("\ufeff")
        line = unicodedata.normalize("NFKC", line).lower().strip(" \t\n\r\x0b\x0c")
        lines.append(line)
    with open(out, "wb") as f:
        f.write("\n".join(lines).encode("utf-8"))


def blocks(out, max_chars, userdict):
    import re
    import tempfile
    jieba.setLogLevel(60)
    if userdict:
        tmp = tempfile.NamedTemporaryFile(suffix=".txt", delete=False)
        tmp.close()
        normalised_userdict(userdict, tmp.name)
        jieba.load_userdict(tmp.name)
        os.unlink(tmp.name)
    block = re.compile("[\u4E00-\u9FD5a-zA-Z0-9+#&._%\\-]+")
    han = re.compile("[\u4E00-\u9FD5]")
    alnum = re.compile("[a-z0-9]")
    seen = set()
    mixed, plain = [], []
    for name, texts in sources():
        for text in texts:
            for b in block.findall(unicodedata.normalize("NFKC", text).lower()):
                if b in seen:
                    continue
                seen.add(b)
                h, a = han.search(b), alnum.search(b)
                if h and a:
                    mixed.append(b)
                elif h or a:
                    plain.append(b)
    rnd = random.Random(20241124)
    rnd.shuffle(mixed)
    rnd.shuffle(plain)
    buf = io.StringIO()
    chars = n = n_mixed = 0
    for pool, limit in ((mixed, max_chars // 2), (plain, max_chars)):
        for run in pool:
            if chars + len(run) > limit:
                continue
            ws = jieba.lcut(run, HMM=True)
            assert "".join(ws) == run and all(" " not in w for w in ws)
            buf.write(" ".join(ws))
            buf.write("\n")
            chars += len(run)
            n += 1
            n_mixed += pool is mixed
    write_gz(out, buf.getvalue())
    print("%s: %d runs (%d mixed), %d chars; jieba total %d" % (out, n, n_mixed, chars, jieba.dt.total), file=sys.stderr)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--synthetic":
        synthetic(sys.argv[2], int(sys.argv[3]))
        return
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--blocks":
        blocks(sys.argv[2], int(sys.argv[3]), sys.argv[4] if len(sys.argv) == 5 else None)
        return
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    max_chars = int(sys.argv[2]) if len(sys.argv) == 3 else 200000
    jieba.setLogLevel(60)
    seen = set()
    runs = []
    for name, texts in sources():
        before = len(runs)
        for text in texts:
            for run in han_runs(text):
                if run not in seen:
                    seen.add(run)
                    runs.append(run)
        print("%s: %d distinct new runs" % (name, len(runs) - before), file=sys.stderr)
    random.Random(20240601).shuffle(runs)
    buf = io.StringIO()
    chars = words = n = 0
    for run in runs:
        if max_chars and chars + len(run) > max_chars:
            continue
        ws = jieba.lcut(run, HMM=True)
        assert "".join(ws) == run and all(" " not in w for w in ws)
        buf.write(" ".join(ws))
        buf.write("\n")
        chars += len(run)
        words += len(ws)
        n += 1
    write_gz(out, buf.getvalue())
    print("%s: %d runs, %d Han chars (code points), %d words; jieba total %d" % (out, n, chars, words, jieba.dt.total), file=sys.stderr)


if __name__ == "__main__":
    main()
