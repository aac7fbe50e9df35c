// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.neardup.store.Document;

/** The streaming request reader: the same documents and the same refusals as a strict parse. */
class JsonTest {
  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Json.DocInput insert(String json) throws ApiException {
    return Json.document(Json.readDocument(utf8(json)), "", true);
  }

  private static String refusal(String json, boolean requireId) {
    try {
      Json.document(Json.readDocument(utf8(json)), "", requireId);
    } catch (ApiException e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted " + json);
  }

  @Test
  void readDocument_allFields_read() throws ApiException {
    Json.DocInput d =
        insert(
            "{\"timestamp\": 1700000000000, \"id\": \"https://a/\\u00e9\", \"fingerprint\":"
                + " \"0123456789abcdef\"}");
    assertThat(d.id()).isEqualTo("https://a/\u00e9");
    assertThat(d.hasText()).isFalse();
    assertThat(d.fingerprint()).isEqualTo(0x0123456789abcdefL);
    assertThat(d.timestamp()).isEqualTo(1700000000000L);
    Json.DocInput t = insert("{\"id\": \"a\", \"text\": \"x y\", \"timestamp\": null}");
    assertThat(t.text()).isEqualTo("x y");
    assertThat(t.timestamp()).isEqualTo(Document.NO_TIMESTAMP);
    assertThat(
            insert("{\"id\":\"a\",\"text\":\"x\",\"timestamp\":\"2025-01-01T00:00:00Z\"}")
                .timestamp())
        .isEqualTo(1735689600000L);
  }

  @Test
  void document_badFields_refusedNamingTheFirstProblem() {
    // Unknown fields are reported before type errors, the first one in document order.
    assertThat(refusal("{\"id\": 5, \"zz\": {\"a\": [1]}, \"yy\": 1, \"text\": \"x\"}", true))
        .isEqualTo("unknown field 'zz' (known: fingerprint, id, text, timestamp)");
    assertThat(refusal("{\"text\": \"x\", \"id\": \"a\"}", false))
        .isEqualTo("unknown field 'id' (known: fingerprint, text)");
    assertThat(refusal("{\"id\": [\"a\"], \"text\": \"x\"}", true))
        .isEqualTo("field 'id' must be a string, got an array");
    assertThat(refusal("{\"id\": \"a\", \"text\": null}", true))
        .isEqualTo("field 'text' must be a string, got null");
    assertThat(refusal("{\"id\": \"a\", \"text\": \"x\", \"timestamp\": 1.5}", true))
        .contains("field 'timestamp' must be epoch milliseconds", "got a number");
    assertThat(
            refusal("{\"id\": \"a\", \"text\": \"x\", \"timestamp\": 99999999999999999999}", true))
        .contains("got a number");
    assertThat(refusal("{\"id\": \"a\", \"text\": \"x\", \"timestamp\": \"soon\"}", true))
        .contains("got 'soon'");
    assertThat(refusal("{\"id\": \"a\", \"text\": \"x\", \"timestamp\": -1}", true))
        .contains("'timestamp'");
    assertThat(refusal("[{\"id\": \"a\"}]", true))
        .isEqualTo("expected a JSON object, got an array");
    assertThat(refusal("\"a\"", true)).isEqualTo("expected a JSON object, got a string");
  }

  @Test
  void readDocument_malformed_refused() {
    assertThatThrownBy(() -> Json.readDocument(utf8(" \n ")))
        .hasMessageContaining("the request body is empty");
    assertThatThrownBy(() -> Json.readDocument(utf8("{\"id\": \"a\", \"id\": \"b\"}")))
        .hasMessageContaining("malformed JSON")
        .hasMessageContaining("Duplicate field 'id'");
    assertThatThrownBy(() -> Json.readDocument(utf8("{\"id\": \"a\"} {")))
        .hasMessageContaining("malformed JSON at line 1, column 13")
        .hasMessageContaining("data after the end");
    assertThatThrownBy(() -> Json.readDocument(utf8("{\"id\": ")))
        .hasMessageContaining("malformed JSON at line 1");
  }

  @Test
  void readBatch_arrayAndNdjson_sameDocuments() throws ApiException {
    String a = "{\"id\":\"a\",\"text\":\"x y\"}";
    String b = "{\"id\":\"b\",\"fingerprint\":\"ffffffffffffffff\",\"timestamp\":5}";
    List<Json.RawDoc> array = Json.readBatch(utf8("[" + a + ", " + b + "]"), true, 10);
    List<Json.RawDoc> nd = Json.readBatch(utf8(a + "\n" + b + "\n"), false, 10);
    for (List<Json.RawDoc> docs : List.of(array, nd)) {
      assertThat(docs).hasSize(2);
      assertThat(Json.document(docs.get(0), "", true))
          .isEqualTo(new Json.DocInput("a", "x y", 0, Document.NO_TIMESTAMP));
      assertThat(Json.document(docs.get(1), "", true))
          .isEqualTo(new Json.DocInput("b", null, -1L, 5));
    }
    assertThat(Json.readBatch(utf8(" \n"), false, 10)).isEmpty();
  }

  @Test
  void readBatch_limitsAndMalformed_refused() {
    String a = "{\"id\":\"a\",\"text\":\"x y\"}";
    assertThatThrownBy(() -> Json.readBatch(utf8("[" + a + "," + a + "," + a + "]"), true, 2))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("at most 2 documents");
    assertThatThrownBy(() -> Json.readBatch(utf8(a + "\n" + a + "\n" + a + "\n"), false, 2))
        .hasMessageContaining("at most 2 documents");
    assertThatThrownBy(() -> Json.readBatch(utf8(a + "\n{\"id\":"), false, 10))
        .hasMessageContaining("NDJSON line 2: malformed JSON");
    assertThatThrownBy(() -> Json.readBatch(utf8("[" + a + "] x"), true, 10))
        .hasMessageContaining("malformed JSON");
    assertThatThrownBy(() -> Json.readBatch(utf8("[" + a + ","), true, 10))
        .hasMessageContaining("malformed JSON");
  }
}
