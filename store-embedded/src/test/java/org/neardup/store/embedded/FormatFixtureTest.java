// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
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
   * A version 3 directory (written by BulkLoad of the build before format 4: 300 texts of 30 words,
   * their sketches in snapshot-0.ndsketch) opens; a checkpoint (a rebuild, every sketch read whole
   * from that file, which it keeps) and a compaction without a rebuild write version 4 snapshots,
   * and every step, and a reopen, answers alike: each stored analysis finds its own document,
   * verified against its sketch.
   */
  @Test
  public void version3Directory_opensAndCompactsToVersion4() throws IOException {
    String[] files = {
      "snapshot-00000000000000000000.ndsnap", "snapshot-00000000000000000000.ndsketch"
    };
    for (String f : files) {
      try (InputStream in = getClass().getResourceAsStream("fixture-v3/" + f)) {
        assertThat(in).as("fixture file %s", f).isNotNull();
        Files.copy(in, dir.resolve(f));
      }
    }
    Path snapshot = dir.resolve(files[0]);
    Files.write(snapshot, withThisBuildsAnalyzers(Files.readAllBytes(snapshot)));
    List<org.neardup.Analysis> stored = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(snapshot)) {
      while (r.next()) {
        int at = LogFormat.analysisOffset(r.body(), r.length());
        stored.add(org.neardup.Analysis.decode(r.body(), at, r.length() - at));
        int n = LogFormat.idLength(r.body());
        ids.add(new String(r.body(), LogFormat.ID, n, java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    assertThat(ids).hasSize(300);
    List<List<String>> answers = new ArrayList<>();
    for (int step = 0; step < 3; step++) {
      try (EmbeddedStore s =
          EmbeddedStore.builder(dir)
              .clock(new ManualClock())
              .background(false)
              .snapshotOnClose(false)
              .open()) {
        Collection c = s.collection("news");
        answers.add(answers(c, stored));
        if (step == 0) {
          s.checkpoint(); // rebuilds: reads every sketch whole from the version 3 file
          assertThat(dir.resolve(files[1])).exists(); // kept, not copied
          answers.add(answers(c, stored));
        } else if (step == 1) {
          s.compactNow();
          answers.add(answers(c, stored));
        }
      }
    }
    for (int i = 0; i < ids.size(); i++) {
      assertThat(answers.get(0).get(i)).startsWith("checked " + ids.get(i) + "@0/1000");
    }
    for (List<String> a : answers) {
      assertThat(a).isEqualTo(answers.get(0));
    }
    try (SnapshotFormat.Reader r =
        new SnapshotFormat.Reader(StoreTesting.onlyFile(dir, ".ndsnap"), true)) {
      assertThat(StoreTesting.files(dir, ".ndsketch"))
          .containsExactlyInAnyOrderElementsOf(r.sketchFiles());
    }
  }

  private static List<String> answers(Collection c, List<org.neardup.Analysis> stored) {
    List<String> out = new ArrayList<>();
    for (org.neardup.Analysis a : stored) {
      org.neardup.store.Outcome o = c.check(a);
      StringBuilder b = new StringBuilder(o.status().toString().toLowerCase(java.util.Locale.ROOT));
      for (org.neardup.store.Outcome.Match m : o.matches()) {
        b.append(' ').append(m.id()).append('@').append(m.distance()).append('/');
        b.append(Math.round(m.similarity() * 1000));
      }
      out.add(b.toString());
    }
    return out;
  }

  /**
   * Copies the fixture of {@code version} with each collection's analyzer id set to this build's
   * for its settings (and the snapshot's checksum redone), so the store opens it whatever core's
   * fingerprint settings are now: the ids name them, and once core changes them a store rightly
   * refuses the old data. The store tests then check what the format decides (documents, times,
   * deletions, clusters, the stored fingerprints and sketches), none of which depends on the
   * analyzer: a check below sends the fixture's own stored analysis, not a new one.
   */
  private void copyFixtureForThisAnalyzer(int version) throws IOException {
    copyFixture(version);
    Path snapshot = dir.resolve(FILES[0]);
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(snapshot)) {
      while (r.next()) {
        int n = LogFormat.idLength(r.body());
        if (new String(r.body(), LogFormat.ID, n, java.nio.charset.StandardCharsets.UTF_8)
            .equals("a")) {
          int at = LogFormat.analysisOffset(r.body(), r.length());
          storedA = org.neardup.Analysis.decode(r.body(), at, r.length() - at);
        }
      }
    }
    Files.write(snapshot, withThisBuildsAnalyzers(Files.readAllBytes(snapshot)));
  }

  /** The fixture's analysis of document "a", as its snapshot holds it. */
  private org.neardup.@org.jspecify.annotations.Nullable Analysis storedA;

  /**
   * A version 1 or 2 snapshot with every collection's AnalyzerId replaced by this build's for its
   * Settings, and the Checksum redone (see {@link SnapshotFormat}'s grammar).
   */
  private static byte[] withThisBuildsAnalyzers(byte[] file) {
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(file);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(file, 0, 28); // Magic, Version, LastSegment, CreatedAt
    in.position(28);
    int count = in.getInt();
    java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate(4).putInt(count);
    out.write(head.array(), 0, 4);
    for (int c = 0; c < count; c++) {
      int start = in.position();
      in.position(start + 20); // Number, NextDocId, Documents
      String name = string(in);
      String settings = string(in);
      string(in); // the analyzer id the fixture was written with
      out.write(file, start, 20);
      writeString(out, name);
      writeString(out, settings);
      writeString(out, CollectionSettings.parse(settings).deduplicator().analyzer().id());
    }
    int footer = file.length - 12; // Checksum (int32), EndMagic
    out.write(file, in.position(), footer - in.position());
    byte[] body = out.toByteArray();
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body);
    java.nio.ByteBuffer result = java.nio.ByteBuffer.allocate(body.length + 12);
    result.put(body).putInt((int) crc.getValue()).put(file, footer + 4, 8);
    return result.array();
  }

  private static String string(java.nio.ByteBuffer in) {
    byte[] b = new byte[Short.toUnsignedInt(in.getShort())];
    in.get(b);
    return new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static void writeString(java.io.ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.write(b.length >>> 8);
    out.write(b.length);
    out.write(b, 0, b.length);
  }

  /** The fixture's documents, deletion and clusters, as {@link FixtureWriter} wrote them. */
  private void assertFixtureDocuments(EmbeddedStore s) {
    Collection c = s.collection("news");
    assertThat(c.get("a").orElseThrow().timestamp()).isEqualTo(1_700_000_000_000L);
    assertThat(c.get("b")).isEmpty();
    assertThat(c.get("d").orElseThrow().cluster()).isEqualTo("c");
    // Verified against the sketch the store read back: the stored analysis of "a" is its duplicate.
    assertThat(c.check(java.util.Objects.requireNonNull(storedA)).cluster()).isEqualTo("a");
    Collection f = s.collection("fps");
    assertThat(f.get("x").orElseThrow().fingerprint()).isEqualTo(0x0123_4567_89ab_cdefL);
    assertThat(f.get("y").orElseThrow().cluster()).isEqualTo("x");
  }
}
