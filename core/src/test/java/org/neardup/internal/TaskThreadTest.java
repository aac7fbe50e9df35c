// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Symptom (issue 18, 2026-11-26): a store of 10M documents opened from an index image held 80 B per
 * document more live heap right at /ready than a moment later. Cause: the open's band filers were
 * threads whose fields held their restore batches, and a finished thread's object stays reachable
 * inside the JVM for a while after join returns; so the finished thread must not refer to its work.
 */
class TaskThreadTest {
  @Test
  void finish_threadStillReferenced_letsGoOfItsWork() throws InterruptedException {
    long[][] payload = {new long[1 << 16]};
    WeakReference<long[]> weak = new WeakReference<>(payload[0]);
    AtomicInteger sum = new AtomicInteger();
    TaskThread t = new TaskThread("test-task", work(payload, sum));
    payload[0] = null; // from here on only the work refers to the array
    assertTrue(t.holdsWork());
    t.start();
    t.finish();
    assertFalse(t.holdsWork());
    assertEquals(1 << 16, sum.get());
    for (int i = 0; i < 50 && weak.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertNull(weak.get(), "the finished thread, still referenced here, keeps its work's data");
    assertFalse(t.isAlive());
  }

  /** A work that reads the array once, holding it only until it runs. */
  private static Runnable work(long[][] payload, AtomicInteger sum) {
    long[] data = payload[0];
    return () -> sum.addAndGet(data.length);
  }

  @Test
  void run_inCallersThread_runsOnceAndLetsGo() {
    AtomicInteger runs = new AtomicInteger();
    TaskThread t = new TaskThread("test-task", runs::incrementAndGet);
    t.run();
    t.run();
    t.finish();
    assertEquals(1, runs.get());
    assertFalse(t.holdsWork());
  }

  @Test
  void finish_workThrew_rethrowsItAndLetsGo() {
    IllegalStateException thrown = new IllegalStateException("boom");
    TaskThread t =
        new TaskThread(
            "test-task",
            () -> {
              throw thrown;
            });
    t.start();
    IllegalStateException e = assertThrows(IllegalStateException.class, t::finish);
    assertSame(thrown, e);
    assertFalse(t.holdsWork());
  }
}
