package org.neardup.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionStats;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.StoredDocument;

/**
 * The service's JSON: strict parsing of requests (unknown fields, wrong types, duplicate keys and
 * trailing garbage are refused with a message naming the field) and rendering of answers.
 */
final class Json {
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final ObjectReader TREES = MAPPER.readerFor(JsonNode.class);
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  static final Set<String> DOCUMENT_FIELDS = Set.of("id", "text", "fingerprint", "timestamp");
  static final Set<String> CHECK_FIELDS = Set.of("text", "fingerprint");
  static final Set<String> COLLECTION_FIELDS =
      Set.of("name", "k", "threshold", "verify", "retention", "retentionBasis", "lexicon");

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Json() {}

  // --- reading ------------------------------------------------------------------------------

  /** Parses one JSON value. */
  static JsonNode parse(byte[] body) throws ApiException {
    if (isBlank(body)) {
      throw ApiException.badRequest("the request body is empty; expected a JSON object");
    }
    try {
      return TREES.readValue(body);
    } catch (JsonProcessingException e) {
      throw malformed(e, "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a batch: a JSON array, or NDJSON (one JSON value per line). */
  static List<JsonNode> parseBatch(byte[] body, boolean array, int max) throws ApiException {
    List<JsonNode> out = new ArrayList<>();
    if (array) {
      JsonNode n = parse(body);
      for (Iterator<JsonNode> it = n.elements(); it.hasNext(); ) {
        out.add(it.next());
        if (out.size() > max) {
          throw tooMany(max);
        }
      }
      return out;
    }
    try (MappingIterator<JsonNode> it = TREES.readValues(body)) {
      while (it.hasNextValue()) {
        out.add(it.nextValue());
        if (out.size() > max) {
          throw tooMany(max);
        }
      }
    } catch (JsonProcessingException e) {
      throw malformed(
          e, "NDJSON line " + (e.getLocation() == null ? "?" : e.getLocation().getLineNr()) + ": ");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static ApiException tooMany(int max) {
    return new ApiException(
        413, "a batch holds at most " + max + " documents; split it (see --max-batch)");
  }

  /** Whether the first non-blank byte is '['. */
  static boolean startsWithArray(byte[] body) {
    for (byte b : body) {
      if (b == '[') {
        return true;
      }
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return false;
  }

  private static boolean isBlank(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return true;
  }

  private static ApiException malformed(JsonProcessingException e, String where) {
    JsonLocation l = e.getLocation();
    String at = l == null ? "" : " at line " + l.getLineNr() + ", column " + l.getColumnNr();
    return ApiException.badRequest(where + "malformed JSON" + at + ": " + e.getOriginalMessage());
  }

  /** Checks that a node is an object with only known fields. */
  static void checkObject(JsonNode n, String where, Set<String> known) throws ApiException {
    if (!n.isObject()) {
      throw ApiException.badRequest(where + "expected a JSON object, got " + type(n));
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!known.contains(f)) {
        throw ApiException.badRequest(
            where + "unknown field '" + f + "' (known: " + String.join(", ", sorted(known)) + ")");
      }
    }
  }

  private static List<String> sorted(Set<String> s) {
    List<String> l = new ArrayList<>(s);
    l.sort(null);
    return l;
  }

  static String type(JsonNode n) {
    if (n.isTextual()) {
      return "a string";
    }
    if (n.isNumber()) {
      return "a number";
    }
    if (n.isBoolean()) {
      return "a boolean";
    }
    if (n.isNull()) {
      return "null";
    }
    if (n.isArray()) {
      return "an array";
    }
    return "an object";
  }

  static @Nullable String string(JsonNode obj, String field, String where) throws ApiException {
    JsonNode v = obj.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw ApiException.badRequest(
          where + "field '" + field + "' must be a string, got " + type(v));
    }
    return v.textValue();
  }

  /** A document of a check-and-insert ({@code requireId}) or of a check. */
  record DocInput(String id, @Nullable String text, long fingerprint, long timestamp) {
    boolean hasText() {
      return text != null;
    }
  }

  /**
   * Reads and checks one document.
   *
   * @param where a prefix naming its position in a batch, or ""
   */
  static DocInput document(JsonNode n, String where, boolean requireId) throws ApiException {
    checkObject(n, where, requireId ? DOCUMENT_FIELDS : CHECK_FIELDS);
    String id = "";
    if (requireId) {
      String s = string(n, "id", where);
      if (s == null) {
        throw ApiException.badRequest(
            where + "field 'id' is required (the caller's id, e.g. a URL)");
      }
      if (s.isEmpty()) {
        throw ApiException.badRequest(where + "field 'id' must not be empty");
      }
      if (s.length() > Collection.MAX_ID_BYTES
          || s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > Collection.MAX_ID_BYTES) {
        throw ApiException.badRequest(
            where + "field 'id' must be at most " + Collection.MAX_ID_BYTES + " bytes of UTF-8");
      }
      id = s;
    }
    String text = string(n, "text", where);
    String hex = string(n, "fingerprint", where);
    if ((text == null) == (hex == null)) {
      throw ApiException.badRequest(
          where + "give exactly one of 'text' and 'fingerprint' (16 hex digits)");
    }
    long fp = hex == null ? 0 : parseHex(hex, where);
    long timestamp = Document.NO_TIMESTAMP;
    JsonNode t = n.get("timestamp");
    if (t != null && !t.isNull()) {
      timestamp = timestamp(t, where);
    }
    return new DocInput(id, text, fp, timestamp);
  }

  private static long timestamp(JsonNode t, String where) throws ApiException {
    if (t.isIntegralNumber() && t.canConvertToLong() && t.longValue() >= 0) {
      return t.longValue();
    }
    if (t.isTextual()) {
      try {
        return Instant.parse(t.textValue()).toEpochMilli();
      } catch (DateTimeParseException | ArithmeticException e) {
        // fall through
      }
    }
    throw ApiException.badRequest(
        where
            + "field 'timestamp' must be epoch milliseconds (an integer >= 0) or an ISO-8601"
            + " instant such as \"2025-01-01T12:00:00Z\", got "
            + (t.isTextual() ? "'" + t.textValue() + "'" : type(t)));
  }

  static long parseHex(String hex, String where) throws ApiException {
    if (hex.length() != 16) {
      throw ApiException.badRequest(
          where + "field 'fingerprint' must be 16 hex digits, got " + hex.length() + " characters");
    }
    long v = 0;
    for (int i = 0; i < 16; i++) {
      int d = Character.digit(hex.charAt(i), 16);
      if (d < 0) {
        throw ApiException.badRequest(
            where + "field 'fingerprint' must be 16 hex digits, got '" + hex + "'");
      }
      v = (v << 4) | d;
    }
    return v;
  }

  static String hex(long fp) {
    char[] c = new char[16];
    for (int i = 15; i >= 0; i--) {
      c[i] = HEX[(int) (fp & 0xF)];
      fp >>>= 4;
    }
    return new String(c);
  }

  // --- writing ------------------------------------------------------------------------------

  /** Writes JSON with a generator into bytes. */
  interface Writer {
    void write(JsonGenerator g) throws IOException;
  }

  static byte[] write(Writer w) {
    ByteArrayBuilder out = new ByteArrayBuilder(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      w.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static byte[] error(String message) {
    return write(
        g -> {
          g.writeStartObject();
          g.writeStringField("error", message);
          g.writeEndObject();
        });
  }

  static String status(Outcome.Status s) {
    switch (s) {
      case STORED:
        return "stored";
      case CHECKED:
        return "checked";
      case EXISTS:
        return "exists";
      default:
        return "expired";
    }
  }

  /** One outcome as an object; an {@code exists} outcome carries an error message. */
  static void outcome(JsonGenerator g, Outcome o, String collection) throws IOException {
    g.writeStartObject();
    g.writeStringField("status", status(o.status()));
    if (o.id() != null) {
      g.writeStringField("id", o.id());
    }
    if (o.status() == Outcome.Status.EXISTS) {
      g.writeStringField(
          "error",
          "id '"
              + o.id()
              + "' is already stored in collection '"
              + collection
              + "'; nothing changed");
    }
    g.writeBooleanField("new", o.isNew());
    g.writeStringField("fingerprint", hex(o.fingerprint()));
    if (o.cluster() == null) {
      g.writeNullField("cluster");
    } else {
      g.writeStringField("cluster", o.cluster());
    }
    g.writeArrayFieldStart("matches");
    for (Outcome.Match m : o.matches()) {
      g.writeStartObject();
      g.writeStringField("id", m.id());
      g.writeNumberField("distance", m.distance());
      if (!Double.isNaN(m.similarity())) {
        g.writeNumberField("similarity", Math.round(m.similarity() * 1e4) / 1e4);
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  static byte[] outcome(Outcome o, String collection) {
    return write(g -> outcome(g, o, collection));
  }

  static byte[] stored(StoredDocument d) {
    return write(
        g -> {
          g.writeStartObject();
          g.writeStringField("id", d.id());
          g.writeStringField("fingerprint", hex(d.fingerprint()));
          g.writeNumberField("timestamp", d.timestamp());
          if (d.expiresAt() == Long.MAX_VALUE) {
            g.writeNullField("expiresAt");
          } else {
            g.writeNumberField("expiresAt", d.expiresAt());
          }
          g.writeStringField("cluster", d.cluster());
          g.writeEndObject();
        });
  }

  static void collection(JsonGenerator g, Collection c) throws IOException {
    CollectionSettings s = c.settings();
    CollectionStats st = c.stats();
    g.writeStartObject();
    g.writeStringField("name", c.name());
    g.writeObjectFieldStart("settings");
    g.writeNumberField("k", s.maxDistance());
    g.writeNumberField("threshold", s.threshold());
    g.writeBooleanField("verify", s.verify());
    g.writeStringField("retention", s.retention().toString());
    g.writeStringField(
        "retentionBasis",
        s.retentionBasis() == CollectionSettings.RetentionBasis.ARRIVAL ? "arrival" : "timestamp");
    g.writeStringField("lexicon", s.lexicon());
    g.writeEndObject();
    g.writeStringField("analyzer", c.analyzer().id());
    g.writeFieldName("stats");
    stats(g, st);
    g.writeEndObject();
  }

  static void stats(JsonGenerator g, CollectionStats st) throws IOException {
    g.writeStartObject();
    g.writeNumberField("documents", st.documents());
    g.writeNumberField("ramBytes", st.ramBytesUsed());
    g.writeNumberField("inserted", st.inserted());
    g.writeNumberField("duplicates", st.duplicates());
    g.writeNumberField("checked", st.checked());
    g.writeNumberField("expired", st.expired());
    g.writeNumberField("deleted", st.deleted());
    g.writeEndObject();
  }

  /** Settings of a create request, on top of the server's defaults. */
  static CollectionSettings settings(JsonNode n, CollectionSettings defaults) throws ApiException {
    CollectionSettings s = defaults;
    try {
      JsonNode k = n.get("k");
      if (k != null) {
        if (!k.isIntegralNumber() || !k.canConvertToInt()) {
          throw ApiException.badRequest("field 'k' must be an integer, got " + type(k));
        }
        s = s.withMaxDistance(k.intValue());
      }
      JsonNode t = n.get("threshold");
      if (t != null) {
        if (!t.isNumber()) {
          throw ApiException.badRequest("field 'threshold' must be a number, got " + type(t));
        }
        s = s.withThreshold(t.doubleValue());
      }
      JsonNode v = n.get("verify");
      if (v != null) {
        if (!v.isBoolean()) {
          throw ApiException.badRequest("field 'verify' must be true or false, got " + type(v));
        }
        s = s.withVerify(v.booleanValue());
      }
      JsonNode r = n.get("retention");
      if (r != null) {
        if (r.isIntegralNumber() && r.canConvertToLong() && r.longValue() >= 0) {
          s = s.withRetention(java.time.Duration.ofSeconds(r.longValue()));
        } else if (r.isTextual()) {
          s = s.withRetention(CollectionSettings.parseDuration(r.textValue()));
        } else {
          throw ApiException.badRequest(
              "field 'retention' must be a duration such as \"48h\" or a number of seconds, got "
                  + type(r));
        }
      }
      String basis = string(n, "retentionBasis", "");
      if (basis != null) {
        s = s.withRetentionBasis(CollectionSettings.parseBasis(basis));
      }
      String lexicon = string(n, "lexicon", "");
      if (lexicon != null) {
        s = s.withLexicon(lexicon);
      }
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    return s;
  }
}
