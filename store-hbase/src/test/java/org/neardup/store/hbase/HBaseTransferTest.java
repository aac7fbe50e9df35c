// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionDump;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;
import org.neardup.testkit.Texts;

/**
 * A collection moves embedded -> HBase -> embedded through dumps with nothing lost (the three dumps
 * hold equal records) and the three stores answer alike; an import that does not finish leaves no
 * collection. Against a real in-process HBase.
 */
@ExtendWith(MiniHBase.class)
class HBaseTransferTest {

  @TempDir Path tmp;

  private static FingerprintStore hbase(String prefix) throws IOException {
    return HBaseStoreProvider.open(
        MiniHBase.conf(), StoreConfig.of(Map.of("prefix", prefix)), "mini-cluster");
  }

  private static FingerprintStore embedded(Path dir) throws IOException {
    return FingerprintStore.open("embedded", StoreConfig.of(Map.of("data", dir.toString())));
  }

  private static byte[] export(FingerprintStore s, String name) throws IOException {
    Collection c = s.collection(name);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CollectionDump.Writer w =
        new CollectionDump.Writer(
            out,
            new CollectionDump.Header(
                s.kind(), name, c.settings().toText(), c.analyzer().id(), 0, -1),
            true)) {
      CollectionTransfer.of(s).export(name, w::write);
      w.finish();
    }
    return out.toByteArray();
  }

  private static void load(FingerprintStore s, byte[] dump) throws IOException {
    try (CollectionDump.Reader r = new CollectionDump.Reader(new ByteArrayInputStream(dump), "d");
        CollectionTransfer.Importer in =
            CollectionTransfer.of(s)
                .importer(
                    r.header().name(),
                    CollectionSettings.parse(r.header().settings()),
                    r.header().analyzerId())) {
      for (StoredRecord x = r.next(); x != null; x = r.next()) {
        in.add(x);
      }
      in.finish();
    }
  }

  private static List<StoredRecord> records(byte[] dump) throws IOException {
    List<StoredRecord> out = new ArrayList<>();
    try (CollectionDump.Reader r = new CollectionDump.Reader(new ByteArrayInputStream(dump), "d")) {
      for (StoredRecord x = r.next(); x != null; x = r.next()) {
        out.add(x);
      }
    }
    return out;
  }

  private static String answer(Outcome o) {
    return o.status() + " new=" + o.isNew() + " cluster=" + o.cluster() + " " + o.matches();
  }

  @Test
  void embeddedToHBaseAndBack_nothingLost_sameAnswers() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withRetention(Duration.ofDays(30));
    SplittableRandom r = new SplittableRandom(7);
    List<String> ids = new ArrayList<>();
    List<String> probes = new ArrayList<>();
    byte[] a;
    try (FingerprintStore e = embedded(tmp.resolve("a"))) {
      Collection c = e.create("news", settings);
      List<Document> docs = new ArrayList<>();
      long now = System.currentTimeMillis();
      for (int g = 0; g < 150; g++) {
        String base = Texts.text(r, 40);
        probes.add(Texts.edit(r, base));
        int copies = 1 + r.nextInt(4);
        for (int i = 0; i < copies; i++) {
          String id = "doc-" + g + "-" + i;
          ids.add(id);
          long ts = r.nextInt(3) == 0 ? now - r.nextInt(1_000_000) : Document.NO_TIMESTAMP;
          docs.add(new Document(id, c.analyzer().analyze(i == 0 ? base : Texts.edit(r, base)), ts));
        }
      }
      c.checkAndInsertAll(docs);
      for (int g = 0; g < 150; g += 7) {
        c.delete("doc-" + g + "-0");
      }
      a = export(e, "news");
    }
    byte[] b;
    try (FingerprintStore h = hbase("x1")) {
      load(h, a);
      b = export(h, "news");
    }
    byte[] c2;
    try (FingerprintStore e = embedded(tmp.resolve("c"))) {
      load(e, b);
      c2 = export(e, "news");
    }
    List<StoredRecord> first = records(a);
    assertThat(first).hasSizeGreaterThan(250);
    assertThat(first.stream().filter(x -> !x.isRoot()).count()).isGreaterThan(80);
    assertThat(records(b)).isEqualTo(first);
    assertThat(records(c2)).isEqualTo(first);

    try (FingerprintStore e1 = embedded(tmp.resolve("a"));
        FingerprintStore h = hbase("x1");
        FingerprintStore e2 = embedded(tmp.resolve("c"))) {
      List<Collection> all =
          List.of(e1.collection("news"), h.collection("news"), e2.collection("news"));
      assertThat(all.get(1).stats().documents()).isEqualTo(first.size());
      for (String id : ids) {
        assertThat(all.get(1).get(id)).as(id).isEqualTo(all.get(0).get(id));
        assertThat(all.get(2).get(id)).as(id).isEqualTo(all.get(0).get(id));
      }
      for (int i = 0; i < probes.size(); i++) {
        Analysis p = all.get(0).analyzer().analyze(probes.get(i));
        String expected = answer(all.get(0).check(p));
        assertThat(answer(all.get(1).check(p))).isEqualTo(expected);
        assertThat(answer(all.get(2).check(p))).isEqualTo(expected);
        if (i % 3 == 0) {
          Document d = new Document("new-" + i, p);
          String inserted = answer(all.get(0).checkAndInsert(d));
          assertThat(answer(all.get(1).checkAndInsert(d))).isEqualTo(inserted);
          assertThat(answer(all.get(2).checkAndInsert(d))).isEqualTo(inserted);
        }
      }
    }
  }

  @Test
  void importNotFinished_leavesNothing_andExistingNameIsRefused() throws IOException {
    CollectionSettings settings = CollectionSettings.defaults().withLexicon("none");
    byte[] dump;
    try (FingerprintStore e = embedded(tmp.resolve("e"))) {
      Collection c = e.create("news", settings);
      SplittableRandom r = new SplittableRandom(3);
      for (int i = 0; i < 30; i++) {
        c.checkAndInsert(new Document("d" + i, c.analyzer().analyze(Texts.text(r, 30))));
      }
      dump = export(e, "news");
    }
    try (FingerprintStore h = hbase("x2")) {
      List<StoredRecord> all = records(dump);
      try (CollectionTransfer.Importer in =
          CollectionTransfer.of(h)
              .importer("news", settings, settings.deduplicator().analyzer().id())) {
        for (StoredRecord x : all.subList(0, 20)) {
          in.add(x);
        }
        assertThat(h.collection("news")).isNull(); // nobody sees it before finish
      } // closed without finish: as when the dump turns out corrupt
      assertThat(h.collections()).isEmpty();
      load(h, dump);
      assertThat(h.collection("news").stats().documents()).isEqualTo(30);
      assertThatThrownBy(() -> load(h, dump))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("collection 'news' exists");
    }
  }
}
