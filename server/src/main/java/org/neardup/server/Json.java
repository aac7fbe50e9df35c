// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
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
      Set.of(
          "name",
          "k",
          "threshold",
          "verify",
          "retention",
          "retentionBasis",
          "lexicon",
          "han",
          "userDictionary",
          "preset",
          "numbers",
          "html",
          "volatileLines",
          "topN",
          "sketchCapacity",
          "scheme",
          "idf");

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

  /**
   * Reads one request document (the body of an insert or a check) without building a tree (its
   * commonest form without Jackson, {@link FlatDocument}, which the body's UTF-8 check precedes):
   * the fields a document may have, the first unknown field and the types, so that {@link
   * #document(RawDoc, String, boolean)} checks it. Refuses an empty body, malformed JSON and data
   * after the value.
   */
  static RawDoc readDocument(byte[] body) throws ApiException {
    if (isBlank(body)) {
      throw ApiException.badRequest("the request body is empty; expected a JSON object");
    }
    RawDoc flat = FlatDocument.read(body, 0, body.length);
    return flat != null ? flat : readOne(body, 0, body.length, false);
  }

  /**
   * Reads a batch, a JSON array or NDJSON (one JSON value per line), streaming: no tree per
   * document. Malformed JSON anywhere is refused before any document is checked, as is an array of
   * more than {@code max} documents; NDJSON stops at the first value past {@code max}.
   */
  static List<RawDoc> readBatch(byte[] body, boolean array, int max) throws ApiException {
    List<RawDoc> out = new ArrayList<>();
    try (JsonParser p = FACTORY.createParser(body)) {
      if (array) {
        p.nextToken(); // the '[' startsWithArray saw
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
          out.add(RawDoc.read(p, t));
        }
        if (p.nextToken() != null) {
          throw trailing(p, "");
        }
        if (out.size() > max) {
          throw tooMany(max);
        }
        return out;
      }
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        out.add(RawDoc.read(p, t));
        if (out.size() > max) {
          throw tooMany(max);
        }
      }
      return out;
    } catch (JsonProcessingException e) {
      throw malformed(
          e,
          array
              ? ""
              : "NDJSON line "
                  + (e.getLocation() == null ? "?" : e.getLocation().getLineNr())
                  + ": ");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads the one JSON object at {@code body[from, to)}, a span {@link BatchSpans#find} gave;
   * refuses it if it is not exactly one object. Its error messages locate within the span only: a
   * caller that gets one parses the whole body with {@link #readBatch} for the message to answer.
   */
  static RawDoc readSpan(byte[] body, int from, int to) throws ApiException {
    RawDoc flat = FlatDocument.read(body, from, to);
    return flat != null ? flat : readOne(body, from, to - from, true);
  }

  /** The one JSON value at {@code body[from, from + length)}: an object if {@code objectOnly}. */
  private static RawDoc readOne(byte[] body, int from, int length, boolean objectOnly)
      throws ApiException {
    try (JsonParser p = FACTORY.createParser(body, from, length)) {
      JsonToken first = p.nextToken();
      if (objectOnly && first != JsonToken.START_OBJECT) {
        throw ApiException.badRequest("malformed JSON: expected an object");
      }
      RawDoc d = RawDoc.read(p, first);
      if (p.nextToken() != null) {
        throw trailing(p, "");
      }
      return d;
    } catch (JsonProcessingException e) {
      throw malformed(e, "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ApiException trailing(JsonParser p, String where) {
    JsonLocation l = p.currentTokenLocation();
    return ApiException.badRequest(
        where
            + "malformed JSON at line "
            + l.getLineNr()
            + ", column "
            + l.getColumnNr()
            + ": data after the end of the JSON value");
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
    // Jackson names the source "REDACTED (StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION disabled)"
    // inside some messages ("start marker at [Source: ...; line: 1, column: 1]"): say where only.
    String m =
        REDACTED_SOURCE
            .matcher(String.valueOf(e.getOriginalMessage()))
            .replaceAll("line $1, column $2");
    return ApiException.badRequest(where + "malformed JSON" + at + ": " + m);
  }

  private static final java.util.regex.Pattern REDACTED_SOURCE =
      java.util.regex.Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

  /** Checks that a node is an object with only known fields. */
  static void checkObject(JsonNode n, String where, Set<String> known) throws ApiException {
    if (!n.isObject()) {
      throw ApiException.badRequest(where + "expected a JSON object, got " + type(n));
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!known.contains(f)) {
        throw unknownField(where, f, known);
      }
    }
  }

  private static ApiException unknownField(String where, String field, Set<String> known) {
    return ApiException.badRequest(
        where + "unknown field '" + field + "' (known: " + String.join(", ", sorted(known)) + ")");
  }

  private static List<String> sorted(Set<String> s) {
    List<String> l = new ArrayList<>(s);
    l.sort(null);
    return l;
  }

  static String type(JsonNode n) {
    return type(n.asToken());
  }

  static @Nullable String string(JsonNode obj, String field, String where) throws ApiException {
    JsonNode v = obj.get(field);
    return v == null ? null : string(v.asToken(), v.textValue(), field, where);
  }

  /** A document of a check-and-insert ({@code requireId}) or of a check. */
  record DocInput(String id, @Nullable String text, long fingerprint, long timestamp) {
    boolean hasText() {
      return text != null;
    }
  }

  /**
   * A document as read from JSON, unchecked: whether it is an object (else its type), the first
   * field not allowed in an insert and in a check, and the four known fields with their token
   * types. Made by a streaming parser, one small object per document.
   */
  static final class RawDoc {
    @Nullable String notObject; // the type of a value that is not an object
    @Nullable String unknownInInsert; // the first field not in DOCUMENT_FIELDS
    @Nullable String unknownInCheck; // the first field not in CHECK_FIELDS
    @Nullable JsonToken idToken;
    @Nullable String id;
    @Nullable JsonToken textToken;
    @Nullable String text;
    @Nullable JsonToken fingerprintToken;
    @Nullable String fingerprint;
    @Nullable JsonToken timestampToken;
    @Nullable String timestampText;
    long timestamp;
    boolean timestampFitsLong;

    /** Reads the value that starts at token {@code first}. */
    static RawDoc read(JsonParser p, JsonToken first) throws IOException {
      RawDoc d = new RawDoc();
      if (first != JsonToken.START_OBJECT) {
        d.notObject = type(first);
        p.skipChildren();
        return d;
      }
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken v = p.nextToken();
        switch (name) {
          case "id":
            d.idToken = v;
            d.id = v == JsonToken.VALUE_STRING ? p.getText() : null;
            d.unknownInCheck = d.unknownInCheck == null ? name : d.unknownInCheck;
            break;
          case "text":
            d.textToken = v;
            d.text = v == JsonToken.VALUE_STRING ? p.getText() : null;
            break;
          case "fingerprint":
            d.fingerprintToken = v;
            d.fingerprint = v == JsonToken.VALUE_STRING ? p.getText() : null;
            break;
          case "timestamp":
            d.timestampToken = v;
            if (v == JsonToken.VALUE_STRING) {
              d.timestampText = p.getText();
            } else if (v == JsonToken.VALUE_NUMBER_INT) {
              d.timestampFitsLong = p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
              d.timestamp = d.timestampFitsLong ? p.getLongValue() : -1;
            }
            d.unknownInCheck = d.unknownInCheck == null ? name : d.unknownInCheck;
            break;
          default:
            d.unknownInInsert = d.unknownInInsert == null ? name : d.unknownInInsert;
            d.unknownInCheck = d.unknownInCheck == null ? name : d.unknownInCheck;
        }
        p.skipChildren(); // an object or array value: skipped whole
      }
      return d;
    }
  }

  static String type(JsonToken t) {
    switch (t) {
      case VALUE_STRING:
        return "a string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "a number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "a boolean";
      case VALUE_NULL:
        return "null";
      case START_ARRAY:
        return "an array";
      default:
        return "an object";
    }
  }

  private static @Nullable String string(
      @Nullable JsonToken token, @Nullable String value, String field, String where)
      throws ApiException {
    if (token == null) {
      return null;
    }
    if (token != JsonToken.VALUE_STRING) {
      throw ApiException.badRequest(
          where + "field '" + field + "' must be a string, got " + type(token));
    }
    return value;
  }

  /**
   * Checks one document: an object with only known fields, an {@code id} ({@code requireId}),
   * exactly one of {@code text} and {@code fingerprint}, an optional {@code timestamp}.
   *
   * @param where a prefix naming its position in a batch, or ""
   */
  static DocInput document(RawDoc n, String where, boolean requireId) throws ApiException {
    if (n.notObject != null) {
      throw ApiException.badRequest(where + "expected a JSON object, got " + n.notObject);
    }
    String unknown = requireId ? n.unknownInInsert : n.unknownInCheck;
    if (unknown != null) {
      throw unknownField(where, unknown, requireId ? DOCUMENT_FIELDS : CHECK_FIELDS);
    }
    String id = "";
    if (requireId) {
      String s = string(n.idToken, n.id, "id", where);
      if (s == null) {
        throw ApiException.badRequest(
            where + "field 'id' is required (the caller's id, e.g. a URL)");
      }
      if (s.isEmpty()) {
        throw ApiException.badRequest(where + "field 'id' must not be empty");
      }
      String lone = Utf8.loneSurrogate(s);
      if (lone != null) {
        throw ApiException.badRequest(where + "field 'id' is not valid Unicode: " + lone);
      }
      if (s.length() > Collection.MAX_ID_BYTES
          || s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > Collection.MAX_ID_BYTES) {
        throw ApiException.badRequest(
            where + "field 'id' must be at most " + Collection.MAX_ID_BYTES + " bytes of UTF-8");
      }
      id = s;
    }
    String text = string(n.textToken, n.text, "text", where);
    String hex = string(n.fingerprintToken, n.fingerprint, "fingerprint", where);
    if ((text == null) == (hex == null)) {
      throw ApiException.badRequest(
          where + "give exactly one of 'text' and 'fingerprint' (16 hex digits)");
    }
    long fp = hex == null ? 0 : parseHex(hex, where);
    long timestamp = Document.NO_TIMESTAMP;
    if (n.timestampToken != null && n.timestampToken != JsonToken.VALUE_NULL) {
      timestamp = timestamp(n, where);
    }
    return new DocInput(id, text, fp, timestamp);
  }

  private static long timestamp(RawDoc n, String where) throws ApiException {
    if (n.timestampToken == JsonToken.VALUE_NUMBER_INT && n.timestampFitsLong && n.timestamp >= 0) {
      return n.timestamp;
    }
    if (n.timestampToken == JsonToken.VALUE_STRING) {
      try {
        return Instant.parse(n.timestampText).toEpochMilli();
      } catch (DateTimeParseException | ArithmeticException e) {
        // fall through
      }
    }
    throw ApiException.badRequest(
        where
            + "field 'timestamp' must be epoch milliseconds (an integer >= 0) or an ISO-8601"
            + " instant such as \"2025-01-01T12:00:00Z\", got "
            + (n.timestampToken == JsonToken.VALUE_STRING
                ? "'" + n.timestampText + "'"
                : type(n.timestampToken)));
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
    hex(fp, c);
    return new String(c);
  }

  /** Writes the 16 hex digits of fp into c[0, 16). */
  static void hex(long fp, char[] c) {
    for (int i = 15; i >= 0; i--) {
      c[i] = HEX[(int) (fp & 0xF)];
      fp >>>= 4;
    }
  }

  // --- writing ------------------------------------------------------------------------------

  /** Writes JSON with a generator into bytes. */
  interface Writer {
    void write(JsonGenerator g) throws IOException;
  }

  static byte[] write(Writer w) {
    ByteArrayBuilder out = new ByteArrayBuilder(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      // No " " between root values: NDJSON answers end each value with '\n' themselves.
      g.setRootValueSeparator(null);
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

  // Names and constant values of an outcome, encoded once: a batch answer writes them 100 times.
  private static final SerializedString STATUS = new SerializedString("status");
  private static final SerializedString ID = new SerializedString("id");
  private static final SerializedString ERROR = new SerializedString("error");
  private static final SerializedString NEW = new SerializedString("new");
  private static final SerializedString FINGERPRINT = new SerializedString("fingerprint");
  private static final SerializedString CLUSTER = new SerializedString("cluster");
  private static final SerializedString MATCHES = new SerializedString("matches");
  private static final SerializedString DISTANCE = new SerializedString("distance");
  private static final SerializedString SIMILARITY = new SerializedString("similarity");
  private static final SerializedString[] STATUSES =
      new SerializedString[Outcome.Status.values().length];

  static {
    for (Outcome.Status st : Outcome.Status.values()) {
      STATUSES[st.ordinal()] = new SerializedString(status(st));
    }
  }

  /** One outcome as an object; an {@code exists} outcome carries an error message. */
  static void outcome(JsonGenerator g, Outcome o, String collection) throws IOException {
    g.writeStartObject();
    g.writeFieldName(STATUS);
    g.writeString(STATUSES[o.status().ordinal()]);
    if (o.id() != null) {
      g.writeFieldName(ID);
      g.writeString(o.id());
    }
    if (o.status() == Outcome.Status.EXISTS) {
      g.writeFieldName(ERROR);
      g.writeString(
          "id '"
              + o.id()
              + "' is already stored in collection '"
              + collection
              + "'; nothing changed");
    }
    g.writeFieldName(NEW);
    g.writeBoolean(o.isNew());
    g.writeFieldName(FINGERPRINT);
    char[] hex = new char[16];
    hex(o.fingerprint(), hex);
    g.writeString(hex, 0, 16);
    g.writeFieldName(CLUSTER);
    if (o.cluster() == null) {
      g.writeNull();
    } else {
      g.writeString(o.cluster());
    }
    g.writeFieldName(MATCHES);
    g.writeStartArray();
    for (Outcome.Match m : o.matches()) {
      g.writeStartObject();
      g.writeFieldName(ID);
      g.writeString(m.id());
      g.writeFieldName(DISTANCE);
      g.writeNumber(m.distance());
      if (!Double.isNaN(m.similarity())) {
        g.writeFieldName(SIMILARITY);
        g.writeNumber(Math.round(m.similarity() * 1e4) / 1e4);
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
    g.writeStringField("han", s.chinese().han().name().toLowerCase(java.util.Locale.ROOT));
    if (s.chinese().userDictionary() != null) {
      g.writeStringField("userDictionary", "sha256:" + s.chinese().userDictionary().sha256());
    }
    org.neardup.store.AnalysisOptions a = s.analysis();
    g.writeStringField("numbers", a.foldNumbers() ? "fold" : "keep");
    g.writeStringField("html", org.neardup.store.AnalysisOptions.label(a.html()));
    g.writeStringField("volatileLines", org.neardup.store.AnalysisOptions.label(a.volatileLines()));
    g.writeNumberField("topN", a.topN());
    g.writeNumberField("sketchCapacity", a.sketchCapacity());
    g.writeStringField("scheme", a.scheme().toString());
    if (a.idf() != null) {
      g.writeStringField("idf", "sha256:" + a.idf().sha256());
    }
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
    if (st.idArrayBytes() > 0) {
      g.writeNumberField("idArrayBytes", st.idArrayBytes());
      g.writeNumberField("idLengths", st.idLengths());
    }
    g.writeEndObject();
  }

  /**
   * The analysis options of a create request on top of the server's: {@code preset} first, then
   * {@code numbers}, {@code html}, {@code volatileLines}, {@code topN}, {@code sketchCapacity} and
   * {@code scheme}, which win over it.
   */
  private static org.neardup.store.AnalysisOptions analysis(
      JsonNode n, org.neardup.store.AnalysisOptions defaults) throws ApiException {
    org.neardup.store.AnalysisOptions a = defaults;
    String preset = string(n, "preset", "");
    if (preset != null) {
      org.neardup.store.Preset p = org.neardup.store.Preset.parse(preset);
      a =
          a.withFoldNumbers(p.foldNumbers())
              .withHtml(p.html())
              .withVolatileLines(p.volatileLines());
    }
    String numbers = string(n, "numbers", "");
    if (numbers != null) {
      a = a.withFoldNumbers(org.neardup.store.AnalysisOptions.parseNumbers(numbers));
    }
    String html = string(n, "html", "");
    if (html != null) {
      a = a.withHtml(org.neardup.store.AnalysisOptions.parseHtml(html));
    }
    String lines = string(n, "volatileLines", "");
    if (lines != null) {
      a = a.withVolatileLines(org.neardup.store.AnalysisOptions.parseVolatileLines(lines));
    }
    JsonNode top = n.get("topN");
    if (top != null) {
      a = a.withTopN(intField("topN", top));
    }
    JsonNode cap = n.get("sketchCapacity");
    if (cap != null) {
      a = a.withSketchCapacity(intField("sketchCapacity", cap));
    }
    String scheme = string(n, "scheme", "");
    if (scheme != null) {
      a = a.withScheme(org.neardup.index.BlockScheme.parse(scheme));
    }
    // The table's text itself, 'word idf' lines; the store keeps its bytes.
    String idf = string(n, "idf", "");
    if (idf != null) {
      a =
          a.withIdf(
              org.neardup.text.UserDictionary.of(
                  "field 'idf'", idf.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      a.idfTable(); // a bad table is a bad request, before anything is stored
    }
    return a;
  }

  private static int intField(String name, JsonNode v) throws ApiException {
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw ApiException.badRequest("field '" + name + "' must be an integer, got " + type(v));
    }
    return v.intValue();
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
      String han = string(n, "han", "");
      if (han != null) {
        s = s.withChinese(s.chinese().withHan(org.neardup.store.ChineseOptions.parseHan(han)));
      }
      s = s.withAnalysis(analysis(n, s.analysis()));
      // The dictionary's text itself, jieba.load_userdict's format; the store keeps its bytes.
      String dict = string(n, "userDictionary", "");
      if (dict != null) {
        org.neardup.text.UserDictionary d =
            org.neardup.text.UserDictionary.of(
                "field 'userDictionary'", dict.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        s = s.withChinese(s.chinese().withUserDictionary(d));
      }
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    return s;
  }
}
