// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A batch read span by span ({@link BatchSpans#find}, then {@link Json#readSpan} per document, and
 * the whole body's parse for the message when any span fails) reads exactly what {@link
 * Json#readBatch} reads, or refuses with exactly its status and message, on random bodies: valid
 * arrays and NDJSON with strings holding brackets, quotes and escapes, nested values, unknown and
 * repeated fields, and the same bodies cut, spliced or with a byte changed.
 */
class BatchSpansTest {
  private static final int MAX = 40;

  private static final String[] VALUES = {
    "\"plain text\"",
    "\"braces } { ] [ inside\"",
    "\"an escaped quote \\\" and \\\\ and \\\"}\\\"\"",
    "\"\\u00e9t\\u00e9 \\ud83d\\ude00\"",
    "\"中文的文本\"",
    "12",
    "-3",
    "1.5e3",
    "true",
    "null",
    "[1, {\"a\": [\"}\"]}, []]",
    "{\"nested\": {\"deeper\": \"]\"}}",
    "99999999999999999999999",
  };
  private static final String[] FIELDS = {"id", "text", "fingerprint", "timestamp", "other"};
  private static final String[] BLANKS = {"", " ", "\n", "\r\n", "\t ", "  \n  "};

  /** A string of 0-40 characters with escapes anywhere, so each falls at every offset of a word. */
  private static String string(SplittableRandom r) {
    String[] parts = {"a", "é", "中", "\\\"", "\\\\", "\\n", "\\u00e9", "}", "]", " "};
    StringBuilder b = new StringBuilder("\"");
    int n = r.nextInt(41);
    for (int i = 0; i < n; i++) {
      b.append(parts[r.nextInt(parts.length)]);
    }
    return b.append('"').toString();
  }

  private static String object(SplittableRandom r) {
    StringBuilder b = new StringBuilder("{");
    int fields = r.nextInt(5);
    for (int f = 0; f < fields; f++) {
      if (f > 0) {
        b.append(',').append(BLANKS[r.nextInt(BLANKS.length)]);
      }
      b.append('"').append(FIELDS[r.nextInt(FIELDS.length)]).append("\":");
      b.append(BLANKS[r.nextInt(BLANKS.length)]);
      b.append(r.nextInt(3) == 0 ? string(r) : VALUES[r.nextInt(VALUES.length)]);
    }
    return b.append('}').toString();
  }

