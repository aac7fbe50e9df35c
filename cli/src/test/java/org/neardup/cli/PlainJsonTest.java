// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streaming JSONL path gives what the JSON-tree path gives, or leaves the record to it. */
class PlainJsonTest {
  private static final String[] PIECES = {
    "a",
    "中文",
    "\\\"",
    "\\\\",
    "\\n",
    "\\t",
    "\\u0001",
    "\\u00e9",
    "é",
    "/",
    "\\/",
    "\\ud83d\\ude00",
    "😀",
    " ",
    "\\b",
    "\\f",
    "\\r",
    "\\u2028",
    "<",
    "&",
    "'",
    "\\u0000",
    "\\u007f"
  };
  private static final String[] IDS = {
    "0",
    "-0",
    "42",
    "-7",
    "9223372036854775807",
    "9223372036854775808",
    "-123456789012345678901234567890",
    "1.5",
    "1e3",
    "true",
    "null",
    "[1]",
    "{}"
  };

  /** Values of other fields: what FlatJson skips, and near misses it must leave to Jackson. */
  private static final String[] OTHER_VALUES = {
    "1",
    "-0",
    "0.5",
    "1e10",
    "-2.5E-3",
    "01",
    "1.",
    ".5",
    "+1",
    "-",
    "1e",
    "true",
    "false",
    "null",
    "nul",
    "truex",
    "\"x\"",
    "\"\\x\"",
    "[]",
    "{}",
    " 7 ",
    "\"\\u12\""
  };

