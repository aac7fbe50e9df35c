// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.text.TextBuffer;

/** dedup's char reader gives what DocumentSource.parse gives, or leaves the line to it. */
class FlatTextReaderTest {
  private static DocumentSource source(Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("d.jsonl"), "{}\n");
    return DocumentSource.open(List.of(f), DocumentSource.Format.AUTO, "id", "text", 1 << 20);
  }

  private static DocumentSource.RawDocument raw(long ordinal, byte[] bytes) {
    return new DocumentSource.RawDocument(
        ordinal, "d.jsonl:" + ordinal, DocumentSource.Format.JSONL, bytes, null, null);
  }

  @Test
  void readFlat_randomRecords_sameIdAndTextAsParse(@TempDir Path dir) throws Exception {
    DocumentSource source = source(dir);
    Random r = new Random(23);
    TextBuffer text = new TextBuffer(4);
    int taken = 0;
    int flatJson = 0;
    for (int i = 0; i < 40_000; i++) {
      String line = PlainJsonTest.randomRecord(r);
      byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
      DocumentSource.RawDocument raw = raw(i, bytes);
      InputDocument parsed = source.parse(raw);
      String[] flat = FlatJson.read(line, "id", "text");
      flatJson += flat == null ? 0 : 1;
      String idJson = source.readFlat(raw, text);
      if (idJson == null) {
        continue;
      }
      taken++;
      // It never takes what FlatJson, the first of parse's readers, leaves to Jackson.
      assertNotNull(flat, line);
      assertNull(parsed.error(), line);
      assertEquals(parsed.idJson(), idJson, line);
      assertEquals(parsed.text(), text.toString(), line);
      assertTrue(parsed.record() == bytes);
    }
    // Names with escapes it leaves to FlatJson; every other record FlatJson takes, it takes.
    assertTrue(taken > 3_000 && taken > flatJson * 3 / 4, "took " + taken + " of " + flatJson);
  }

  @Test
  void readFlat_leavesWhatParseMustReport(@TempDir Path dir) throws Exception {
    DocumentSource source = source(dir);
    TextBuffer text = new TextBuffer();
    byte[] invalid = {'{', '"', 'i', 'd', '"', ':', '1', ',', '"', 't', 'e', 'x', 't', '"', ':'};
    byte[] bad = java.util.Arrays.copyOf(invalid, invalid.length + 4);
    bad[invalid.length] = '"';
    bad[invalid.length + 1] = (byte) 0xC3; // a lead byte without its continuation
    bad[invalid.length + 2] = '"';
    bad[invalid.length + 3] = '}';
    assertNull(source.readFlat(raw(0, bad), text));
    assertTrue(source.parse(raw(0, bad)).error() != null);
    for (String line :
        List.of(
            "{\"id\":\"a\\\"b\",\"text\":\"x\"}",
            "{\"\\u0069d\":1,\"text\":\"x\"}",
            "{\"id\":1,\"text\":\"x\",\"text\":\"y\"}",
            "{\"id\":1,\"text\":\"x\"} x",
            "{\"id\":1,\"text\":\"x\",\"m\":[]}",
            "{\"id\":1,\"text\":\"a\tb\"}",
            "{\"id\":1}")) {
      assertNull(source.readFlat(raw(1, line.getBytes(StandardCharsets.UTF_8)), text), line);
    }
  }

  @Test
  void readFlat_unescapesTheTextIntoTheBuffer(@TempDir Path dir) throws Exception {
    DocumentSource source = source(dir);
    TextBuffer text = new TextBuffer(4);
    String line =
        " {\"lang\": \"zh\", \"text\" : \"中文\\n\\u00e9\\ud83d\\ude00 \\\"x\\\"\", \"id\":-0} ";
    assertEquals("0", source.readFlat(raw(2, line.getBytes(StandardCharsets.UTF_8)), text));
    assertEquals("中文\né😀 \"x\"", text.toString());
    assertEquals(
        "\"a\"",
        source.readFlat(
            raw(3, "{\"id\":\"a\",\"text\":\"\"}".getBytes(StandardCharsets.UTF_8)), text));
    assertEquals("", text.toString());
  }
}
