#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""What the volatile-line rule removes from text it was not written from: Debian's own documents.

Usage:
  /usr/bin/python3 eval/volatile-unseen.py build OUT_DIR
      writes OUT_DIR/docs.jsonl (and an empty pairs.jsonl) from this machine's /usr/share/doc
      (changelogs, copyright files, READMEs, HTML pages) and zh_CN/zh_TW man pages rendered with
      `man` (plain text), each document cut at 20,000 characters;
  /usr/bin/python3 eval/volatile-unseen.py compare KEEP.jsonl DROP.jsonl [--show N]
      compares two `neardup eval OUT_DIR --texts FILE` runs (`--volatile-lines keep` and `drop`, both
      `--han keep`) and prints how many lines the rule removed, from how many documents, and the
      removed lines by shape (digits as 0), most frequent first.

None of these documents is a crawled page with counters: every removed line is either a stamp a
reader would also call metadata (a changelog's date line) or a content line removed wrongly.
Standard library only (plus `man` for the man pages).
"""
import collections
import glob
import gzip
import json
import os
import re
import subprocess
import sys

LIMIT = 20000


def read_doc(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            return f.read(LIMIT)
    except (UnicodeDecodeError, OSError):
        return None


def build(out):
    os.makedirs(out, exist_ok=True)
    paths = sorted(
        glob.glob("/usr/share/doc/*/changelog*")
        + glob.glob("/usr/share/doc/*/copyright")
        + glob.glob("/usr/share/doc/*/README*")
        + glob.glob("/usr/share/doc/**/*.html", recursive=True))
    n = 0
    with open(os.path.join(out, "docs.jsonl"), "w", encoding="utf-8") as w:
        for p in paths:
            text = read_doc(p)
            if text and text.strip():
                w.write(json.dumps({"id": "doc:" + p, "lang": "en", "len_class": "long",
                                    "text": text}, ensure_ascii=False) + "\n")
                n += 1
        for lang in ("zh_CN", "zh_TW"):
            for p in sorted(glob.glob("/usr/share/man/%s/man*/*" % lang)):
                try:
                    r = subprocess.run(["man", "-l", p], capture_output=True, timeout=60,
                                       stdin=subprocess.DEVNULL,
                                       env=dict(os.environ, MANWIDTH="80", LANG="C.UTF-8",
                                                MANPAGER="cat", PAGER="cat"))
                except subprocess.TimeoutExpired:
                    continue
                text = r.stdout.decode("utf-8", "replace")[:LIMIT]
                if r.returncode == 0 and text.strip():
                    w.write(json.dumps({"id": "man:" + p, "lang": "zh", "len_class": "long",
                                        "text": text}, ensure_ascii=False) + "\n")
                    n += 1
    open(os.path.join(out, "pairs.jsonl"), "w").close()
    print("%d documents in %s" % (n, out))


def compare(keep_path, drop_path, show):
    keep = {}
    with open(keep_path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            keep[r["id"]] = r["text"]
    lines_total = docs = removed = 0
    shapes = collections.Counter()
    example = {}
    with open(drop_path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            before = keep[r["id"]].split("\n")
            lines_total += sum(1 for x in before if x.strip())
            if r["text"] == keep[r["id"]]:
                continue
            docs += 1
            left = collections.Counter(r["text"].split("\n"))
            for x in before:
                if left[x] > 0:
                    left[x] -= 1
                elif x.strip():
                    removed += 1
                    s = re.sub(r"\d+", "0", x.strip())
                    shapes[s] += 1
                    example.setdefault(s, (r["id"], x.strip()))
            # a run cut from the start or end of a line shows as a changed line: counted above
    print("documents: %d, non-blank lines: %d; changed documents: %d, lines removed or cut: %d"
          % (len(keep), lines_total, docs, removed))
    for s, n in shapes.most_common(show):
        print("%6d  %-60s e.g. %s: %s" % (n, s[:60], example[s][0], example[s][1][:80]))


def main(argv):
    if len(argv) >= 2 and argv[0] == "build":
        build(argv[1])
    elif len(argv) >= 3 and argv[0] == "compare":
        show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 40
        compare(argv[1], argv[2], show)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
