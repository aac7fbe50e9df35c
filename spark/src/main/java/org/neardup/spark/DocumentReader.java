// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.text.LineReader;

/**
 * Reads the inputs into analysed {@link Doc}s, numbered as {@code neardup dedup} numbers them.
 *
 * <p>Files are cut into splits in input order. A first pass counts the documents and lines of each
 * split (a few numbers per split reach the driver); their running sums give every document its
 * ordinal and every line its number in the second pass, which parses, checks and analyses each
 * document with the engine's {@link Analyzer}. Everything {@code neardup dedup} reports as a
 * per-document error (malformed JSON, a missing field, invalid UTF-8, a document over the size
 * limit, a text without letters) becomes a {@link Doc} with an error, in its place in the order.
 */
final class DocumentReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] NO_BYTES = new byte[0];

  /** One split of one file, and after the counting pass where its documents and lines start. */
  static final class Split implements Serializable {
    private static final long serialVersionUID = 1L;
    final int file;
    final long start;
    final long end;
    long firstDoc;
    long firstLine;

    Split(int file, long start, long end) {
      this.file = file;
      this.start = start;
      this.end = end;
    }
  }

  private DocumentReader() {}

  static List<Split> splits(List<InputFiles.File> files, int partitions) {
    long total = 0;
    for (InputFiles.File f : files) {
      total += f.size();
    }
    long size = partitions > 0 ? Math.max(1, (total + partitions - 1) / partitions) : 64L << 20;
    List<Split> splits = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      InputFiles.File f = files.get(i);
      if (f.gzip() || f.format() == InputFiles.Format.FILES || f.size() <= size) {
        splits.add(new Split(i, 0, Long.MAX_VALUE));
        continue;
      }
      for (long s = 0; s < f.size(); s += size) {
        splits.add(new Split(i, s, Math.min(f.size(), s + size)));
      }
      // The last split reads to the end even if the file grew: nothing is lost.
      Split last = splits.remove(splits.size() - 1);
      splits.add(new Split(last.file, last.start, Long.MAX_VALUE));
    }
    return splits;
  }

  /** The documents of the text inputs (JSONL, lines, files), analysed, in a stable order. */
  static JavaRDD<Doc> read(
      JavaSparkContext jsc,
      List<InputFiles.File> files,
      HadoopConf conf,
      DedupSettings settings,
      long firstOrdinal,
      long[] countOut,
      int allFiles,
      List<SplitRecords.@Nullable Source> sources) {
    List<Split> splits = splits(files, settings.inputPartitions);
    if (splits.isEmpty()) {
      return jsc.emptyRDD();
    }
    int lineFiles = 0;
    for (InputFiles.File f : files) {
      if (f.format() != InputFiles.Format.FILES) {
        lineFiles++;
      }
    }
    boolean single = allFiles == 1 && lineFiles == 1;
    int maxBytes = settings.maxDocBytes;
    List<long[]> counts =
        jsc.parallelize(splits, splits.size())
            .map(s -> count(s, files.get(s.file), conf, maxBytes))
            .collect();
    long doc = firstOrdinal;
    long line = 0;
    for (int i = 0; i < splits.size(); i++) {
      Split s = splits.get(i);
      if (i > 0 && splits.get(i - 1).file != s.file) {
        line = 0;
      }
      s.firstDoc = doc;
      s.firstLine = line;
      doc += counts.get(i)[0];
      line += counts.get(i)[1];
    }
    countOut[0] = doc - firstOrdinal;
    for (Split s : splits) {
      InputFiles.File f = files.get(s.file);
      sources.add(SplitRecords.Source.rereads(f.format()) ? new SplitRecords.Source(s, f) : null);
    }
    if (doc > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "more than " + Integer.MAX_VALUE + " documents in one run; split the corpus");
    }
    return jsc.parallelize(splits, splits.size())
        .mapPartitions(it -> new SplitDocs(it, files, conf, settings, single));
  }

  /** Documents and lines of one split. */
  private static long[] count(Split s, InputFiles.File f, HadoopConf conf, int maxBytes)
      throws IOException {
    if (f.format() == InputFiles.Format.FILES) {
      return new long[] {1, 0};
    }
    long docs = 0;
    long lines = 0;
    try (SplitLines in = new SplitLines(conf.get(), f.path(), s.start, s.end, f.gzip(), maxBytes)) {
      while (in.next()) {
        lines++;
        if (f.format() != InputFiles.Format.JSONL || !in.blank()) {
          docs++;
        }
      }
    }
    return new long[] {docs, lines};
  }

  /**
   * The documents of a task's splits, read and analysed one at a time as the task consumes them, so
   * that a split's documents are never all held at once (the cache serializes them as they come).
   */
  private static final class SplitDocs implements Iterator<Doc> {
    private final Iterator<Split> splits;
    private final List<InputFiles.File> files;
    private final HadoopConf conf;
    private final DedupSettings settings;
    private final boolean single;
    private final Analyzer analyzer;
    private final CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private InputFiles.@Nullable File file;
    private @Nullable SplitLines in;
    private long ordinal;
    private long lineNo;
    private @Nullable Doc next;

    SplitDocs(
        Iterator<Split> splits,
        List<InputFiles.File> files,
        HadoopConf conf,
        DedupSettings settings,
        boolean single) {
      this.splits = splits;
      this.files = files;
      this.conf = conf;
      this.settings = settings;
      this.single = single;
      this.analyzer = settings.analyzer();
    }

    @Override
    public boolean hasNext() {
      try {
        while (next == null) {
          if (!advance()) {
            return false;
          }
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public Doc next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Doc d = next;
      next = null;
      return d;
    }

    /** Reads one line (or one file) further; false when every split is done. */
    private boolean advance() throws IOException {
      int maxBytes = settings.maxDocBytes;
      if (in == null) {
        if (!splits.hasNext()) {
          return false;
        }
        Split s = splits.next();
        InputFiles.File f = files.get(s.file);
        file = f;
        ordinal = s.firstDoc;
        if (f.format() == InputFiles.Format.FILES) {
          Doc d = new Doc();
          d.ordinal = (int) ordinal;
          d.idJson = quote(f.relative());
          d.location = f.name();
          byte[] bytes = readFile(f, conf, maxBytes);
          if (bytes == null) {
            d.error = "document exceeds --max-doc-bytes " + maxBytes;
          } else {
            analyse(d, decoder, bytes, InputFiles.Format.FILES, settings, analyzer);
          }
          next = d;
          return true;
        }
        lineNo = s.firstLine;
        SplitLines lines =
            SplitLines.forTask(conf.get(), f.path(), s.start, s.end, f.gzip(), maxBytes);
        in = lines;
      }
      SplitLines lines = in;
      InputFiles.File f = file;
      if (!lines.next()) {
        lines.close();
        in = null;
        return true;
      }
      long n = ++lineNo;
      boolean jsonl = f.format() == InputFiles.Format.JSONL;
      if (jsonl && lines.blank()) {
        return true;
      }
      Doc d = new Doc();
      d.ordinal = (int) ordinal++;
      d.location = f.name() + ":" + n;
      d.idJson = jsonl ? null : single ? Long.toString(n) : quote(f.name() + ":" + n);
      if (lines.tooLong()) {
        d.error =
            "document of " + lines.byteLength() + " bytes exceeds --max-doc-bytes " + maxBytes;
      } else {
        byte[] bytes = lines.copy();
        d.lineCheck = SplitRecords.check(bytes);
        analyse(d, decoder, bytes, f.format(), settings, analyzer);
      }
      if (SplitRecords.Source.rereads(f.format())) {
        // Read again when the split is written (SplitRecords): every pass over the cache would
        // otherwise copy them.
        d.record = NO_BYTES;
        d.location = "";
      }
      next = d;
      return true;
    }
  }

  private static byte @Nullable [] readFile(InputFiles.File f, HadoopConf conf, int maxBytes)
      throws IOException {
    Path p = new Path(f.path());
    InputStream in = p.getFileSystem(conf.get()).open(p);
    if (f.gzip()) {
      in = new GZIPInputStream(in, 1 << 16);
    }
    try (InputStream i = in) {
      byte[] bytes = i.readNBytes(maxBytes + 1);
      return bytes.length > maxBytes ? null : bytes;
    }
  }

  /** Decodes, parses and analyses one document as {@code neardup dedup} does. */
  static void analyse(
      Doc d,
      CharsetDecoder decoder,
      byte[] bytes,
      InputFiles.Format format,
      DedupSettings settings,
      Analyzer analyzer) {
    String text;
    try {
      text = decode(decoder, bytes);
    } catch (CharacterCodingException e) {
      d.error = e.getMessage();
      return;
    }
    byte[] record = null;
    if (format == InputFiles.Format.JSONL) {
      text = parseJson(d, text, settings);
      if (text == null) {
        return;
      }
      record = bytes;
    }
    withText(d, text, record, analyzer);
  }

  /** Analyses a document's text; the record defaults to {@code {"id":...,"text":...}}. */
  static void withText(Doc d, String text, byte @Nullable [] record, Analyzer analyzer) {
    Analysis a = analyzer.analyze(text);
    if (a.isEmpty()) {
      d.error = "text has no letters or digits";
      return;
    }
    d.record = record != null ? record : textRecord(d.idJson, text);
    d.fingerprint = a.fingerprint();
    if (analyzer.shingler() != null) {
      d.sketch = a.sketch().shingles().encode();
      d.bandKeys = a.sketch().bandKeys().clone();
    }
  }

  /** The record {@code {"id":...,"text":...}} of a document given as a text. */
  static byte[] textRecord(@Nullable String idJson, String text) {
    return ("{\"id\":" + idJson + ",\"text\":" + quote(text) + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The text of a JSONL record, or null with {@code d.error} set. */
  private static @Nullable String parseJson(Doc d, String line, DedupSettings settings) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      d.error = JsonErrors.malformed(e);
      return null;
    }
    if (node == null || !node.isObject()) {
      d.error = "expected a JSON object, got " + (node == null ? "nothing" : kind(node));
      return null;
    }
    JsonNode id = node.get(settings.idField);
    if (id == null || id.isNull()) {
      d.error = "missing field '" + settings.idField + "'";
      return null;
    }
    if (!(id.isTextual() || id.isIntegralNumber())) {
      d.error = "field '" + settings.idField + "' must be a string or an integer, got " + kind(id);
      return null;
    }
    d.idJson = id.toString();
    JsonNode text = node.get(settings.textField);
    if (text == null || text.isNull()) {
      d.error = "missing field '" + settings.textField + "'";
      return null;
    }
    if (!text.isTextual()) {
      d.error = "field '" + settings.textField + "' must be a string, got " + kind(text);
      return null;
    }
    return text.textValue();
  }

  private static String kind(JsonNode n) {
    return n.getNodeType().name().toLowerCase(Locale.ROOT);
  }

  static String decode(CharsetDecoder decoder, byte[] bytes) throws CharacterCodingException {
    return LineReader.decode(decoder, bytes, 0, bytes.length);
  }

  static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static Iterator<Doc> none() {
    return java.util.Collections.emptyIterator();
  }
}
