// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;
import org.neardup.text.LineReader;

/**
 * Reads documents from the command line's inputs, in order: JSONL files (one JSON object per line,
 * id and text in configurable fields), JSON files holding an array of such objects (streamed, never
 * held whole), text files (one document per line, id {@code FILE:LINE}) and directories (every
 * .txt, .html, .htm and .md file below, each one document, id its path below the directory, in path
 * order); {@code -} reads standard input. Every command reads through this class, so all of them
 * read the same inputs the same way.
 *
 * <p>Gzip is recognised by its first two bytes, not by the name, so compressed standard input works
 * as a compressed file does. The format comes from {@code --format}, else from the name ({@code
 * .jsonl .ndjson .json} JSON, {@code .txt} text, {@code .html .htm .md} one document per file),
 * else (standard input, other names) from the content: a first non-blank byte <code>{</code> means
 * JSONL, {@code [} a JSON array, anything else text lines. A JSON input whose first non-blank byte
 * is {@code [} is read as an array.
 *
 * <p>Per-document problems (malformed JSON, a missing or mistyped field, invalid UTF-8, a document
 * larger than the limit, an empty line) become {@link InputDocument}s with an error, so the caller
 * counts and reports them and carries on. Problems with an input as a whole (missing file,
 * unreadable directory) are thrown before anything is read, from {@link #open}.
 */
final class DocumentSource {
  /** How to read an input. */
  enum Format {
    AUTO,
    JSONL,
    LINES,
    FILES
  }

  /**
   * Built on first use: making an ObjectMapper costs ~0.2 s of CPU in a fresh JVM (its
   * configuration, type factory and date format), and a run whose records all take the flat path
   * ({@link FlatJson}) and that skips nothing never needs one (docs/BENCHMARKS.md, start-up).
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private static final ThreadLocal<java.nio.charset.CharsetDecoder> DECODER =
      ThreadLocal.withInitial(
          () ->
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT));

  /**
   * A document as read, not yet decoded or parsed: reading stays cheap and sequential, and the
   * decoding and JSON parsing run on the worker threads ({@link #parse}).
   *
   * @param bytes the raw line or file, or null when {@code error} is set
   * @param idJson the id when the format gives it (lines, files), else null
   * @param file for a JSONL line of a regular, uncompressed file: that file, where {@code bytes}
   *     can be read again (at {@code offset}, {@code bytes.length} of them); else null
   * @param offset where {@code bytes} start in {@code file}; -1 without a file
   */
  record RawDocument(
      long ordinal,
      String location,
      Format format,
      byte @Nullable [] bytes,
      @Nullable String idJson,
      @Nullable String error,
      @Nullable Path file,
      long offset) {

    /** A document that cannot be read again from its input. */
    RawDocument(
        long ordinal,
        String location,
        Format format,
        byte @Nullable [] bytes,
        @Nullable String idJson,
        @Nullable String error) {
      this(ordinal, location, format, bytes, idJson, error, null, -1);
    }
  }

  /** Decodes and parses a raw document; thread-safe. */
  InputDocument parse(RawDocument raw) {
    if (raw.error() != null || raw.bytes() == null) {
      return error(
          raw.ordinal(),
          raw.idJson(),
          raw.location(),
          raw.error() == null ? "unreadable" : raw.error());
    }
    String text;
    try {
      text = LineReader.decode(DECODER.get(), raw.bytes(), 0, raw.bytes().length);
    } catch (CharacterCodingException e) {
      return error(raw.ordinal(), raw.idJson(), raw.location(), e.getMessage());
    }
    if (raw.format() == Format.JSONL) {
      return parseJson(raw.ordinal(), text, raw.bytes(), raw.location());
    }
    return new InputDocument(raw.ordinal(), raw.idJson(), text, raw.location(), null, null);
  }

  /**
   * dedup's reading of a JSONL line without a String of the line or of its text ({@link
   * FlatTextReader}): the id as JSON, with the text in {@code text}; or null when that reader does
   * not take the line (not a JSONL line, invalid UTF-8, a record of another shape, send's fields, a
   * line longer than the thread's char array), which {@link #parse} then reads as before. For a
   * line it takes, the id and text are those {@link #parse} gives. Thread-safe.
   */
  @Nullable String readFlat(RawDocument raw, org.neardup.text.TextBuffer text) {
    byte[] bytes = raw.bytes();
    if (raw.error() != null
        || bytes == null
        || raw.format() != Format.JSONL
        || sendFields
        || bytes.length > org.neardup.internal.ScratchChars.RETAINED) {
      return null;
    }
    char[] line = org.neardup.internal.ScratchChars.atLeast(bytes.length);
    int n;
    try {
      n = LineReader.decodeChars(DECODER.get(), bytes, 0, bytes.length, line);
    } catch (LineReader.InvalidUtf8Exception e) {
      return null; // parse reports it
    }
    return n < 0 ? null : FlatTextReader.read(line, 0, n, idField, textField, text);
  }

