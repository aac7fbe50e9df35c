#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes han-pairs.jsonl for HanFolderTest: Chinese texts and their conversions by OpenCC.

Usage: /usr/bin/python3 make_han_pairs.py OUT.jsonl   (needs Debian's opencc command)

Texts: the first 300 chars of 115 Chinese documents of examples/sample.jsonl (chinese-poetry, MIT; traditional poems and
simplified Yuan qu) and a few sentences written for this test. Each is converted with opencc's
s2t, s2tw, s2hk, s2twp (Taiwan phrases: 软件 -> 軟體, a change of words, not of characters) and
t2s; one line per pair: {"config", "original", "converted"}, pairs whose conversion changed
nothing left out.
"""
import json
import os
import subprocess
import sys

OWN = [
    "市议会周二晚间批准了新的年度预算，为公园、图书馆和两所新学校增加了拨款。",
    "这个软件的后台服务会把网络上发现的重复网页汇总成一条新闻，并显示有多少条相同的报道。",
    "头发剪短以后，他觉得干净多了；面条和面粉都涨价了，出发前记得带够钱。",
    "她在台湾的联络处里发表了关于云计算和数据库系统的讲话，听众里有很多开发人员。",
    "这里面的东西什么都有，只是还没来得及整理，着急也没有用。",
]


def opencc(text, config):
    return subprocess.run(["opencc", "-c", config], input=text.encode("utf-8"),
                          stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    texts = list(OWN)
    with open(os.path.join(root, "examples", "sample.jsonl"), encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)["text"]
            if sum("\u4e00" <= c <= "\u9fff" for c in t) > len(t) / 3 and len(texts) < 120:
                texts.append(t[:300])
    n = 0
    with open(sys.argv[1], "w", encoding="utf-8", newline="\n") as out:
        for i, t in enumerate(texts):
            for config in ("s2t.json", "s2tw.json", "s2hk.json", "s2twp.json", "t2s.json"):
                c = opencc(t, config)
                if c != t:
                    out.write(json.dumps({"config": config, "original": t, "converted": c},
                                         ensure_ascii=False) + "\n")
                    n += 1
    print("%s: %d pairs from %d texts" % (sys.argv[1], n, len(texts)), file=sys.stderr)


if __name__ == "__main__":
    main()
