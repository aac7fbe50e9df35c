// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.testkit.Texts;

/** Every fsync policy keeps what it acknowledged; ALWAYS commits many writers per fsync. */
class FsyncPolicyTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FsyncPolicy.class)
  public void concurrentWriters_allKeptAcrossReopen(FsyncPolicy policy) throws Exception {
    int threads = 16;
    int each = 100;
    long syncs;
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).fsync(policy).background(false).snapshotOnClose(false).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS.withVerify(false));
      long before = s.metrics().get("log_fsyncs_total").longValue();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        fs.add(
            pool.submit(
                () -> {
                  SplittableRandom r = new SplittableRandom(thread);
                  for (int i = 0; i < each; i++) {
                    c.checkAndInsert(doc(c, thread + "-" + i, Texts.text(r, 10)));
                  }
                  return null;
                }));
      }
      for (Future<?> f : fs) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      syncs = s.metrics().get("log_fsyncs_total").longValue() - before;
    }
    switch (policy) {
      case ALWAYS:
        // Group commit: one fsync serves many writers.
        assertThat(syncs).isBetween(1L, (long) threads * each / 2);
        break;
      case NEVER:
        assertThat(syncs).isZero();
        break;
      default:
        break;
    }
    try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
      assertThat(s.collection("news").stats().documents()).isEqualTo((long) threads * each);
    }
  }

  @Test
  public void batch_isOneFsync() throws Exception {
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir)
            .fsync(FsyncPolicy.ALWAYS)
            .background(false)
            .snapshotOnClose(false)
            .open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS.withVerify(false));
      SplittableRandom r = new SplittableRandom(7);
      for (int round = 0; round < 3; round++) {
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
          docs.add(doc(c, round + "-" + i, Texts.text(r, 10)));
        }
        long before = s.metrics().get("log_fsyncs_total").longValue();
        if (round == 0) {
          c.checkAndInsertAll(docs);
        } else {
          c.checkAndInsertAllAsync(docs).get(60, TimeUnit.SECONDS);
        }
        // The log thread writes when the batch waits for its last record, not at its first.
        assertThat(s.metrics().get("log_fsyncs_total").longValue() - before)
            .as("fsyncs for a batch of 2000")
            .isEqualTo(1);
      }
      assertThat(c.stats().documents()).isEqualTo(6000);
    }
  }

  @Test
  public void parse_unknown_namesTheChoices() {
    assertThat(FsyncPolicy.parse("Always")).isEqualTo(FsyncPolicy.ALWAYS);
    assertThatThrownBy(() -> FsyncPolicy.parse("sometimes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("always, interval or never");
  }
}