  private final List<Path> inputs;
  private final Format format;
  private final String idField;
  private final String textField;
  private final int maxBytes;
  private boolean sendFields;
  private final long totalBytes;
  private volatile long bytesRead;

  private DocumentSource(
      List<Path> inputs,
      Format format,
      String idField,
      String textField,
      int maxBytes,
      long total) {
    this.inputs = inputs;
    this.format = format;
    this.idField = idField;
    this.textField = textField;
    this.maxBytes = maxBytes;
    this.totalBytes = total;
  }

  /**
   * Checks every input exists and is readable.
   *
   * @throws IOException naming the first input that is not
   */
  static DocumentSource open(
      List<Path> inputs, Format format, String idField, String textField, int maxBytes)
      throws IOException {
    if (inputs.isEmpty()) {
      throw new IOException("no input given");
    }
    long total = 0;
    for (Path p : inputs) {
      if (p.toString().equals("-")) {
        continue;
      }
      if (!Files.exists(p)) {
        throw new NoSuchFileException(p.toString(), null, "no such file or directory");
      }
      if (!Files.isReadable(p)) {
        throw new IOException(p + ": not readable");
      }
      if (Files.isDirectory(p)) {
        if (format != Format.AUTO && format != Format.FILES) {
          throw new IOException(
              p + ": is a directory, but --format is " + format.name().toLowerCase(Locale.ROOT));
        }
        for (Path f : filesIn(p)) {
          total += Files.size(f);
        }
      } else {
        total += Files.size(p);
      }
    }
    return new DocumentSource(List.copyOf(inputs), format, idField, textField, maxBytes, total);
  }

  /** Total bytes of the inputs on disk (compressed size for .gz), 0 when reading stdin only. */
  long totalBytes() {
    return totalBytes;
  }

  /** Bytes consumed so far from the inputs on disk; for progress. */
  long bytesRead() {
    return bytesRead;
  }

  /**
   * Also accepts, as {@code neardup send} does, a {@code fingerprint} (16 hex digits) instead of
   * the text and an optional {@code timestamp} (epoch milliseconds or ISO-8601).
   */
  DocumentSource withSendFields() {
    this.sendFields = true;
    return this;
  }

  /** Reads every document in order and hands it, raw, to {@code out}; see {@link #parse}. */
  void forEach(Consumer<RawDocument> out) throws IOException {
    long[] ordinal = {0};
    long[] before = {0};
    for (Path p : inputs) {
      if (isStdin(p)) {
        InputStream in = decompress(new BufferedInputStream(new Unclosable(System.in), 1 << 16));
        readInput(in, "stdin", "", null, ordinal, out);
      } else if (Files.isDirectory(p)) {
        for (Path f : filesIn(p)) {
          try (InputStream in = open(f, before)) {
            readFile(in, p.relativize(f).toString().replace('\\', '/'), f.toString(), ordinal, out);
          }
          before[0] += Files.size(f);
        }
      } else {
        try (InputStream in = open(p, before)) {
          String name = p.getFileName() == null ? "" : p.getFileName().toString();
          if (formatByName(name) == Format.FILES) {
            readFile(in, name, p.toString(), ordinal, out);
          } else {
            // Its lines can be read again at their offsets (dedup's output records) when the
            // stream is the file's own bytes: not gzip, not a pipe or device.
            Path again = !(in instanceof Gunzipped) && Files.isRegularFile(p) ? p : null;
            readInput(in, p.toString(), name, again, ordinal, out);
          }
        }
        before[0] += Files.size(p);
      }
    }
    bytesRead = totalBytes;
  }

  static boolean isStdin(Path p) {
    return p.toString().equals("-");
  }

