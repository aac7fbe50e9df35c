#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Measures the service on a data directory built by BulkLoad, from a separate process on loopback.
#
#   bench.sh CLASSPATH TEMPLATE_DIR COLLECTION MODE [SECONDS] [CONNECTIONS] [BATCH]
#
# MODE: fingerprint | text (one document per request, insert.lua) or batch-fingerprint |
# batch-text (BATCH documents per request, batch.lua). Copies TEMPLATE_DIR (so every run starts
# from the same 10M documents), starts org.neardup.server.Main with ZGC, the heap committed at
# start and transparent huge pages as the launcher does for serve (whether the kernel grants them
# is printed: /sys/kernel/mm/transparent_hugepage/shmem_enabled must be advise), and fsync=always, records
# the start time, warms up for 10 s, runs wrk for SECONDS, then prints wrk's report, the server's
# CPU per request, its heap after a full GC and its GC pauses. Needs wrk, jcmd and curl.
# Batch requests are made before the run (see batch.lua's pregen). NEARDUP_JAVA_OPTS adds JVM flags to the server's command line, e.g. a flight recording:
#   NEARDUP_JAVA_OPTS=-XX:StartFlightRecording=delay=20s,duration=30s,filename=/tmp/run.jfr
set -euo pipefail
CP=$1; TEMPLATE=$2; COLLECTION=$3; MODE=$4; SECONDS_=${5:-60}; CONNS=${6:-64}; BATCH=${7:-100}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/neardup-bench.XXXXXX)
PORT=$((20000 + RANDOM % 20000))
cp -r "$TEMPLATE" "$WORK/data"
# Written out before the server starts: the kernel writing back a gigabyte of copy during the run
# made the log's fsyncs wait behind it (p99 of a second in one run).
sync
# shellcheck disable=SC2086
java -Xms12g -Xmx12g -XX:+UseZGC -XX:+UseTransparentHugePages -Xlog:gc*,safepoint:file="$WORK/gc.log" ${NEARDUP_JAVA_OPTS:-} -cp "$CP" org.neardup.server.Main \
  --data "$WORK/data" --port "$PORT" --lexicon none --fsync always > "$WORK/out" 2> "$WORK/err" &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
until grep -q "listening on" "$WORK/out"; do sleep 0.5; kill -0 $PID; done
grep "listening on" "$WORK/out"
URL=http://127.0.0.1:$PORT
case $MODE in
  fingerprint|text) SCRIPT=insert.lua; ARGS=("$COLLECTION" 30 "$MODE"); PER=1 ;;
  batch-fingerprint) SCRIPT=batch.lua; ARGS=("$COLLECTION" "$BATCH" fingerprint 30); PER=$BATCH ;;
  batch-text) SCRIPT=batch.lua; ARGS=("$COLLECTION" "$BATCH" text 30); PER=$BATCH ;;
  *) echo "unknown mode $MODE"; exit 2 ;;
esac
# Batch bodies are generated before each run, for up to RATE requests/s (then one per request), so
# that making them does not take the server's CPU during the run; each is sent once.
RATE=0
case $MODE in
  batch-fingerprint) RATE=$((3000 * 100 / BATCH)) ;;
  batch-text) RATE=$((1000 * 100 / BATCH)) ;;
esac
wrk -t1 -c"$CONNS" -d10s -s "$HERE/$SCRIPT" "$URL" -- "${ARGS[@]}" $((RATE * 10)) > /dev/null
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
# Machine-wide CPU ticks: busy (steal included), idle + iowait, and steal (the host's other guests).
cpu() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6, $9}' /proc/stat; }
logm() { curl -s "$URL/metrics" | awk '/^neardup_store_log_fsyncs_total/ {f = $2} /^neardup_store_log_fsync_seconds_total/ {s = $2} END {print f, s}'; }
L0=$(logm)
stdbuf -oL wrk -t1 -c"$CONNS" -d"${SECONDS_}s" --latency -s "$HERE/$SCRIPT" "$URL" -- "${ARGS[@]}" \
  $((RATE * SECONDS_)) > "$WORK/wrk" &
WRK=$!
until grep -q "^Running" "$WORK/wrk"; do sleep 0.1; done # bodies made, the run starts
C0=$(ticks $PID); W0=$(ticks $WRK); W1=$W0; M0=$(cpu)
while kill -0 $WRK 2>/dev/null; do W1=$(ticks $WRK || echo "$W1"); sleep 0.2; done
wait $WRK
M1=$(cpu)
cat "$WORK/wrk"
C1=$(ticks $PID)
echo "huge pages: shmem_enabled $(cat /sys/kernel/mm/transparent_hugepage/shmem_enabled 2>/dev/null || echo absent), heap on them at the end: $(awk '/^ShmemHugePages/ {print $2 / 1024 " MB"}' /proc/meminfo)"
grep -h "huge pages" "$WORK/err" || true
L1=$(logm)
N=$(grep -oP '\d+(?= requests in)' "$WORK/wrk")
RPS=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk")
echo "documents/s: $(awk -v r="$RPS" -v p="$PER" 'BEGIN {printf "%.0f", r * p}')"
echo "server CPU per request: $(( (C1 - C0) * 10000 / N )) us (user+sys, clock ticks of 10 ms)"
echo "wrk CPU per request: $(( (W1 - W0) * 10000 / N )) us (user+sys during the run)"
echo "$M0 $M1" | awk '{b = $4 - $1; i = $5 - $2; printf "machine during the run: idle %.0f%%, stolen by the host %.1f%%\n", 100 * i / (b + i), 100 * ($6 - $3) / (b + i)}'
# The server's own view (its latency histogram, warm-up included): what wrk adds is its own
# scheduling on the same two cores, and the sockets.
ROUTE=/v1/collections/{c}/documents; [ "$SCRIPT" = batch.lua ] && ROUTE=/v1/collections/{c}/batch
curl -s "$URL/metrics" | awk -v route="route=\"$ROUTE\"" '/^neardup_http_requests_seconds_bucket/ && /method="POST"/ && /status="200"/ && index($0, route) {
  match($0, /le="[^"]+"/); v = substr($0, RSTART + 4, RLENGTH - 5); n++; le[n] = v; c[n] = $2 }
  END { t = c[n]; for (i = 1; i <= n; i++) { if (le[i] != "+Inf" && le[i] + 0 <= 0.0105) under = c[i]; if (p99 == "" && c[i] >= 0.99 * t) p99 = le[i] }
  if (t > 0) printf "server-side latency: %d requests, %.2f%% over 10 ms, p99 under %.1f ms\n", t, 100 * (t - under) / t, p99 * 1000 }' 
echo "$L0 $L1" | awk -v n="$N" '{f = $3 - $1; printf "fsyncs per request: %.2f, mean fsync %.0f us\n", f / n, (f > 0 ? ($4 - $2) / f * 1e6 : 0)}'
curl -s "$URL/metrics" | grep -E '^neardup_store_open_seconds|^neardup_index_(documents|bytes)\{collection="'"$COLLECTION"'"' || true
jcmd $PID GC.run > /dev/null; sleep 2
jcmd $PID GC.heap_info | head -3
echo "GC pauses over 1 ms during the run: $(grep -oP 'Pause \w+.* \K[0-9.]+(?=ms)' "$WORK/gc.log" | awk '$1 > 1' | wc -l), max $(grep -oP 'Pause \w+.* \K[0-9.]+(?=ms)' "$WORK/gc.log" | sort -n | tail -1) ms"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GB, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1)"