  private static String randomString(Random r) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = r.nextInt(6); i > 0; i--) {
      b.append(PIECES[r.nextInt(PIECES.length)]);
    }
    return b.append('"').toString();
  }

  static String randomRecord(Random r) {
    String id = r.nextBoolean() ? randomString(r) : IDS[r.nextInt(IDS.length)];
    String text = r.nextInt(10) == 0 ? IDS[r.nextInt(IDS.length)] : randomString(r);
    List<String> fields = new java.util.ArrayList<>(List.of("\"id\":" + id, "\"text\":" + text));
    if (r.nextInt(4) == 0) {
      fields.add("\"meta\":{\"x\":[1,2,{\"y\":" + randomString(r) + "}]}");
    }
    if (r.nextInt(3) == 0) {
      fields.add(randomString(r) + ":" + OTHER_VALUES[r.nextInt(OTHER_VALUES.length)]);
    }
    if (r.nextInt(8) == 0) {
      fields.add("\"id\":" + IDS[r.nextInt(IDS.length)]);
    }
    if (r.nextInt(8) == 0) {
      fields.remove(r.nextInt(fields.size()));
    }
    java.util.Collections.shuffle(fields, r);
    String line = "{" + String.join(",", fields) + "}";
    switch (r.nextInt(16)) {
      case 0:
        return line.substring(0, r.nextInt(line.length()));
      case 1:
        return line + " {";
      case 2:
        return "[" + line + "]";
      case 3:
        return " \t" + line.replace(",", " ,\r\n").replace(":", ": ") + " \r";
      case 4:
        return line.replace("\"id\"", "\"\\u0069d\"");
      default:
        return line;
    }
  }

  @Test
  void sameDocumentsAsTheTreePath(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("d.jsonl"), "{}\n");
    DocumentSource source =
        DocumentSource.open(List.of(f), DocumentSource.Format.AUTO, "id", "text", 1 << 20);
    Random r = new Random(20);
    int plain = 0;
    for (int i = 0; i < 20_000; i++) {
      String line = randomRecord(r);
      byte[] raw = line.getBytes(StandardCharsets.UTF_8);
      InputDocument tree = source.parseJsonTree(i, line, raw, "d.jsonl:" + i);
      InputDocument fast = source.parsePlainJson(i, line, raw, "d.jsonl:" + i);
      if (fast == null) {
        continue;
      }
      plain++;
      assertNull(tree.error(), line);
      assertEquals(tree.idJson(), fast.idJson(), line);
      assertEquals(tree.text(), fast.text(), line);
      assertEquals(tree.location(), fast.location());
      assertTrue(fast.record() == raw);
    }
    assertTrue(plain > 5_000, "the streaming path took " + plain);
  }

  /** FlatJson gives what the JSON-tree path gives, or leaves the record to the Jackson paths. */
  @Test
  void flatJson_sameDocumentsAsTheTreePath(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("d.jsonl"), "{}\n");
    DocumentSource source =
        DocumentSource.open(List.of(f), DocumentSource.Format.AUTO, "id", "text", 1 << 20);
    Random r = new Random(21);
    int flat = 0;
    for (int i = 0; i < 40_000; i++) {
      String line = randomRecord(r);
      byte[] raw = line.getBytes(StandardCharsets.UTF_8);
      InputDocument tree = source.parseJsonTree(i, line, raw, "d.jsonl:" + i);
      String[] fast = FlatJson.read(line, "id", "text");
      if (fast == null) {
        continue;
      }
      flat++;
      assertNull(tree.error(), line);
      assertEquals(tree.idJson(), fast[0], line);
      assertEquals(tree.text(), fast[1], line);
    }
    // Most random ids carry escapes, which FlatJson leaves to Jackson; thousands are still taken.
    assertTrue(flat > 3_000, "FlatJson took " + flat);
  }

  /**
   * send reads records through FlatJson too, unless they have a field only send reads (fingerprint,
   * timestamp, however its name is spelled): then what it takes is what send's tree path gives. And
   * SendCommand.id gives the id that Jackson reads from the id's JSON.
   */
  @Test
  void flatJsonForSend_sameDocumentsAsSendsTreePath(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("d.jsonl"), "{}\n");
    DocumentSource source =
        DocumentSource.open(List.of(f), DocumentSource.Format.AUTO, "id", "text", 1 << 20)
            .withSendFields();
    String[] sendFields = {
      "\"timestamp\":1700000000000",
      "\"timestamp\":\"2026-11-25T05:00:00Z\"",
      "\"timestamp\":null",
      "\"fingerprint\":\"00ff00ff00ff00ff\"",
      "\"\\u0074imestamp\":42",
      "\"finger\\u0070rint\":\"00ff00ff00ff00ff\"",
    };
    Random r = new Random(22);
    int flat = 0;
    int withField = 0;
    for (int i = 0; i < 40_000; i++) {
      String line = randomRecord(r);
      if (r.nextInt(3) == 0 && line.startsWith("{") && line.endsWith("}")) {
        line = "{" + sendFields[r.nextInt(sendFields.length)] + "," + line.substring(1);
        withField++;
      }
      byte[] raw = line.getBytes(StandardCharsets.UTF_8);
      InputDocument tree = source.parseJsonTree(i, line, raw, "d.jsonl:" + i);
      if (tree.idJson() != null) {
        assertEquals(
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(tree.idJson()).asText(),
            SendCommand.id(tree.idJson()),
            line);
      }
      String[] fast =
          FlatJson.read(line, "id", "text", java.util.Set.of("fingerprint", "timestamp"));
      if (fast == null) {
        continue;
      }
      flat++;
      assertNull(tree.error(), line);
      assertNull(tree.fingerprint(), line);
      assertNull(tree.timestamp(), line);
      assertEquals(tree.idJson(), fast[0], line);
      assertEquals(tree.text(), fast[1], line);
    }
    assertTrue(flat > 2_000 && withField > 8_000, "FlatJson took " + flat + "; " + withField);
  }

  @Test
  void flatJson_leavesWhatItCannotSpellToJackson() {
    assertNull(FlatJson.read("{\"id\":\"a\\\"b\",\"text\":\"x\"}", "id", "text"));
    assertNull(FlatJson.read("{\"id\":12345678901234567890,\"text\":\"x\"}", "id", "text"));
    assertNull(FlatJson.read("{\"id\":1,\"text\":\"x\"} x", "id", "text"));
    assertNull(FlatJson.read("{\"id\":1,\"text\":\"x\",\"m\":{}}", "id", "text"));
    assertEquals(
        List.of("\"a\"", "x\ny"),
        List.of(FlatJson.read(" {\"text\": \"x\\ny\", \"id\": \"a\"} ", "id", "text")));
    assertEquals(
        List.of("0", "t"), List.of(FlatJson.read("{\"id\":-0,\"text\":\"t\"}", "id", "text")));
  }
}