  /**
   * Reads a stream as JSONL, a JSON array or text lines: see the class comment for which. {@code
   * file}: the file the stream reads from its first byte, uncompressed, or null.
   */
  private void readInput(
      InputStream in,
      String location,
      String name,
      @Nullable Path file,
      long[] ordinal,
      Consumer<RawDocument> out)
      throws IOException {
    Format f = formatByName(name);
    int first = firstByte(in);
    if (f == Format.AUTO) {
      f = first == '{' || first == '[' ? Format.JSONL : Format.LINES;
    }
    if (f == Format.JSONL && first == '[') {
      readArray(in, location, ordinal, out);
    } else {
      readLines(in, location, f, f == Format.JSONL ? file : null, ordinal, out);
    }
  }

  /** The format {@code --format} or the file name gives: AUTO when neither says. */
  private Format formatByName(String fileName) {
    if (format != Format.AUTO) {
      return format;
    }
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson") || name.endsWith(".json")) {
      return Format.JSONL;
    }
    if (name.endsWith(".html") || name.endsWith(".htm") || name.endsWith(".md")) {
      return Format.FILES;
    }
    if (name.endsWith(".txt")) {
      return Format.LINES;
    }
    return Format.AUTO;
  }

  /** The first byte that is not blank or a byte-order mark, looking at most 64 KiB ahead; or -1. */
  private static int firstByte(InputStream in) throws IOException {
    int limit = 1 << 16;
    in.mark(limit);
    try {
      for (int i = 0; i < limit; i++) {
        int b = in.read();
        if (b < 0) {
          return -1;
        }
        if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != 0xEF && b != 0xBB
            && b != 0xBF) {
          return b;
        }
      }
      return -1;
    } finally {
      in.reset();
    }
  }

  private InputStream open(Path p, long[] before) throws IOException {
    InputStream raw = new CountingStream(Files.newInputStream(p), before[0]);
    return decompress(new BufferedInputStream(raw, 1 << 16));
  }

  /** Unzips a gzip stream, recognised by its magic number; returns other streams as they are. */
  private static InputStream decompress(BufferedInputStream in) throws IOException {
    in.mark(2);
    int a = in.read();
    int b = in.read();
    in.reset();
    if (a == 0x1f && b == 0x8b) {
      return new Gunzipped(new GZIPInputStream(in, 1 << 16));
    }
    return in;
  }

  /** A gzip input's uncompressed bytes, whose offsets are not the file's. */
  private static final class Gunzipped extends BufferedInputStream {
    Gunzipped(InputStream in) {
      super(in, 1 << 16);
    }
  }

  private static List<Path> filesIn(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile)
          .filter(
              f -> {
                String n = f.getFileName().toString().toLowerCase(Locale.ROOT);
                if (n.endsWith(".gz")) {
                  n = n.substring(0, n.length() - 3);
                }
                return n.endsWith(".txt")
                    || n.endsWith(".html")
                    || n.endsWith(".htm")
                    || n.endsWith(".md");
              })
          .sorted()
          .forEach(files::add);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return files;
  }

  /** {@code file}: the file whose bytes {@code in} reads from the first, for JSONL, or null. */
  private void readLines(
      InputStream in,
      String name,
      Format f,
      @Nullable Path file,
      long[] ordinal,
      Consumer<RawDocument> out)
      throws IOException {
    LineReader lines = new LineReader(in, maxBytes);
    for (long start = 0; lines.next(); start = lines.position()) {
      long n = lines.lineNumber();
      String location = name + ":" + n;
      // One rule for every command: a text line's id is FILE:LINE, the file as given (stdin for -).
      String id = f == Format.JSONL ? null : quote(location);
      if (lines.tooLong()) {
        out.accept(
            new RawDocument(
                ordinal[0]++,
                location,
                f,
                null,
                id,
                "document of "
                    + lines.byteLength()
                    + " bytes exceeds --max-doc-bytes "
                    + maxBytes));
        continue;
      }
      if (f == Format.JSONL && lines.blank()) {
        continue; // blank lines between JSON records are not documents
      }
      out.accept(
          new RawDocument(
              ordinal[0]++, location, f, lines.copy(), id, null, file, file == null ? -1 : start));
    }
  }

  /**
   * Streams the objects of a JSON array, one document each, located by the line each starts on.
   * Malformed JSON ends the array: it is reported as one bad record, since nothing after it can be
   * told apart.
   */
  private void readArray(InputStream in, String name, long[] ordinal, Consumer<RawDocument> out)
      throws IOException {
    try (JsonParser p = Json.MAPPER.getFactory().createParser(new Unclosable(in))) {
      long line = 1;
      try {
        p.nextToken(); // the '[' readInput saw
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
          if (t == null) {
            throw new JsonParseException(
                p, "the file ends inside the JSON array", p.currentLocation());
          }
          line = p.currentTokenLocation().getLineNr();
          JsonNode node = p.readValueAsTree();
          byte[] bytes = Json.MAPPER.writeValueAsBytes(node);
          String location = name + ":" + line;
          if (bytes.length > maxBytes) {
            out.accept(
                new RawDocument(
                    ordinal[0]++,
                    location,
                    Format.JSONL,
                    null,
                    null,
                    "document of " + bytes.length + " bytes exceeds --max-doc-bytes " + maxBytes));
          } else {
            out.accept(new RawDocument(ordinal[0]++, location, Format.JSONL, bytes, null, null));
          }
        }
      } catch (JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        long at = l == null || l.getLineNr() < 1 ? line : l.getLineNr();
        out.accept(
            new RawDocument(
                ordinal[0]++,
                name + ":" + at,
                Format.JSONL,
                null,
                null,
                malformed(e, true) + "; the rest of the array is not read"));
      }
    }
  }

  /**
   * The message for malformed JSON: where (column, and line when {@code withLine}) and what, with
   * Jackson's "[Source: REDACTED ...]" locations inside its message rewritten as line and column.
   */
  static String malformed(JsonProcessingException e, boolean withLine) {
    JsonLocation l = e.getLocation();
    String at = "";
    if (l != null && l.getColumnNr() > 0) {
      at =
          withLine
              ? " at line " + l.getLineNr() + ", column " + l.getColumnNr()
              : " at column " + l.getColumnNr();
    }
    String m = String.valueOf(e.getOriginalMessage());
    m = SOURCE.matcher(m).replaceAll(withLine ? "line $1, column $2" : "column $2");
    return "malformed JSON" + at + ": " + m;
  }

  private static final Pattern SOURCE =
      Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

  private void readFile(
      InputStream in, String id, String location, long[] ordinal, Consumer<RawDocument> out)
      throws IOException {
    byte[] bytes = in.readNBytes(maxBytes + 1);
    if (bytes.length > maxBytes) {
      out.accept(
          new RawDocument(
              ordinal[0]++,
              location,
              Format.FILES,
              null,
              quote(id),
              "document exceeds --max-doc-bytes " + maxBytes));
      return;
    }
    out.accept(new RawDocument(ordinal[0]++, location, Format.FILES, bytes, quote(id), null));
  }

  private InputDocument parseJson(long ordinal, String line, byte[] raw, String location) {
    if (sendFields) {
      // send's usual record has an id and a text only: without a fingerprint or a timestamp field
      // it reads as dedup reads it (a JSON tree per record was the largest part of send's own CPU
      // in a profile of 20,000 short texts).
      String[] flat = FlatJson.read(line, idField, textField, SEND_ONLY_FIELDS);
      if (flat != null) {
        return new InputDocument(ordinal, flat[0], flat[1], location, raw, null);
      }
    } else {
      String[] flat = FlatJson.read(line, idField, textField);
      if (flat != null) {
        return new InputDocument(ordinal, flat[0], flat[1], location, raw, null);
      }
      InputDocument plain = parsePlainJson(ordinal, line, raw, location);
      if (plain != null) {
        return plain;
      }
    }
    return parseJsonTree(ordinal, line, raw, location);
  }

  /** Reads a JSONL record as a JSON tree: every case, and the error messages. */
  InputDocument parseJsonTree(long ordinal, String line, byte[] raw, String location) {
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      return error(ordinal, null, location, malformed(e, false));
    }
    if (node == null || !node.isObject()) {
      return error(
          ordinal,
          null,
          location,
          "expected a JSON object, got " + (node == null ? "nothing" : kind(node)));
    }
    JsonNode id = node.get(idField);
    String idJson = null;
    if (id == null) {
      return error(ordinal, null, location, "missing field '" + idField + "'");
    }
    if (id.isNull()) {
      return error(
          ordinal,
          null,
          location,
          "field '" + idField + "' is null; it must be a string or an integer");
    }
    if (!(id.isTextual() || id.isIntegralNumber())) {
      return error(
          ordinal,
          null,
          location,
          "field '" + idField + "' must be a string or an integer, got " + kind(id));
    }
    idJson = id.toString();
    JsonNode text = node.get(textField);
    if (sendFields && (text == null || text.isNull()) && node.get("fingerprint") != null) {
      return sendFields(ordinal, node, idJson, null, raw, location);
    }
    if (text == null) {
      return error(ordinal, idJson, location, "missing field '" + textField + "'");
    }
    if (text.isNull()) {
      return error(
          ordinal, idJson, location, "field '" + textField + "' is null; it must be a string");
    }
    if (!text.isTextual()) {
      return error(
          ordinal,
          idJson,
          location,
          "field '" + textField + "' must be a string, got " + kind(text));
    }
    if (sendFields) {
      return sendFields(ordinal, node, idJson, text.textValue(), raw, location);
    }
    return new InputDocument(ordinal, idJson, text.textValue(), location, raw, null);
  }

  /**
   * The common case without a JSON tree: an object whose id field (a string or an integer) and text
   * field (a string) each appear once, read with the streaming parser. Returns null for anything
   * else (malformed, missing, mistyped or repeated fields), which the tree-based path then reads
   * and reports exactly as before; for what this accepts it gives the same id and text.
   */
  @Nullable InputDocument parsePlainJson(long ordinal, String line, byte[] raw, String location) {
    String idJson = null;
    String text = null;
    try (JsonParser p = Json.MAPPER.getFactory().createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
        if (t != JsonToken.FIELD_NAME) {
          return null;
        }
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (name.equals(idField)) {
          if (idJson != null) {
            return null;
          }
          if (v == JsonToken.VALUE_STRING) {
            idJson = quote(p.getText());
          } else if (v == JsonToken.VALUE_NUMBER_INT) {
            idJson =
                p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? p.getBigIntegerValue().toString()
                    : Long.toString(p.getLongValue());
          } else {
            return null;
          }
        } else if (name.equals(textField)) {
          if (text != null || v != JsonToken.VALUE_STRING) {
            return null;
          }
          text = p.getText();
        } else if (v == null) {
          return null;
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    if (idJson == null || text == null) {
      return null;
    }
    return new InputDocument(ordinal, idJson, text, location, raw, null);
  }

  /** The fingerprint and timestamp fields {@code send} accepts besides the id and text. */
  private static InputDocument sendFields(
      long ordinal,
      JsonNode node,
      String idJson,
      @Nullable String text,
      byte[] raw,
      String location) {
    Long fingerprint = null;
    if (text == null) {
      JsonNode fp = node.get("fingerprint");
      if (!fp.isTextual() || !HEX16.matcher(fp.textValue()).matches()) {
        return error(ordinal, idJson, location, "field 'fingerprint' must be 16 hex digits");
      }
      fingerprint = Long.parseUnsignedLong(fp.textValue(), 16);
    }
    Long timestamp = null;
    JsonNode ts = node.get("timestamp");
    if (ts != null && !ts.isNull()) {
      if (ts.isIntegralNumber() && ts.canConvertToLong()) {
        timestamp = ts.longValue();
      } else if (ts.isTextual()) {
        try {
          timestamp = Instant.parse(ts.textValue()).toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
          return error(
              ordinal, idJson, location, "field 'timestamp' is not an ISO-8601 instant: " + ts);
        }
      } else {
        return error(
            ordinal,
            idJson,
            location,
            "field 'timestamp' must be epoch milliseconds or ISO-8601, got " + kind(ts));
      }
    }
    return new InputDocument(ordinal, idJson, text, location, raw, null, fingerprint, timestamp);
  }

  private static final Pattern HEX16 = Pattern.compile("[0-9a-fA-F]{16}");

  /** The fields only {@code send} reads, which only the tree path reads. */
  private static final Set<String> SEND_ONLY_FIELDS = Set.of("fingerprint", "timestamp");

  private static String kind(JsonNode n) {
    JsonNodeType t = n.getNodeType();
    return t.name().toLowerCase(Locale.ROOT);
  }

  private static InputDocument error(
      long ordinal, @Nullable String idJson, String location, String message) {
    return new InputDocument(ordinal, idJson, null, location, null, message);
  }

  static String quote(String s) {
    try {
      return Json.MAPPER.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Standard input, or a stream a parser must not close. */
  private static final class Unclosable extends FilterInputStream {
    Unclosable(InputStream in) {
      super(in);
    }

    @Override
    public void close() {}
  }

  /** Counts bytes for the progress bar. */
  private final class CountingStream extends FilterInputStream {
    private final long base;
    private long n;

    CountingStream(InputStream in, long base) {
      super(in);
      this.base = base;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        bytesRead = base + ++n;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int r = super.read(b, off, len);
      if (r > 0) {
        n += r;
        bytesRead = base + n;
      }
      return r;
    }
  }
}
