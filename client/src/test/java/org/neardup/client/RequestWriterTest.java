// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RequestWriterTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * Random documents (ASCII, Latin-1, Chinese, emoji, every control character, quotes, backslashes,
   * question marks; texts and fingerprints, with and without timestamps) written as an NDJSON
   * batch: the same bytes as Jackson's generator, which wrote the bodies before, and they read back
   * to the same fields. The seed is in the failure message.
   */
  @Test
  void document_randomDocuments_sameBytesAsJackson() throws IOException {
    for (long seed = 0; seed < 500; seed++) {
      Random r = new Random(seed);
      List<Doc> docs = new ArrayList<>();
      for (int i = 1 + r.nextInt(8); i > 0; i--) {
        Doc d =
            r.nextInt(4) == 0
                ? Doc.fingerprint(text(r, 10), r.nextLong())
                : Doc.text(text(r, 12), text(r, 300));
        if (r.nextBoolean()) {
          d = d.at(Instant.ofEpochMilli(r.nextLong() >>> 20));
        }
        docs.add(d);
      }
      RequestWriter w = new RequestWriter(r.nextInt(40));
      for (Doc d : docs) {
        w.document(d).newline();
      }
      byte[] ours = w.toByteArray();
      assertThat(ours).as("seed %s", seed).isEqualTo(jackson(docs));
      String[] lines = new String(ours, java.nio.charset.StandardCharsets.UTF_8).split("\n");
      for (int i = 0; i < docs.size(); i++) {
        JsonNode n = MAPPER.readTree(lines[i]);
        assertThat(n.get("id").asText()).as("seed %s", seed).isEqualTo(docs.get(i).id());
        if (docs.get(i).text() != null) {
          assertThat(n.get("text").asText()).as("seed %s", seed).isEqualTo(docs.get(i).text());
        }
      }
    }
  }

  /** Lone surrogates (the encoder's '?') and question marks beside pairs: Jackson's bytes. */
  @Test
  void string_loneSurrogates_sameBytesAsJackson() throws IOException {
    for (String s :
        new String[] {
          "a?\uD800b", "?\uDC00", "x\uD83D?", "\uD83D\uDE00\uDE00?", "?\uD83D\uDE00?", "?", "\uDBFF"
        }) {
      List<Doc> docs = List.of(Doc.text("id?", s));
      assertThat(new RequestWriter(4).document(docs.get(0)).newline().toByteArray())
          .as(s)
          .isEqualTo(jackson(docs));
    }
  }

  private static byte[] jackson(List<Doc> docs) throws IOException {
    // One generator per document: the old body's single generator put its root separator (a
    // space) after each newline, which NDJSON readers skip as whitespace.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Doc d : docs) {
      try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
        g.writeStartObject();
        g.writeStringField("id", d.id());
        if (d.text() != null) {
          g.writeStringField("text", d.text());
        } else {
          g.writeStringField("fingerprint", NeardupClient.hex(d.fingerprint()));
        }
        if (d.timestamp() != null) {
          g.writeNumberField("timestamp", d.timestamp().toEpochMilli());
        }
        g.writeEndObject();
        g.writeRaw('\n');
      }
    }
    return out.toByteArray();
  }

  private static String text(Random r, int maxLength) {
    StringBuilder b = new StringBuilder();
    for (int n = r.nextInt(maxLength + 1); n > 0; n--) {
      switch (r.nextInt(9)) {
        case 0 -> b.append((char) r.nextInt(0x20)); // control characters
        case 1 -> b.append("\"\\?/".charAt(r.nextInt(4)));
        case 2 -> b.append((char) (0x80 + r.nextInt(0x80))); // Latin-1, and DEL's neighbours
        case 3 -> b.append((char) (0x4E00 + r.nextInt(0x5000))); // Chinese
        case 4 -> b.appendCodePoint(0x1F600 + r.nextInt(0x50)); // emoji: a surrogate pair
        case 8 -> b.append(r.nextInt(10) == 0 ? (char) (0xD800 + r.nextInt(0x800)) : 'x'); // lone
        case 5 -> b.append((char) (0x7F + r.nextInt(2)));
        default -> b.append((char) (0x20 + r.nextInt(0x5F)));
      }
    }
    return b.toString();
  }

  /** A text given as a JSON literal goes in as it is, and reads back as the text it spells. */
  @Test
  void document_textJson_literalCopiedAsItIs() throws IOException {
    byte[] literal = "\"王繹\\n\\u0041\\/\"".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Doc d = Doc.textJson("a\"b", literal).at(java.time.Instant.ofEpochMilli(7));
    String body =
        new String(
            new RequestWriter(4).document(d).toByteArray(),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(body).isEqualTo("{\"id\":\"a\\\"b\",\"text\":\"王繹\\n\\u0041\\/\",\"timestamp\":7}");
    assertThat(
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).get("text").asText())
        .isEqualTo("王繹\nA/");
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> Doc.textJson("a", new byte[] {'x'}));
  }
}
