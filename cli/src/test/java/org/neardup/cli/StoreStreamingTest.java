// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.CollectionDump;
import org.neardup.store.CollectionSettings;
import org.neardup.store.StoredRecord;
import org.neardup.testkit.RedisServer;

/**
 * {@code neardup store import} and {@code export} stream: 300,000 documents (about 60 MB as records
 * on the heap) go file -> Redis -> file in processes with a 40 MB heap, and come back equal.
 */
class StoreStreamingTest {
  private static final int DOCUMENTS = 300_000;

  @TempDir Path tmp;

  private static StoredRecord record(SplittableRandom r, long ordinal, long root, String cluster) {
    return new StoredRecord(
        ordinal,
        "https://example.com/news/" + ordinal + ".html",
        r.nextLong(),
        1_700_000_000_000L + ordinal,
        Long.MAX_VALUE,
        root,
        cluster,
        new long[0],
        new byte[0]);
  }

  private int cli(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx40m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("out.txt").toFile())
            .start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
    if (p.exitValue() != 0) {
      System.err.println(Files.readString(tmp.resolve("out.txt")));
    }
    return p.exitValue();
  }

  @Test
  void importThenExport_largeCollection_smallHeap_sameRecords() throws Exception {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    Path in = tmp.resolve("in.ndump");
    SplittableRandom r = new SplittableRandom(5);
    try (OutputStream out = Files.newOutputStream(in);
        CollectionDump.Writer w =
            new CollectionDump.Writer(
                out,
                new CollectionDump.Header(
                    "test",
                    "big",
                    settings.toText(),
                    settings.deduplicator().analyzer().id(),
                    0,
                    DOCUMENTS),
                false)) {
      long ordinal = 0;
      for (int i = 0; i < DOCUMENTS; i++) {
        // Every tenth document joins the cluster of the one before it.
        long root = i % 10 == 9 ? ordinal - 1 : ordinal;
        String cluster = "https://example.com/news/" + root + ".html";
        w.write(record(r, ordinal, root, cluster));
        ordinal += 1 + (i % 100 == 0 ? 5 : 0); // gaps, as removed documents leave
      }
      w.finish();
    }
    try (RedisServer redis = RedisServer.start()) {
      String[] store = {"--store", "redis", "--store-option", "url=" + redis.url(), "--quiet"};
      List<String> args = new ArrayList<>(List.of("store", "import"));
      args.addAll(List.of(store));
      args.addAll(List.of("--in", in.toString()));
      assertThat(cli(args.toArray(new String[0]))).isZero();
      Path back = tmp.resolve("back.ndump.gz");
      args = new ArrayList<>(List.of("store", "export"));
      args.addAll(List.of(store));
      args.addAll(List.of("big", "--out", back.toString()));
      assertThat(cli(args.toArray(new String[0]))).isZero();
      try (InputStream a = Files.newInputStream(in);
          InputStream b = Files.newInputStream(back);
          CollectionDump.Reader ra = new CollectionDump.Reader(a, "in");
          CollectionDump.Reader rb = new CollectionDump.Reader(b, "back")) {
        StoredRecord x = ra.next();
        StoredRecord y = rb.next();
        while (x != null) {
          assertThat(y).isEqualTo(x);
          x = ra.next();
          y = rb.next();
        }
        assertThat(y).isNull();
        assertThat(rb.count()).isEqualTo(DOCUMENTS);
      }
    }
  }
}
