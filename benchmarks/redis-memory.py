#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a Redis store's memory goes, by kind of key (issue 15).

Usage: benchmarks/redis-memory.py PORT [DOCUMENTS]

SCANs every key of the redis-server on 127.0.0.1:PORT, groups the neardup keys by the letter after
the hash tag (b block keys, d record buckets, s sketch buckets, i id buckets, k band keys or band
buckets, m cluster members, ...), and sums MEMORY USAGE (SAMPLES 0, i.e. every element) over up to 3,000 random keys
of each kind, scaled to the kind's key count. With DOCUMENTS, also per document. Then Redis's own
used_memory figures. Needs nothing but Python 3 (speaks RESP itself).
"""
import collections
import random
import socket
import sys

port = int(sys.argv[1])
documents = int(sys.argv[2]) if len(sys.argv) > 2 else 0
conn = socket.create_connection(("127.0.0.1", port))
reader = conn.makefile("rb")


def encode(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def read():
    line = reader.readline()
    kind, rest = line[:1], line[1:-2]
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        return None if n < 0 else reader.read(n + 2)[:-2]
    if kind == b"*":
        return [read() for _ in range(int(rest))]
    if kind == b"+":
        return rest
    raise RuntimeError(line)


def call(*args):
    conn.sendall(encode(*args))
    return read()


kinds = collections.defaultdict(list)
cursor = b"0"
while True:
    cursor, keys = call("SCAN", cursor, "COUNT", 5000)
    for k in keys:
        at = k.find(b"}:")
        kinds[chr(k[at + 2]) if at >= 0 and len(k) > at + 2 else "(global)"].append(k)
    if cursor == b"0":
        break
random.seed(1)
total = 0.0
for kind, keys in sorted(kinds.items()):
    sample = keys if len(keys) <= 3000 else random.sample(keys, 3000)
    conn.sendall(b"".join(encode("MEMORY", "USAGE", k, "SAMPLES", 0) for k in sample))
    used = sum(read() for _ in sample)
    string = call("TYPE", sample[0]) == b"string"
    conn.sendall(b"".join(encode("STRLEN" if string else "EXISTS", k) for k in sample))
    lengths = sum(read() for _ in sample)
    estimate = used / len(sample) * len(keys)
    total += estimate
    line = f"{kind}: {len(keys)} keys, {used / len(sample):.1f} B per key, ~{estimate / 1e6:.2f} MB"
    if documents:
        line += f" = {estimate / documents:.1f} B per document"
    if string:
        line += f", mean value {lengths / len(sample):.1f} B"
    line += f", encoding {call('OBJECT', 'ENCODING', sample[0]).decode()}"
    print(line)
print(f"sum of MEMORY USAGE: ~{total / 1e6:.1f} MB" + (f" = {total / documents:.1f} B per document" if documents else ""))
for entry in call("INFO", "memory").decode().split("\r\n"):
    name = entry.split(":")[0]
    if name in ("used_memory", "used_memory_overhead", "used_memory_dataset"):
        value = int(entry.split(":")[1])
        print(entry + (f" = {value / documents:.1f} B per document" if documents else ""))
