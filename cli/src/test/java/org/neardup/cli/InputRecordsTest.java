// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputRecordsTest {
  @TempDir Path tmp;

  /**
   * Lines of plain JSONL files are read again at the offsets {@link DocumentSource} gives them, and
   * come back as the bytes it read (without '\r', after a byte-order mark, across blank lines and
   * the 1 MiB window's edges); records of a gzip input between them are spilled and come back too;
   * documents without a record and ordinals skipped over are passed.
   */
  @Test
  void sequential_plainAndGzipInputs_giveTheBytesAsRead() throws Exception {
    for (long seed = 1; seed <= 3; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      Path a = tmp.resolve(seed + "a.jsonl");
      Path b = tmp.resolve(seed + "b.jsonl.gz");
      Path c = tmp.resolve(seed + "c.jsonl");
      write(a, random, false);
      write(b, random, true);
      write(c, random, false);
      DocumentSource source =
          DocumentSource.open(List.of(a, b, c), DocumentSource.Format.AUTO, "id", "text", 4 << 20);
      List<byte[]> kept = new ArrayList<>();
      List<Boolean> again = new ArrayList<>();
      try (InputRecords records = new InputRecords(Files.createTempDirectory(tmp, "w"))) {
        source.forEach(
            raw -> {
              try {
                if (raw.bytes() == null || random.nextInt(10) == 0) {
                  records.addNone();
                  kept.add(null);
                } else {
                  records.add(raw, raw.bytes(), InputRecords.hash(raw, raw.bytes()));
                  kept.add(raw.bytes());
                }
                again.add(raw.file() != null);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
        records.finish();
        assertThat(again).contains(true, false);
        assertThat(records.reread()).isPositive();
        try (InputRecords.Sequential in = records.sequential()) {
          for (int o = 0; o < kept.size(); o++) {
            if (kept.get(o) == null || random.nextInt(4) == 0) {
              continue;
            }
            assertThat(in.read(o)).as("seed %s, ordinal %s", seed, o).isEqualTo(kept.get(o));
          }
        }
      }
    }
  }

  /** An input changed after it was read (same length, or cut short) fails the read of the line. */
  @Test
  void read_inputChangedAfterTheReadPhase_throws() throws Exception {
    Path in = tmp.resolve("in.jsonl");
    Files.writeString(
        in, "{\"id\":1,\"text\":\"one\"}\n{\"id\":2,\"text\":\"two\"}\n", StandardCharsets.UTF_8);
    for (String changed :
        List.of(
            "{\"id\":1,\"text\":\"one\"}\n{\"id\":2,\"text\":\"TWO\"}\n",
            "{\"id\":1,\"text\":\"one\"}\n{\"id\":2,")) {
      DocumentSource source =
          DocumentSource.open(List.of(in), DocumentSource.Format.AUTO, "id", "text", 1 << 20);
      try (InputRecords records = new InputRecords(Files.createTempDirectory(tmp, "w"))) {
        source.forEach(
            raw -> {
              try {
                records.add(raw, raw.bytes(), InputRecords.hash(raw, raw.bytes()));
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
        records.finish();
        Files.writeString(in, changed, StandardCharsets.UTF_8);
        try (InputRecords.Sequential s = records.sequential()) {
          assertThat(new String(s.read(0), StandardCharsets.UTF_8))
              .isEqualTo("{\"id\":1,\"text\":\"one\"}");
          assertThatThrownBy(() -> s.read(1))
              .isInstanceOf(IOException.class)
              .hasMessageContaining("changed while neardup dedup was running: document #2");
        }
      }
      Files.writeString(
          in, "{\"id\":1,\"text\":\"one\"}\n{\"id\":2,\"text\":\"two\"}\n", StandardCharsets.UTF_8);
    }
  }

  /** Random JSONL: CRLF and LF lines, blank lines, a byte-order mark, lines past 1 MiB. */
  private static void write(Path p, SplittableRandom random, boolean gzip) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    if (random.nextBoolean()) {
      bytes.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    }
    int lines = random.nextInt(200, 1_500);
    for (int i = 0; i < lines; i++) {
      int kind = random.nextInt(100);
      if (kind < 5) {
        bytes.write(" \t\n".getBytes(StandardCharsets.UTF_8));
        continue;
      }
      int len = kind < 7 ? random.nextInt(1 << 20, 3 << 20) : random.nextInt(2_000);
      StringBuilder text = new StringBuilder(len);
      for (int k = 0; k < len; k++) {
        text.append((char) random.nextInt('a', 'z' + 1));
      }
      String line = "{\"id\":" + i + ",\"text\":\"" + text + "\"}";
      bytes.write(line.getBytes(StandardCharsets.UTF_8));
      bytes.write((random.nextInt(3) == 0 ? "\r\n" : "\n").getBytes(StandardCharsets.UTF_8));
    }
    if (random.nextBoolean()) {
      bytes.write("{\"id\":\"last\",\"text\":\"no newline\"}".getBytes(StandardCharsets.UTF_8));
    }
    try (OutputStream o =
        gzip ? new GZIPOutputStream(Files.newOutputStream(p)) : Files.newOutputStream(p)) {
      bytes.writeTo(o);
    }
  }
}
