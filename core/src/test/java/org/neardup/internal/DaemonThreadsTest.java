// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {
  @Test
  void unstarted_isADaemonWithItsNameAndRunsItsWork() throws InterruptedException {
    AtomicReference<String> ranIn = new AtomicReference<>();
    Thread t =
        DaemonThreads.unstarted("neardup-test", () -> ranIn.set(Thread.currentThread().getName()));

    assertThat(t.isDaemon()).isTrue();
    assertThat(t.getState()).isEqualTo(Thread.State.NEW);
    t.start();
    t.join();
    assertThat(ranIn.get()).isEqualTo("neardup-test");
  }

  @Test
  void named_givesEveryThreadTheSameName() {
    ThreadFactory f = DaemonThreads.named("neardup-same");
    Thread a = f.newThread(() -> {});
    Thread b = f.newThread(() -> {});

    assertThat(List.of(a.getName(), b.getName())).containsExactly("neardup-same", "neardup-same");
    assertThat(a.isDaemon() && b.isDaemon()).isTrue();
  }

  @Test
  void numbered_countsFromOneInTheOrderMade_perFactory() {
    ThreadFactory f = DaemonThreads.numbered("neardup-pool-");
    ThreadFactory g = DaemonThreads.numbered("neardup-other-");
    List<String> names = new ArrayList<>();
    names.add(f.newThread(() -> {}).getName());
    names.add(f.newThread(() -> {}).getName());
    names.add(g.newThread(() -> {}).getName());
    names.add(f.newThread(() -> {}).getName());

    assertThat(names)
        .containsExactly("neardup-pool-1", "neardup-pool-2", "neardup-other-1", "neardup-pool-3");
  }

  @Test
  void anExecutorsWorkers_areDaemons() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2, DaemonThreads.named("neardup-exec"));
    try {
      assertThat(pool.submit(() -> Thread.currentThread().isDaemon()).get(10, TimeUnit.SECONDS))
          .isTrue();
    } finally {
      pool.shutdownNow();
    }
  }
}
