// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the shuffle bytes a run writes, per phase: each stage is charged to the phase that was set
 * ({@link #phase}) when its job was submitted. Figures for summary.json and the benchmarks.
 */
final class ShuffleMeter extends SparkListener {
  private static final String KEY = "neardup.phase";
  private final SparkContext sc;
  private final Map<Integer, String> stagePhase = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> bytes = new ConcurrentHashMap<>();
  private final AtomicLong tasks = new AtomicLong();

  ShuffleMeter(SparkContext sc) {
    this.sc = sc;
    sc.addSparkListener(this);
  }

  void phase(String name) {
    sc.setLocalProperty(KEY, name);
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted e) {
    String p = e.properties() == null ? null : e.properties().getProperty(KEY);
    stagePhase.put(e.stageInfo().stageId(), p == null ? "other" : p);
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    tasks.incrementAndGet();
    if (e.taskMetrics() == null) {
      return;
    }
    long w = e.taskMetrics().shuffleWriteMetrics().bytesWritten();
    String p = stagePhase.getOrDefault(e.stageId(), "other");
    bytes.computeIfAbsent(p, k -> new AtomicLong()).addAndGet(w);
  }

  /** Shuffle bytes written per phase, once the listener has caught up (best effort). */
  Map<String, Long> stop() {
    long seen = -1;
    for (int i = 0; i < 20 && seen != tasks.get(); i++) {
      seen = tasks.get();
      try {
        Thread.sleep(100);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    sc.removeSparkListener(this);
    sc.setLocalProperty(KEY, null);
    Map<String, Long> out = new java.util.TreeMap<>();
    bytes.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