  private static String body(SplittableRandom r, boolean array) {
    int n = 1 + r.nextInt(r.nextInt(10) == 0 ? MAX + 3 : 12);
    StringBuilder b = new StringBuilder();
    b.append(BLANKS[r.nextInt(BLANKS.length)]);
    if (array) {
      b.append('[').append(BLANKS[r.nextInt(BLANKS.length)]);
    }
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        b.append(array ? "," + BLANKS[r.nextInt(BLANKS.length)] : "\n");
      }
      b.append(r.nextInt(30) == 0 ? VALUES[r.nextInt(VALUES.length)] : object(r));
    }
    if (array) {
      b.append(BLANKS[r.nextInt(BLANKS.length)]).append(']');
    }
    return b.append(BLANKS[r.nextInt(BLANKS.length)]).toString();
  }

  private static byte[] damage(SplittableRandom r, byte[] b) {
    if (b.length < 2) {
      return b;
    }
    int at = r.nextInt(b.length);
    switch (r.nextInt(4)) {
      case 0: // cut
        return java.util.Arrays.copyOf(b, at);
      case 1: // a byte changed to one of JSON's own
        {
          byte[] c = b.clone();
          String json = "{}[],:\"\\ \n0a";
          c[at] = (byte) json.charAt(r.nextInt(json.length()));
          return c;
        }
      case 2: // a byte dropped
        {
          byte[] c = new byte[b.length - 1];
          System.arraycopy(b, 0, c, 0, at);
          System.arraycopy(b, at + 1, c, at, b.length - at - 1);
          return c;
        }
      default: // a piece of the body again
        {
          int len = r.nextInt(Math.min(20, b.length - at) + 1);
          byte[] c = new byte[b.length + len];
          System.arraycopy(b, 0, c, 0, at + len);
          System.arraycopy(b, at, c, at + len, b.length - at);
          return c;
        }
    }
  }

  /** What a read gives: each document's fields, or the refusal's status and message. */
  private static String whole(byte[] body, boolean array) {
    try {
      return fields(Json.readBatch(body, array, MAX));
    } catch (ApiException e) {
      return e.status + " " + e.getMessage();
    }
  }

  private static String bySpans(byte[] body, boolean array, int[] spans) {
    List<Json.RawDoc> docs = new ArrayList<>();
    try {
      for (int i = 0; i < spans.length / 2; i++) {
        docs.add(Json.readSpan(body, spans[2 * i], spans[2 * i + 1]));
      }
    } catch (ApiException e) {
      return whole(body, array); // as Api.analyse does: the whole body's message
    }
    return fields(docs);
  }

  private static String fields(List<Json.RawDoc> docs) {
    StringBuilder b = new StringBuilder();
    for (Json.RawDoc d : docs) {
      b.append(d.notObject).append('|').append(d.unknownInInsert).append('|');
      b.append(d.unknownInCheck).append('|').append(d.idToken).append('|').append(d.id);
      b.append('|').append(d.textToken).append('|').append(d.text).append('|');
      b.append(d.fingerprintToken).append('|').append(d.fingerprint).append('|');
      b.append(d.timestampToken).append('|').append(d.timestampText).append('|');
      b.append(d.timestamp).append('|').append(d.timestampFitsLong).append('\n');
    }
    return b.toString();
  }

  @Test
  public void randomBodies_spansReadAsTheWholeBody() {
    long seed = 2026_11_26L;
    SplittableRandom r = new SplittableRandom(seed);
    int spanned = 0;
    int damagedSpanned = 0;
    for (int round = 0; round < 20_000; round++) {
      boolean array = r.nextBoolean();
      byte[] body = body(r, array).getBytes(StandardCharsets.UTF_8);
      boolean damaged = r.nextInt(3) == 0;
      if (damaged) {
        body = damage(r, body);
      }
      if (Utf8.problem(body, 0, body.length) != null) {
        continue; // refused before it is read (Api.handle), and read only as valid UTF-8
      }
      boolean startsArray = Json.startsWithArray(body);
      int[] spans = BatchSpans.find(body, startsArray, MAX);
      String want = whole(body, startsArray);
      if (spans == null) {
        continue; // Api.analyse reads such a body whole, as before
      }
      spanned++;
      damagedSpanned += damaged ? 1 : 0;
      assertThat(bySpans(body, startsArray, spans))
          .as("seed %s round %s body <%s>", seed, round, new String(body, StandardCharsets.UTF_8))
          .isEqualTo(want);
    }
    // The span path must be the one most valid bodies take, and damaged ones must reach it too.
    assertThat(spanned).isGreaterThan(8_000);
    assertThat(damagedSpanned).isGreaterThan(500);
  }

  /** The word-at-a-time string scan ends where a byte-at-a-time one does, at every offset. */
  @Test
  public void stringEnd_matchesByteLoop() {
    SplittableRandom r = new SplittableRandom(11);
    byte[] alphabet = {'a', '"', '\\', (byte) 0xe4, (byte) 0x80, '{', ' ', 'n'};
    for (int round = 0; round < 200_000; round++) {
      byte[] b = new byte[1 + r.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        b[i] = r.nextInt(3) == 0 ? alphabet[r.nextInt(alphabet.length)] : (byte) 'x';
      }
      int open = r.nextInt(b.length);
      int want = -1;
      for (int i = open + 1; i < b.length; i++) {
        if (b[i] == '\\') {
          i++;
        } else if (b[i] == '"') {
          want = i;
          break;
        }
      }
      assertThat(BatchSpans.stringEnd(b, open))
          .as("round %s, %s from %s", round, java.util.Arrays.toString(b), open)
          .isEqualTo(want);
    }
  }

  @Test
  public void find_commonShapes() {
    byte[] a = "[{\"id\":\"a\"}, {\"id\":\"}\"}]".getBytes(StandardCharsets.UTF_8);
    assertThat(BatchSpans.find(a, true, 10)).containsExactly(1, 11, 13, 23);
    byte[] nd = "{\"id\":1}\n{\"id\":2}\n".getBytes(StandardCharsets.UTF_8);
    assertThat(BatchSpans.find(nd, false, 10)).containsExactly(0, 8, 9, 17);
    assertThat(BatchSpans.find(nd, false, 1)).as("more than max").isNull();
    assertThat(BatchSpans.find("{\"id\":1}{\"id\":2}".getBytes(StandardCharsets.UTF_8), false, 9))
        .as("no blank between values")
        .isNull();
    assertThat(BatchSpans.find("[{}, ]".getBytes(StandardCharsets.UTF_8), true, 9)).isNull();
    assertThat(BatchSpans.find("[]".getBytes(StandardCharsets.UTF_8), true, 9)).isNull();
    assertThat(BatchSpans.find("[{\"a\":\"}]".getBytes(StandardCharsets.UTF_8), true, 9)).isNull();
  }
}
