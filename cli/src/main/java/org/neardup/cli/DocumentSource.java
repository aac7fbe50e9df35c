// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;

/**
 * Reads documents from the command line's inputs, in order: JSONL files (one JSON object per line,
 * id and text in configurable fields), text files (one document per line) and directories (every
 * .txt, .html, .htm and .md file below, each one document, in path order); any of them may be
 * gzipped ({@code .gz}); {@code -} reads standard input.
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

  private static final ObjectMapper JSON = new ObjectMapper();
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
   */
  record RawDocument(
      long ordinal,
      String location,
      Format format,
      byte @Nullable [] bytes,
      @Nullable String idJson,
      @Nullable String error) {}

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

  private final List<Path> inputs;
  private final Format format;
  private final String idField;
  private final String textField;
  private final int maxBytes;
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

  /** Reads every document in order and hands it, raw, to {@code out}; see {@link #parse}. */
  void forEach(Consumer<RawDocument> out) throws IOException {
    long[] ordinal = {0};
    long[] before = {0};
    for (Path p : inputs) {
      if (p.toString().equals("-")) {
        readStream(System.in, "stdin", formatOf(p), ordinal, out, inputs.size() == 1);
      } else if (Files.isDirectory(p)) {
        for (Path f : filesIn(p)) {
          try (InputStream in = open(f, before)) {
            readFile(in, p.relativize(f).toString().replace('\\', '/'), f.toString(), ordinal, out);
          }
          before[0] += Files.size(f);
        }
      } else {
        try (InputStream in = open(p, before)) {
          Format f = formatOf(p);
          if (f == Format.FILES) {
            readFile(in, p.getFileName().toString(), p.toString(), ordinal, out);
          } else {
            readStream(in, p.toString(), f, ordinal, out, inputs.size() == 1);
          }
        }
        before[0] += Files.size(p);
      }
    }
    bytesRead = totalBytes;
  }

  private Format formatOf(Path p) {
    if (format != Format.AUTO) {
      return format;
    }
    String name =
        p.getFileName() == null ? "" : p.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson") || name.endsWith(".json")) {
      return Format.JSONL;
    }
    if (name.endsWith(".html") || name.endsWith(".htm") || name.endsWith(".md")) {
      return Format.FILES;
    }
    return Format.LINES;
  }

  private InputStream open(Path p, long[] before) throws IOException {
    InputStream raw = new CountingStream(Files.newInputStream(p), before[0]);
    InputStream in = new BufferedInputStream(raw, 1 << 16);
    if (p.toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
      in = new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
    }
    return in;
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

  private void readStream(
      InputStream in,
      String name,
      Format f,
      long[] ordinal,
      Consumer<RawDocument> out,
      boolean single)
      throws IOException {
    LineReader lines = new LineReader(in, maxBytes);
    while (lines.next()) {
      long n = lines.lineNumber();
      String location = name + ":" + n;
      String id = f == Format.JSONL ? null : single ? Long.toString(n) : quote(name + ":" + n);
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
      out.accept(new RawDocument(ordinal[0]++, location, f, lines.copy(), id, null));
    }
  }

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
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      return error(ordinal, null, location, "malformed JSON: " + e.getOriginalMessage());
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
    if (id == null || id.isNull()) {
      return error(ordinal, null, location, "missing field '" + idField + "'");
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
    if (text == null || text.isNull()) {
      return error(ordinal, idJson, location, "missing field '" + textField + "'");
    }
    if (!text.isTextual()) {
      return error(
          ordinal,
          idJson,
          location,
          "field '" + textField + "' must be a string, got " + kind(text));
    }
    return new InputDocument(ordinal, idJson, text.textValue(), location, raw, null);
  }

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
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
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
