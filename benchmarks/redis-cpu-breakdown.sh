#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where redis-server's CPU goes per verified check-and-insert: DOCS short texts (StoreLoad texts,
# 16 threads, BATCH documents per call) into a fresh collection laid out for DOCS, then per
# document: redis-server's CPU (INFO cpu), each command's calls and microseconds (INFO
# commandstats: EVALSHA is the fetch and commit scripts, whose inner calls are counted again under
# their own names), and, when perf is installed, the hottest functions of redis-server during the
# run (perf record -g on its pid; Lua's interpreter shows as lua*/luaV_*, a script's commands as
# the command's own functions).
# Usage: BUILD=0 benchmarks/redis-cpu-breakdown.sh [DOCS] [BATCH]   (default 20000 1; JAR=... another
# build; PERF_OUT=file keeps perf's samples)
source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"
docs="${1:-20000}"; batch="${2:-1}"
url="url=redis://127.0.0.1:$port"
rpid=$(cat "$work/redis.pid")
redis-cli -p "$port" config resetstat > /dev/null
cpu0=$(rcpu)
if command -v perf > /dev/null; then
  perf record -F 999 -g -p "$rpid" -o "$work/perf.data" 2> /dev/null &
  perfpid=$!
fi
java -Xmx2g -cp "$jar" org.neardup.benchmarks.StoreLoad redis texts "$docs" 16 "$batch" "$url" \
  expire-interval=0 expected-documents="$docs" 2>&1 | grep 'docs/s' || echo failed
per_doc "batch $batch" "$docs" | tr ';' '\n'
if [ -n "${perfpid:-}" ]; then
  kill -INT "$perfpid"; wait "$perfpid" || true
  echo "redis-server's hottest functions (self time, % of its samples):"
  perf report -i "$work/perf.data" --no-children --sort symbol --stdio 2> /dev/null \
    | grep -E '^ +[0-9.]+%' | head -30 || true
  echo "by group (self time, % of redis-server's samples):"
  perf report -i "$work/perf.data" --no-children --sort dso,symbol --stdio -g none 2> /dev/null \
    | awk '/^ +[0-9.]+%/ {p = $1 + 0; k = 0; s = "";
        for (i = 2; i < NF; i++) if ($i == "[.]" || $i == "[k]") {k = ($i == "[k]"); s = $(i + 1); break}
        if (k) g["kernel (socket I/O, scheduling)"] += p;
        else if (s ~ /^0x/) g["unnamed static code of redis-server: Lua (luaS_newlstr hashing, the VM)"] += p;
        else if (s ~ /^(lua|luaRedis|scriptCall|scriptRun|luaReply|redisProtocolToLua|freeLuaRedisArgv|luaCallFunction|evalGenericCommand)/) g["script glue (lua_* API, redis.call)"] += p;
        else if (s ~ /(printf|hack_digit|mpn_|strtod|ll2string|string2ll|d2string)/) g["number formatting and parsing"] += p;
        else if (s ~ /^(malloc|free|realloc|je_|malloc_usable_size|__mem|zmalloc|zfree)/) g["allocation and memcpy"] += p;
        else if (s ~ /^(dict|lookupKey|stringObjectLen|siphash|dbFind)/) g["dictionaries (keys, hash fields)"] += p;
        else g["other"] += p} END {for (k in g) printf "  %5.1f%% %s\n", g[k], k}' | sort -rn || true
  [ -z "${PERF_OUT:-}" ] || cp "$work/perf.data" "$PERF_OUT"
fi
