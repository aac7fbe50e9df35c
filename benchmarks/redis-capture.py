# SPDX-License-Identifier: Apache-2.0
# The client side of a Redis load, captured for replay (benchmarks/redis-replay-vs.sh).
#   redis-capture.py proxy LPORT RPORT OUT: listens on LPORT, forwards every connection to
#     127.0.0.1:RPORT and writes each complete client command (RESP) to OUT in the order it was
#     forwarded, all connections in one stream.
#   redis-capture.py rename IN OUT: rewrites the StoreLoad collection name (load<digits>, random per
#     run) to load000000, fixing the bulk lengths, so that two builds' streams name the same keys.
import asyncio
import re
import sys


def commands(buf):
    """The complete RESP arrays at the head of buf, and the rest."""
    out, pos = [], 0
    while pos < len(buf):
        e = buf.find(b'\r\n', pos)
        if e < 0:
            break
        if buf[pos:pos + 1] != b'*':  # an inline command
            out.append(bytes(buf[pos:e + 2]))
            pos = e + 2
            continue
        n, p = int(buf[pos + 1:e]), e + 2
        for _ in range(n):
            e2 = buf.find(b'\r\n', p)
            if e2 < 0:
                return out, buf[pos:]
            p = e2 + 2 + int(buf[p + 1:e2]) + 2
            if p > len(buf):
                return out, buf[pos:]
        out.append(bytes(buf[pos:p]))
        pos = p
    return out, buf[pos:]


def proxy(lport, rport, path):
    f = open(path, 'wb')

    async def handle(cr, cw):
        sr, sw = await asyncio.open_connection('127.0.0.1', rport)

        async def up():
            buf = b''
            while True:
                d = await cr.read(1 << 16)
                if not d:
                    break
                cmds, buf = commands(buf + d)
                for c in cmds:
                    f.write(c)
                f.flush()
                sw.write(d)
            f.flush()
            sw.close()

        async def down():
            while True:
                d = await sr.read(1 << 16)
                if not d:
                    break
                cw.write(d)
                await cw.drain()
            cw.close()

        await asyncio.gather(up(), down(), return_exceptions=True)

    async def main():
        server = await asyncio.start_server(handle, '127.0.0.1', lport)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def rename(src, dst):
    data = open(src, 'rb').read()
    names = set(re.findall(rb'\{(load[0-9]+):', data))
    if len(names) != 1:
        sys.exit('expected one StoreLoad collection name in %s, found %s' % (src, names))
    name, fixed = names.pop(), b'load000000'
    out, pos = [], 0
    while pos < len(data):
        e = data.index(b'\r\n', pos)
        if data[pos:pos + 1] != b'*':
            sys.exit('not a RESP array at byte %d of %s' % (pos, src))
        n, p, args = int(data[pos + 1:e]), e + 2, []
        for _ in range(n):
            e2 = data.index(b'\r\n', p)
            ln = int(data[p + 1:e2])
            a = data[e2 + 2:e2 + 2 + ln]
            p = e2 + 2 + ln + 2
            args.append(a.replace(name, fixed))
        out.append(b'*%d\r\n' % n + b''.join(b'$%d\r\n%s\r\n' % (len(a), a) for a in args))
        pos = p
    open(dst, 'wb').write(b''.join(out))


if __name__ == '__main__':
    if sys.argv[1] == 'proxy':
        proxy(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == 'rename':
        rename(sys.argv[2], sys.argv[3])
    else:
        sys.exit('usage: redis-capture.py proxy LPORT RPORT OUT | rename IN OUT')
