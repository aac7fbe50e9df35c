// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.testkit.ManualClock;

/**
 * Data directories written by each format version ({@link FixtureWriter}: version 1 logged one
 * Cluster per insert, version 2 the Joined list) still read: the files are a format, and a change
 * that breaks them must bump the version and keep reading the old one.
 */
class FormatFixtureTest {
  private static final String[] FILES = {
    "snapshot-00000000000000000000.ndsnap", "log-00000000000000000001.ndlog"
  };

  @TempDir Path dir;

  private void copyFixture(int version) throws IOException {
    for (String f : FILES) {
      try (InputStream in = getClass().getResourceAsStream("fixture-v" + version + "/" + f)) {
        assertThat(in).as("fixture file %s", f).isNotNull();
        Files.copy(in, dir.resolve(f));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  public void files_parseRecordByRecord(int version) throws IOException {
    copyFixture(version);
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(dir.resolve(FILES[0]))) {
      assertThat(r.lastSegment()).isZero();
      assertThat(r.collections())
          .extracting(SnapshotFormat.CollectionEntry::name)
          .containsExactly("news", "fps");
      assertThat(r.collections().get(1).settings())
          .isEqualTo(
              "k=2;threshold=0.8;verify=false;retention=PT87600H;basis=timestamp;lexicon=none");
      List<String> ids = new ArrayList<>();
      while (r.next()) {
        assertThat(LogFormat.joinedCount(r.body(), r.length())).isZero();
        int n = LogFormat.idLength(r.body());
        ids.add(new String(r.body(), LogFormat.ID, n, java.nio.charset.StandardCharsets.UTF_8));
      }
      assertThat(ids).containsExactly("a", "b", "c", "x");
    }
    List<Byte> types = new ArrayList<>();
    try (SegmentReader r = SegmentReader.open(dir.resolve(FILES[1]), 1)) {
      while (r.next()) {
        types.add(r.body()[0]);
      }
      assertThat(r.problem()).isNull();
    }
    byte insert = version == 1 ? LogFormat.INSERT_V1 : LogFormat.INSERT;
    assertThat(types).containsExactly(insert, LogFormat.DELETE, insert);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  public void store_opensWithEveryDocumentAndCluster(int version) throws IOException {
    copyFixtureForThisAnalyzer(version);
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).clock(new ManualClock()).background(false).open()) {
      assertFixtureDocuments(s);
      assertThat(s.collection("fps").settings().maxDistance()).isEqualTo(2);
    }
  }

  /**
   * An old directory opens, and its first snapshot after that is written in version 3 (the sketches
   * in their own file), which opens with the same documents and clusters.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  public void store_afterCheckpoint_reopensFromVersion3(int version) throws IOException {
    copyFixtureForThisAnalyzer(version);
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).clock(new ManualClock()).background(false).open()) {
      s.checkpoint();
    }
    Path snapshot = StoreTesting.onlyFile(dir, ".ndsnap");
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(snapshot, true)) {
      assertThat(r.sketchFile()).isEqualTo(StoreTesting.onlyFile(dir, ".ndsketch"));
    }
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).clock(new ManualClock()).background(false).open()) {
      assertFixtureDocuments(s);
    }
  }

  /**
   * Copies the fixture of {@code version}, and skips the test when its analyzer is not this
   * build's: the analyzers' ids name core's fingerprint settings; when core changes them, a store
   * rightly refuses the old data, and a store test has nothing to say.
   */
  private void copyFixtureForThisAnalyzer(int version) throws IOException {
    copyFixture(version);
    CollectionSettings news =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON);
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(dir.resolve(FILES[0]))) {
      assumeTrue(r.collections().get(0).analyzerId().equals(news.deduplicator().analyzer().id()));
    }
  }

  /** The fixture's documents, deletion and clusters, as {@link FixtureWriter} wrote them. */
  private static void assertFixtureDocuments(EmbeddedStore s) {
    Collection c = s.collection("news");
    assertThat(c.get("a").orElseThrow().timestamp()).isEqualTo(1_700_000_000_000L);
    assertThat(c.get("b")).isEmpty();
    assertThat(c.get("d").orElseThrow().cluster()).isEqualTo("c");
    assertThat(c.check(c.analyzer().analyze(FixtureWriter.A)).cluster()).isEqualTo("a");
    Collection f = s.collection("fps");
    assertThat(f.get("x").orElseThrow().fingerprint()).isEqualTo(0x0123_4567_89ab_cdefL);
    assertThat(f.get("y").orElseThrow().cluster()).isEqualTo("x");
  }
}
