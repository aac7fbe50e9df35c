// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Outcome;

/**
 * Issue: a document that matched two clusters merges them, but log format version 1 recorded only
 * one cluster per insert, so replaying the log (a restart without a snapshot) joined the document
 * to one of them and the other cluster came back split off. Version 2 logs every joined cluster.
 */
class JoinedReplayTest {
  private static final List<String> IDS = List.of("a", "b", "b2", "c", "d");

  @TempDir Path dir;

  /**
   * Texts a and b are not near-duplicates; c is a near-duplicate of both (measured: 0.90, 0.86).
   */
  private static Map<String, String> texts() {
    SplittableRandom r = new SplittableRandom(3);
    String[] w = new String[80];
    for (int i = 0; i < w.length; i++) {
      w[i] = "word" + r.nextInt(100000);
    }
    String[] b = w.clone();
    String[] c = w.clone();
    for (int i = 0; i < 4; i++) {
      b[i * 5] = "other" + i;
      if (i % 2 == 0) {
        c[i * 5] = "other" + i;
      }
    }
    Map<String, String> t = new HashMap<>();
    t.put("a", String.join(" ", w));
    t.put("b", String.join(" ", b));
    t.put("b2", String.join(" ", b) + " " + b[79]);
    t.put("c", String.join(" ", c));
    t.put("d", String.join(" ", c) + " " + c[78]);
    return t;
  }

  private EmbeddedStore open() throws IOException {
    return EmbeddedStore.builder(dir).background(false).snapshotOnClose(false).open();
  }

  private static Map<String, String> clusters(Collection c) {
    Map<String, String> out = new HashMap<>();
    for (String id : IDS) {
      out.put(id, c.get(id).orElseThrow().cluster());
    }
    return out;
  }

  @Test
  public void open_fromLogOnly_documentThatJoinedTwoClusters_keepsThemMerged() throws IOException {
    Map<String, String> t = texts();
    Map<String, String> before;
    try (EmbeddedStore s = open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      assertThat(c.checkAndInsert(doc(c, "a", t.get("a"))).isNew()).isTrue();
      assertThat(c.checkAndInsert(doc(c, "b", t.get("b"))).isNew()).isTrue();
      assertThat(c.checkAndInsert(doc(c, "b2", t.get("b2"))).cluster()).isEqualTo("b");
      Outcome joined = c.checkAndInsert(doc(c, "c", t.get("c")));
      assertThat(joined.matches()).extracting(Outcome.Match::id).contains("a", "b");
      c.checkAndInsert(doc(c, "d", t.get("d")));
      before = clusters(c);
      assertThat(before).containsEntry("b", "a").containsEntry("b2", "a");
    }
    assertThat(StoreTesting.files(dir, ".ndsnap")).isEmpty();

    try (EmbeddedStore s = open()) {
      assertThat(clusters(s.collection("news"))).isEqualTo(before);
      // And again from a snapshot, which keeps one Cluster per document.
      s.checkpoint();
    }
    assertThat(StoreTesting.files(dir, ".ndsnap")).hasSize(1);
    try (EmbeddedStore s = open()) {
      Collection c = s.collection("news");
      assertThat(clusters(c)).isEqualTo(before);
      assertThat(c.check(c.analyzer().analyze(t.get("b2"))).cluster()).isEqualTo("a");
    }
  }

  @Test
  public void open_fromLogOnly_joinedRepresentativeDeleted_clusterStaysWhole() throws IOException {
    Map<String, String> t = texts();
    Map<String, String> before;
    try (EmbeddedStore s = open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      c.checkAndInsert(doc(c, "a", t.get("a")));
      c.checkAndInsert(doc(c, "b", t.get("b")));
      c.checkAndInsert(doc(c, "b2", t.get("b2")));
      c.checkAndInsert(doc(c, "c", t.get("c")));
      c.checkAndInsert(doc(c, "d", t.get("d")));
      assertThat(c.delete("b")).isTrue();
      before = new HashMap<>();
      for (String id : List.of("a", "b2", "c", "d")) {
        before.put(id, c.get(id).orElseThrow().cluster());
      }
    }
    try (EmbeddedStore s = open()) {
      Collection c = s.collection("news");
      for (String id : List.of("a", "b2", "c", "d")) {
        assertThat(c.get(id).orElseThrow().cluster()).as(id).isEqualTo(before.get(id));
      }
      assertThat(c.get("b")).isEmpty();
    }
  }
}
