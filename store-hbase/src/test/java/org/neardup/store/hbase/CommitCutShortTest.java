// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;

/**
 * A commit cut short (the process stopped between its steps) on a real mini-cluster. Symptom
 * before: a commit stopped after it had written some of its documents' rows left rows that later
 * checks found, so a document no caller was told was stored matched until it expired. Cause: the
 * rows were readable as soon as they were written. Now the rows are ignored until the sequence's
 * compare-and-set commits their ordinals ({@link Sequence}).
 */
@ExtendWith(MiniHBase.class)
class CommitCutShortTest {
  private static int stores;

  /** Another node: a store of its own on the same tables. */
  private static HBaseStore node(String prefix) throws IOException {
    return (HBaseStore)
        HBaseStoreProvider.open(
            MiniHBase.conf(),
            new StoreConfig(Map.of("prefix", prefix), InstantSource.system()),
            "mini-cluster");
  }

  private static CollectionSettings fingerprintsOnly() {
    return CollectionSettings.defaults()
        .withLexicon(CollectionSettings.NO_LEXICON)
        .withVerify(false)
        .withMaxDistance(3);
  }

  private static Document doc(String id, long fp) {
    return new Document(id, Analysis.ofFingerprint(fp, 100));
  }

  private static List<String> ids(Outcome o) {
    List<String> out = new ArrayList<>();
    o.matches().forEach(m -> out.add(m.id()));
    return out;
  }

  private static long exported(FingerprintStore s, String name) throws IOException {
    long[] n = {0};
    CollectionTransfer.of(s).export(name, r -> n[0]++);
    return n[0];
  }

  @Test
  void cutAfterRowsWritten_rowsNeverMatch_idIsFree_andTheNextCommitHidesThemForGood()
      throws IOException {
    String prefix = "cut" + (++stores);
    SplittableRandom r = new SplittableRandom(19);
    long[] base = new long[10];
    try (HBaseStore a = node(prefix);
        HBaseStore b = node(prefix)) {
      HBaseCollection ca = (HBaseCollection) a.create("c", fingerprintsOnly());
      List<Document> first = new ArrayList<>();
      for (int i = 0; i < base.length; i++) {
        base[i] = r.nextLong();
        first.add(doc("d" + i, base[i]));
      }
      ca.checkAndInsertAll(first);
      long ghost = r.nextLong();
      ca.failPoint =
          step -> {
            if (step.equals("rows-written")) {
              throw new IOException("stopped after writing the rows");
            }
          };
      // A new document and a near-copy of d3: every row of both is written, the commit is not.
      assertThatThrownBy(
              () -> ca.checkAndInsertAll(List.of(doc("x", ghost), doc("y", base[3] ^ 1))))
          .isInstanceOf(IOException.class);
      ca.failPoint = null;

      Collection cb = b.collection("c");
      // The other node sees none of it: no match, no id, no count, nothing exported.
      assertThat(cb.check(Analysis.ofFingerprint(ghost ^ 6, 100)).isNew()).isTrue();
      assertThat(ids(cb.check(Analysis.ofFingerprint(base[3] ^ 2, 100)))).containsExactly("d3");
      assertThat(cb.get("x")).isEmpty();
      assertThat(cb.get("y")).isEmpty();
      assertThat(cb.stats().documents()).isEqualTo(10);
      assertThat(exported(b, "c")).isEqualTo(10);

      // The same ids sent again are new documents; then the cut commit's ordinals are a hole.
      List<Outcome> again = cb.checkAndInsertAll(List.of(doc("x", ghost), doc("y", base[3] ^ 1)));
      assertThat(again.get(0).isNew()).isTrue();
      assertThat(again.get(1).cluster()).isEqualTo("d3");
      assertThat(((HBaseCollection) cb).sequence().holes()).isEqualTo(1);
      assertThat(ids(ca.check(Analysis.ofFingerprint(ghost ^ 1, 100)))).containsExactly("x");
      assertThat(ids(ca.check(Analysis.ofFingerprint(base[3], 100))))
          .containsExactlyInAnyOrder("d3", "y");
      assertThat(ca.get("x")).isPresent();
      assertThat(exported(a, "c")).isEqualTo(12);
      assertThat(ca.stats().documents()).isEqualTo(12);
    }
  }

  @Test
  void cutAfterCommit_documentIsStored_andSendingItAgainSaysExists() throws IOException {
    String prefix = "cut" + (++stores);
    long fp = new SplittableRandom(20).nextLong();
    try (HBaseStore a = node(prefix);
        HBaseStore b = node(prefix)) {
      HBaseCollection ca = (HBaseCollection) a.create("c", fingerprintsOnly());
      ca.failPoint =
          step -> {
            if (step.equals("committed")) {
              throw new IOException("stopped after the commit");
            }
          };
      assertThatThrownBy(() -> ca.checkAndInsertAll(List.of(doc("z", fp))))
          .isInstanceOf(IOException.class);
      ca.failPoint = null;
      // The caller got an error (503), but the commit point was passed: the document is stored,
      // and a retry of the same document is told it exists rather than storing a second copy.
      Collection cb = b.collection("c");
      assertThat(cb.get("z")).isPresent();
      assertThat(ids(cb.check(Analysis.ofFingerprint(fp ^ 4, 100)))).containsExactly("z");
      assertThat(cb.checkAndInsertAll(List.of(doc("z", fp))).get(0).status())
          .isEqualTo(Outcome.Status.EXISTS);
      assertThat(((HBaseCollection) cb).sequence().holes()).isZero();
    }
  }
}
