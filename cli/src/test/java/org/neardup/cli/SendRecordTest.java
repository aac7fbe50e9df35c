// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SendRecord takes only records that send's usual reading ({@link DocumentSource#parse} with send's
 * fields) would send, with the same id and a text literal that reads as the same text.
 */
class SendRecordTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final byte[] ID = SendRecord.name("id");
  private static final byte[] TEXT = SendRecord.name("text");

  /** Damage that the usual reading reports or reads another way: SendRecord must leave it. */
  private static byte[] damage(byte[] b, Random r) {
    if (b.length == 0) {
      return b;
    }
    byte[] d = b.clone();
    int at = r.nextInt(d.length);
    switch (r.nextInt(6)) {
      case 0 -> d[at] = (byte) (0x80 + r.nextInt(0x80)); // a stray or wrong UTF-8 byte
      case 1 -> d[at] = (byte) r.nextInt(0x20); // a raw control character
      case 2 -> d[at] = (byte) "\"\\{}:,u0123456789abcdefABCDEF -.".charAt(r.nextInt(32));
      case 3 -> d[at] = (byte) 0xC0; // an overlong form's lead byte
      case 4 -> d[at] = (byte) 0xED; // an encoded surrogate's lead byte
      default -> d = java.util.Arrays.copyOf(d, at); // cut
    }
    return d;
  }

  private static final String[] TEXT_PIECES = {
    "a",
    "中文",
    "\\uD865\\uDD2A",
    "\\ud800",
    "\\n",
    "\\\"",
    "\\\\",
    "\\/",
    "é",
    "😀",
    " ",
    "\\u00e9",
    "\\u0000",
    ".",
    "9",
    "\\t"
  };

  /** Half the records as send's usual input has them (PlainJsonTest's are mostly left). */
  private static String randomRecord(Random r) {
    if (r.nextBoolean()) {
      StringBuilder text = new StringBuilder("\"");
      for (int i = r.nextInt(8); i > 0; i--) {
        text.append(TEXT_PIECES[r.nextInt(TEXT_PIECES.length)]);
      }
      String id = r.nextBoolean() ? "\"n-" + r.nextInt(1000) + "\"" : Integer.toString(r.nextInt());
      List<String> fields =
          new java.util.ArrayList<>(
              List.of(
                  "\"id\":" + id, "\"text\":" + text + "\"", "\"lang\":\"zh\"", "\"n\":-1.5e3"));
      java.util.Collections.shuffle(fields, r);
      return "{" + String.join(r.nextBoolean() ? "," : " , ", fields) + "}";
    }
    String line = PlainJsonTest.randomRecord(r);
    return switch (r.nextInt(12)) {
      case 0 -> line.replace("\"text\":\"", "\"text\":\" \\n\\u0020.,");
      case 1 -> "{\"timestamp\":1700000000000," + line.substring(Math.min(1, line.length()));
      case 2 ->
          "{\"fingerprint\":\"00ff00ff00ff00ff\"," + line.substring(Math.min(1, line.length()));
      case 3 -> line.replace("\"text\":\"", "\"text\":\"\\u0915\\u0041");
      case 4 -> line.replace("\"text\":\"", "\"text\":\"\\u0661\\u06f1");
      case 5 -> line.replace("\"text\":\"", "\"text\":\"\\u٠٠٤١");
      case 6, 7, 8 ->
          line.replaceFirst("\"id\":\"[^,}]*\"", "\"id\":\"n-" + r.nextInt(1000) + "\"");
      default -> line;
    };
  }

  @Test
  void read_takesOnlyWhatSendsReadingSends_withTheSameIdAndText(@TempDir Path dir)
      throws Exception {
    Path f = Files.writeString(dir.resolve("d.jsonl"), "{}\n");
    DocumentSource source =
        DocumentSource.open(List.of(f), DocumentSource.Format.AUTO, "id", "text", 1 << 20)
            .withSendFields();
    Random r = new Random(18);
    int taken = 0;
    int left = 0;
    int damagedTaken = 0;
    for (int i = 0; i < 60_000; i++) {
      byte[] line = randomRecord(r).getBytes(StandardCharsets.UTF_8);
      boolean damaged = r.nextInt(4) == 0;
      if (damaged) {
        line = damage(line, r);
      }
      InputDocument usual =
          source.parse(
              new DocumentSource.RawDocument(
                  i, "d.jsonl:" + i, DocumentSource.Format.JSONL, line, null, null));
      SendRecord.Read read = SendRecord.read(line, ID, TEXT);
      String shown = new String(line, StandardCharsets.ISO_8859_1);
      if (read == null) {
        left++;
        continue;
      }
      taken++;
      damagedTaken += damaged ? 1 : 0;
      assertNull(usual.error(), shown);
      assertNull(usual.fingerprint(), shown);
      assertNull(usual.timestamp(), shown);
      assertNotNull(usual.text(), shown);
      assertTrue(FingerprintCommand.hasLetters(usual.text()), shown);
      assertEquals(usual.idJson(), read.idJson(), shown);
      assertEquals(SendCommand.id(usual.idJson()), read.doc().id(), shown);
      assertNull(read.doc().text());
      assertEquals(usual.text(), MAPPER.readValue(read.doc().textJson(), String.class), shown);
    }
    System.out.println(
        "SendRecord took "
            + taken
            + " (damaged and still valid "
            + damagedTaken
            + "), left "
            + left);
    assertTrue(taken > 3_000 && left > 20_000, "taken " + taken + ", left " + left);
    assertTrue(damagedTaken > 100, "damaged records taken (still valid) " + damagedTaken);
  }

  @Test
  void read_sendsTheTextAsTheRecordSpellsIt() {
    byte[] line =
        "{\"lang\":\"zh\",\"id\":\"n-1\",\"n\":-2.5e3,\"ok\":true,\"text\":\"王繹\\n\\\"x\\\"\\/é\"} \r"
            .getBytes(StandardCharsets.UTF_8);
    SendRecord.Read read = SendRecord.read(line, ID, TEXT);
    assertNotNull(read);
    assertEquals("\"n-1\"", read.idJson());
    assertEquals("n-1", read.doc().id());
    assertArrayEquals(
        "\"王繹\\n\\\"x\\\"\\/é\"".getBytes(StandardCharsets.UTF_8), read.doc().textJson());
    SendRecord.Read number =
        SendRecord.read("{\"text\":\"a\",\"id\":-0}".getBytes(StandardCharsets.UTF_8), ID, TEXT);
    assertNotNull(number);
    assertEquals("0", number.idJson());
  }

  @Test
  void read_leavesWhatTheUsualReadingMustSayOrSpell() {
    for (String line :
        List.of(
            "{\"id\":\"a\",\"text\":\" .,\\n\"}", // no letters: the usual reading says so
            "{\"id\":\"a\",\"text\":\"x\\ud83d\"}", // a lone surrogate's escape
            "{\"id\":\"a\",\"text\":\"x\\ude00\\ud83d\"}",
            "{\"id\":\"a\\\"\",\"text\":\"x\"}", // an escape in the id
            "{\"id\":\"a\",\"text\":\"x\",\"timestamp\":1}",
            "{\"id\":\"a\",\"text\":\"x\",\"m\":[]}",
            "{\"\\u0069d\":\"a\",\"text\":\"x\"}",
            "{\"id\":\"a\",\"text\":\"x\"} x",
            "{\"id\":\"a\",\"text\":\"x\ty\"}")) {
      assertNull(SendRecord.read(line.getBytes(StandardCharsets.UTF_8), ID, TEXT), line);
    }
    byte[] invalid = "{\"id\":\"a\",\"text\":\"x\",\"o\":\"?\"}".getBytes(StandardCharsets.UTF_8);
    invalid[invalid.length - 3] = (byte) 0xFF;
    assertNull(SendRecord.read(invalid, ID, TEXT));
  }

  /**
   * The text's characters are checked as strict UTF-8 in its walk, the rest of the line after it:
   * each character of two to four bytes at the edges of its ranges is taken as spelled, and each
   * invalid sequence, in the text (where the walk meets it) or before or after it, leaves the
   * record to the usual reading, which reports it.
   */
  @Test
  void read_invalidUtf8InOrAroundTheText_leftToTheUsualReading() {
    int[][] valid = {
      {0xC2, 0x80},
      {0xDF, 0xBF},
      {0xE0, 0xA0, 0x80},
      {0xE4, 0xB8, 0xAD},
      {0xED, 0x9F, 0xBF},
      {0xEF, 0xBF, 0xBD},
      {0xF0, 0x90, 0x80, 0x80},
      {0xF4, 0x8F, 0xBF, 0xBF}
    };
    int[][] invalid = {
      {0x80},
      {0xBF},
      {0xC0, 0xAF},
      {0xC1, 0xBF},
      {0xC2, 0x41},
      {0xE0, 0x9F, 0xBF},
      {0xED, 0xA0, 0x80},
      {0xE4, 0xB8},
      {0xE4, 0xB8, 0x41},
      {0xF0, 0x8F, 0xBF, 0xBF},
      {0xF4, 0x90, 0x80, 0x80},
      {0xF5, 0x80, 0x80, 0x80},
      {0xFF}
    };
    for (int[] character : valid) {
      SendRecord.Read read =
          SendRecord.read(line("{\"id\":\"a\",\"text\":\"x@\"}", character), ID, TEXT);
      assertNotNull(read, java.util.Arrays.toString(character));
      assertArrayEquals(line("\"x@\"", character), read.doc().textJson());
      read = SendRecord.read(line("{\"id\":\"a\",\"text\":\"x中文@ab\"}", character), ID, TEXT);
      assertNotNull(read, java.util.Arrays.toString(character));
      assertArrayEquals(line("\"x中文@ab\"", character), read.doc().textJson());
    }
    for (int[] bad : invalid) {
      for (String template :
          List.of(
              "{\"id\":\"a\",\"text\":\"x@y\"}", // in the text
              "{\"id\":\"a\",\"text\":\"x中文@y\"}", // after a run of Chinese
              "{\"id\":\"a\",\"text\":\"x plain@中\"}", // after a run of ASCII
              "{\"id\":\"a\",\"text\":\"x@\"}", // at the text's end
              "{\"id\":\"a@\",\"text\":\"x\"}", // in the id, before the text
              "{\"id\":\"a\",\"text\":\"x\",\"o\":\"@\"}", // in a field after the text
              "{\"id\":\"a\",\"text\":\"x\"}@")) { // after the object
        assertNull(
            SendRecord.read(line(template, bad), ID, TEXT),
            template + " " + java.util.Arrays.toString(bad));
      }
    }
  }

  /** {@code template}'s UTF-8 bytes with its '@' replaced by {@code bytes}. */
  private static byte[] line(String template, int[] bytes) {
    int at = template.indexOf('@');
    byte[] head = template.substring(0, at).getBytes(StandardCharsets.UTF_8);
    byte[] tail = template.substring(at + 1).getBytes(StandardCharsets.UTF_8);
    byte[] r = java.util.Arrays.copyOf(head, head.length + bytes.length + tail.length);
    for (int i = 0; i < bytes.length; i++) {
      r[head.length + i] = (byte) bytes[i];
    }
    System.arraycopy(tail, 0, r, head.length + bytes.length, tail.length);
    return r;
  }
}
