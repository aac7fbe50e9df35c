#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Stage times of a Spark run from its event log (--conf spark.eventLog.enabled=true
--conf spark.eventLog.dir=file:///DIR): per stage, its call site in the job, wall seconds, task CPU
seconds, shuffle bytes written and read, records in and out; then the totals.

Usage: spark/stage-times.py EVENT_LOG_FILE
"""
import json
import sys


def main(path):
    stages = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if e.get("Event") != "SparkListenerStageCompleted":
                continue
            info = e["Stage Info"]
            acc = {a["Name"]: a.get("Value", 0) for a in info.get("Accumulables", [])}
            wall = (info.get("Completion Time", 0) - info.get("Submission Time", 0)) / 1000
            site = info.get("Stage Name", "")
            detail = info.get("Details", "")
            for frame in detail.splitlines():
                if "org.neardup.spark" in frame and "lambda" not in frame:
                    site = frame.strip()
                    break
            stages[info["Stage ID"]] = (
                site,
                wall,
                int(acc.get("internal.metrics.executorCpuTime", 0)) / 1e9,
                int(acc.get("internal.metrics.jvmGCTime", 0)) / 1e3,
                int(acc.get("internal.metrics.shuffle.write.bytesWritten", 0)),
                int(acc.get("internal.metrics.shuffle.read.remoteBytesRead", 0))
                + int(acc.get("internal.metrics.shuffle.read.localBytesRead", 0)),
                info.get("Number of Tasks", 0),
            )
    print(f"{'stage':>5} {'wall s':>7} {'cpu s':>7} {'gc s':>6} {'shuffle w MB':>12} {'shuffle r MB':>12} {'tasks':>5}  site")
    tw = tc = tg = tsw = tsr = 0
    for sid in sorted(stages):
        site, wall, cpu, gc, sw, sr, tasks = stages[sid]
        tw += wall
        tc += cpu
        tg += gc
        tsw += sw
        tsr += sr
        print(f"{sid:>5} {wall:7.1f} {cpu:7.1f} {gc:6.1f} {sw / 1e6:12.1f} {sr / 1e6:12.1f} {tasks:>5}  {site}")
    print(f"{'all':>5} {tw:7.1f} {tc:7.1f} {tg:6.1f} {tsw / 1e6:12.1f} {tsr / 1e6:12.1f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
