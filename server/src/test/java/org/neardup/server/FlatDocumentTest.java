// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The flat reader of a request document ({@link FlatDocument}) reads exactly what Jackson's
 * streaming read ({@link Json.RawDoc#read}) reads from every object it takes, and takes nothing
 * Jackson refuses: random objects of the four fields and others, with strings holding every escape,
 * Chinese, characters outside the BMP, lone surrogates' escapes and control characters, numbers of
 * every form, literals and nested values, repeated fields, random whitespace, and the same objects
 * cut, spliced or with a byte changed.
 */
class FlatDocumentTest {
  private static final String[] FIELDS = {
    "id", "text", "fingerprint", "timestamp", "other", "\\u0069d", "ids", "Text"
  };
  private static final String[] NUMBERS = {
    "0",
    "7",
    "1732579200000",
    "123456789012345678",
    "1234567890123456789",
    "-3",
    "-0",
    "1.5",
    "1e3",
    "2E-2",
    "012",
    "99999999999999999999999",
    "1.",
    "-"
  };
  private static final String[] OTHERS = {
    "true", "false", "null", "[]", "[1, \"}\"]", "{}", "{\"a\": {\"b\": \"]\"}}", "tru", "nul"
  };
  private static final String[] PIECES = {
    "a",
    "Z",
    "0",
    " ",
    "é",
    "中文",
    "😀",
    "\\\"",
    "\\\\",
    "\\/",
    "\\b",
    "\\f",
    "\\n",
    "\\r",
    "\\t",
    "\\u00e9",
    "\\u4E2D",
    "\\ud83d\\ude00",
    "\\ud800",
    "\\udc00x",
    "\\u12",
    "\\x",
    "\t",
    "\u0001",
    "}",
    "]",
    ",",
    ":"
  };
  private static final String[] BLANKS = {"", " ", "\n", "\r\n", "\t "};
  private static final String PUNCTUATION = "{}[]\",:\\ 0a-.";

  private static String string(SplittableRandom r) {
    StringBuilder b = new StringBuilder("\"");
    int n = r.nextInt(30);
    for (int i = 0; i < n; i++) {
      // mostly plain pieces, so that many strings are valid
      b.append(PIECES[r.nextInt(4) == 0 ? r.nextInt(PIECES.length) : r.nextInt(8)]);
    }
    return b.append('"').toString();
  }

  private static String value(SplittableRandom r) {
    return switch (r.nextInt(6)) {
      case 0, 1, 2 -> string(r);
      case 3, 4 -> NUMBERS[r.nextInt(NUMBERS.length)];
      default -> OTHERS[r.nextInt(OTHERS.length)];
    };
  }

  private static String object(SplittableRandom r) {
    StringBuilder b = new StringBuilder(BLANKS[r.nextInt(BLANKS.length)]).append('{');
    int fields = r.nextInt(6);
    for (int f = 0; f < fields; f++) {
      if (f > 0) {
        b.append(BLANKS[r.nextInt(BLANKS.length)]).append(',');
      }
      b.append(BLANKS[r.nextInt(BLANKS.length)]);
      // the known fields mostly, each likely once
      String name = r.nextInt(5) == 0 ? FIELDS[r.nextInt(FIELDS.length)] : FIELDS[f % 4];
      b.append('"').append(name).append('"').append(BLANKS[r.nextInt(BLANKS.length)]);
      // half the time a value of the field's own type, so that many objects are taken
      String v =
          r.nextBoolean() ? value(r) : name.equals("timestamp") ? "1732579200000" : string(r);
      b.append(':').append(BLANKS[r.nextInt(BLANKS.length)]).append(v);
    }
    return b.append(BLANKS[r.nextInt(BLANKS.length)])
        .append('}')
        .append(BLANKS[r.nextInt(BLANKS.length)])
        .toString();
  }

  /** A byte changed, a piece cut out, or two objects spliced; kept only if still valid UTF-8. */
  private static byte[] damage(SplittableRandom r, byte[] b, byte[] other) {
    byte[] out;
    switch (r.nextInt(3)) {
      case 0 -> {
        out = b.clone();
        if (out.length > 0) {
          out[r.nextInt(out.length)] = (byte) PUNCTUATION.charAt(r.nextInt(PUNCTUATION.length()));
        }
      }
      case 1 -> {
        int from = r.nextInt(b.length + 1);
        int to = from + r.nextInt(b.length - from + 1);
        out = new byte[b.length - (to - from)];
        System.arraycopy(b, 0, out, 0, from);
        System.arraycopy(b, to, out, from, b.length - to);
      }
      default -> {
        int cut = r.nextInt(b.length + 1);
        int at = r.nextInt(other.length + 1);
        out = new byte[cut + other.length - at];
        System.arraycopy(b, 0, out, 0, cut);
        System.arraycopy(other, at, out, cut, other.length - at);
      }
    }
    return Utf8.problem(out, 0, out.length) == null ? out : b;
  }

  /** Jackson's read of one object, as the service reads a span; null when it refuses it. */
  private static Json.@Nullable RawDoc jackson(byte[] b, int from, int to) {
    try (JsonParser p = Json.MAPPER.getFactory().createParser(b, from, to - from)) {
      JsonToken first = p.nextToken();
      if (first != JsonToken.START_OBJECT) {
        return null;
      }
      Json.RawDoc d = Json.RawDoc.read(p, first);
      return p.nextToken() == null ? d : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static List<Object> fields(Json.RawDoc d) {
    return Arrays.asList(
        d.notObject,
        d.unknownInInsert,
        d.unknownInCheck,
        d.idToken,
        d.id,
        d.textToken,
        d.text,
        d.fingerprintToken,
        d.fingerprint,
        d.timestampToken,
        d.timestampText,
        d.timestamp,
        d.timestampFitsLong);
  }

  @Test
  void read_randomObjects_sameAsJacksonOrLeftToIt() {
    SplittableRandom r = new SplittableRandom(20261126);
    int taken = 0;
    int refusedByJackson = 0;
    int left = 0;
    byte[] previous = "{}".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 60_000; i++) {
      byte[] b = object(r).getBytes(StandardCharsets.UTF_8);
      if (r.nextInt(4) == 0) {
        b = damage(r, b, previous);
      }
      previous = b;
      // inside a larger body, as a span of a batch is
      byte[] body = new byte[b.length + 4];
      System.arraycopy(b, 0, body, 2, b.length);
      body[0] = '[';
      body[1] = '\n';
      body[body.length - 2] = ',';
      body[body.length - 1] = '"';
      Json.RawDoc flat = FlatDocument.read(body, 2, 2 + b.length);
      Json.RawDoc expected = jackson(body, 2, 2 + b.length);
      if (expected == null) {
        refusedByJackson++;
        assertThat(flat).as(new String(b, StandardCharsets.UTF_8)).isNull();
      } else if (flat == null) {
        left++;
      } else {
        taken++;
        assertThat(fields(flat))
            .as(new String(b, StandardCharsets.UTF_8))
            .isEqualTo(fields(expected));
      }
    }
    // Not vacuous: each outcome occurs thousands of times.
    assertThat(taken).isGreaterThan(5_000);
    assertThat(refusedByJackson).isGreaterThan(5_000);
    assertThat(left).isGreaterThan(5_000);
  }

  @Test
  void read_commonDocuments_taken() {
    String[] docs = {
      "{\"id\":\"https://example.com/a?b=1\",\"text\":\"a text\"}",
      " {\"text\" : \"中文的文本\\n第二段\", \"id\" : \"7\" , \"timestamp\": 1732579200000}\n",
      "{\"id\":\"x\",\"fingerprint\":\"00ff00ff00ff00ff\",\"timestamp\":\"2026-11-26T10:00:00Z\"}",
      "{\"id\":\"\\u00e9\\ud83d\\ude00\",\"text\":\"\\\"quoted\\\" \\\\ \\/ \\t 😀\"}",
    };
    for (String doc : docs) {
      byte[] b = doc.getBytes(StandardCharsets.UTF_8);
      Json.RawDoc flat = FlatDocument.read(b, 0, b.length);
      assertThat(flat).as(doc).isNotNull();
      assertThat(fields(flat)).as(doc).isEqualTo(fields(jackson(b, 0, b.length)));
    }
  }

  @Test
  void read_whatJacksonRefusesOrNamesInItsMessage_leftToJackson() {
    String[] docs = {
      "{\"id\":\"a\",\"id\":\"b\",\"text\":\"x\"}", // a repeated field
      "{\"id\":\"a\",\"text\":\"x\",\"extra\":1}", // an unknown field, named in the message
      "{\"id\":7,\"text\":\"x\"}", // an id that is not a string
      "{\"id\":\"a\",\"text\":\"x\",\"timestamp\":-1}", // a negative timestamp
      "{\"id\":\"a\",\"text\":\"x\",\"timestamp\":1.5}", // a fractional one
      "{\"id\":\"a\",\"text\":\"x\"} {}", // data after the object
      "{\"id\":\"a\",\"text\":\"x\\q\"}", // an unknown escape
      "{\"id\":\"a\",\"text\":\"x\ty\"}", // a control character
      "[{\"id\":\"a\"}]", // not an object
      "{}",
    };
    for (String doc : docs) {
      byte[] b = doc.getBytes(StandardCharsets.UTF_8);
      assertThat(FlatDocument.read(b, 0, b.length)).as(doc).isNull();
    }
  }
}
