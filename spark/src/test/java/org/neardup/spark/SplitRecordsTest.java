// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * The records and locations read again at write time ({@link SplitRecords}) are those of each
 * document's own line, for any number of splits, with blank, malformed, oversize and invalid UTF-8
 * lines among them; a file that changed since it was read fails the task instead.
 */
class SplitRecordsTest {
  private static final int MAX_BYTES = 400;

  static SparkSession spark;
  static JavaSparkContext jsc;
  @TempDir static Path tmp;

  @BeforeAll
  static void start() {
    spark = LocalSpark.start();
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** The file's lines: documents, and lines the reader treats apart. */
  private static List<byte[]> lines(boolean jsonl) {
    List<byte[]> lines = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String text = "document " + i + " about the river, the city and the bridge number " + i * 7;
      String line =
          jsonl
              ? "{\"id\":\"d"
                  + i
                  + "\",\"text\":\""
                  + text
                  + (i % 5 == 0 ? "\\n\\u00e9t\\u00e9" : "")
                  + "\"}"
              : text + " été";
      lines.add(line.getBytes(StandardCharsets.UTF_8));
      switch (i % 11) {
        case 1 -> lines.add(new byte[0]); // blank: no document in JSONL
        case 3 -> lines.add(" \t ".getBytes(StandardCharsets.UTF_8));
        case 4 -> lines.add("{\"id\":\"bad\",\"text\":".getBytes(StandardCharsets.UTF_8));
        case 6 -> lines.add(new byte[] {'{', '"', 'i', (byte) 0xC3, (byte) 0x28, '}'});
        case 8 -> lines.add("x".repeat(MAX_BYTES + 10).getBytes(StandardCharsets.UTF_8));
        case 9 -> lines.add("{\"id\":\"no-text\"}".getBytes(StandardCharsets.UTF_8));
        default -> {}
      }
    }
    return lines;
  }

  private static void write(Path file, List<byte[]> lines) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] l : lines) {
      out.write(l);
      out.write('\n');
    }
    Files.write(file, out.toByteArray());
  }

  private static boolean blank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads {@code file} in {@code splits} splits as the job does; each split's source to sources.
   */
  private static JavaRDD<Doc> read(
      Path file, int splits, List<SplitRecords.@Nullable Source> sources) throws IOException {
    DedupSettings s = new DedupSettings();
    s.inputPartitions = splits;
    s.maxDocBytes = MAX_BYTES;
    List<InputFiles.File> files =
        InputFiles.expand(
            List.of(file.toString()),
            InputFiles.Format.AUTO,
            spark.sparkContext().hadoopConfiguration());
    return DocumentReader.read(jsc, files, conf(), s, 0, new long[1], 1, sources);
  }

  private static HadoopConf conf() {
    return new HadoopConf(spark.sparkContext().hadoopConfiguration());
  }

  /** Reads {@code file} in {@code splits} splits, then fills the documents in as the write does. */
  private static List<Doc> readAndFill(Path file, int splits) throws IOException {
    List<SplitRecords.@Nullable Source> sources = new ArrayList<>();
    JavaRDD<Doc> docs = read(file, splits, sources);
    assertThat(sources).hasSize(docs.getNumPartitions());
    // As read and cached: no record, no location (they are what the write reads again).
    for (Doc d : docs.collect()) {
      assertThat(d.record).isEmpty();
      assertThat(d.location).isEmpty();
    }
    int maxBytes = MAX_BYTES;
    HadoopConf conf = conf();
    return docs.mapPartitionsWithIndex(
            (i, it) -> {
              Iterator<Tuple2<Doc, Fact>> decided =
                  new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                      return it.hasNext();
                    }

                    @Override
                    public Tuple2<Doc, Fact> next() {
                      return new Tuple2<>(it.next(), new Fact());
                    }
                  };
              SplitRecords.Source source = sources.get(i);
              Iterator<Tuple2<Doc, Fact>> filled =
                  SplitRecords.fill(decided, source, conf, maxBytes);
              List<Doc> out = new ArrayList<>();
              filled.forEachRemaining(e -> out.add(e._1()));
              return out.iterator();
            },
            true)
        .collect();
  }

  @Test
  void fill_jsonlAnySplits_givesEachDocumentItsOwnLine() throws IOException {
    Path file = tmp.resolve("docs.jsonl");
    List<byte[]> lines = lines(true);
    write(file, lines);
    for (int splits : new int[] {1, 3, 7, 40}) {
      List<Doc> docs = readAndFill(file, splits);
      int ordinal = 0;
      int errors = 0;
      for (int n = 1; n <= lines.size(); n++) {
        byte[] line = lines.get(n - 1);
        if (blank(line)) {
          continue;
        }
        Doc d = docs.get(ordinal);
        assertThat(d.ordinal).as("splits " + splits).isEqualTo(ordinal);
        assertThat(d.location).as("splits " + splits).isEqualTo(file + ":" + n);
        if (d.error == null) {
          assertThat(d.record).as("document at line " + n).isEqualTo(line);
        } else {
          errors++;
          assertThat(d.record).isEmpty();
        }
        ordinal++;
      }
      assertThat(docs).hasSize(ordinal);
      // i % 11 == 4, 6, 8, 9 for i < 60: 6 + 5 + 5 + 5 lines.
      assertThat(errors).as("malformed, invalid UTF-8, oversize, missing field").isEqualTo(21);
    }
  }

  @Test
  void fill_linesAnySplits_givesTheRecordOfEachLinesText() throws IOException {
    Path file = tmp.resolve("docs.txt");
    List<byte[]> lines = lines(false);
    write(file, lines);
    for (int splits : new int[] {1, 4, 9}) {
      List<Doc> docs = readAndFill(file, splits);
      assertThat(docs).hasSize(lines.size()); // every line is a document
      for (int n = 1; n <= lines.size(); n++) {
        Doc d = docs.get(n - 1);
        assertThat(d.location).isEqualTo(file + ":" + n);
        assertThat(d.idJson).isEqualTo(Integer.toString(n));
        if (d.error == null) {
          String text = new String(lines.get(n - 1), StandardCharsets.UTF_8);
          assertThat(new String(d.record, StandardCharsets.UTF_8))
              .isEqualTo("{\"id\":" + n + ",\"text\":" + DocumentReader.quote(text) + "}");
        }
      }
    }
  }

  @Test
  void fill_fileChangedSinceRead_failsInsteadOfWritingAnotherLine() throws IOException {
    Path file = tmp.resolve("changing.jsonl");
    List<byte[]> lines = lines(true);
    write(file, lines);
    List<SplitRecords.@Nullable Source> sources = new ArrayList<>();
    List<Doc> docs = read(file, 2, sources).collect();
    // A line inserted at the top: every document is one line further down.
    List<byte[]> changed = new ArrayList<>(lines);
    changed.add(0, "{\"id\":\"new\",\"text\":\"inserted later\"}".getBytes(StandardCharsets.UTF_8));
    write(file, changed);
    List<Tuple2<Doc, Fact>> first = new ArrayList<>();
    for (Doc d : docs) {
      if (sources.get(0).split.firstDoc <= d.ordinal && d.ordinal < sources.get(1).split.firstDoc) {
        first.add(new Tuple2<>(d, new Fact()));
      }
    }
    Iterator<Tuple2<Doc, Fact>> filled =
        SplitRecords.fill(first.iterator(), sources.get(0), conf(), MAX_BYTES);
    assertThatThrownBy(
            () -> {
              while (filled.hasNext()) {
                filled.next();
              }
            })
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("changed while the job ran");
  }
}
