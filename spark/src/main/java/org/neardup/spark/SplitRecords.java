// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.zip.CRC32C;
import scala.Tuple2;

/**
 * The records and locations of a text split's documents, read again from the input when the split
 * is written, instead of kept with the analysed documents.
 *
 * <p>Why: the cached documents are read back (deserialized) by every pass of the job, about nine
 * for a plain corpus (the id and sketch lookups, the write); with each JSONL line in them, a 1M
 * corpus of 1 KB documents made each pass copy 1.05 GB and the cache spill at -Xmx3g, and the
 * copies were most of the job's GC. Reading the split's lines again takes one pass of {@link
 * SplitLines} over the file at write time, which the page cache usually still holds.
 *
 * <p>The split's documents come in the order they were read: the n-th document of the partition is
 * the n-th document line of the split (JSONL skips blank lines, as the reader does). Each document
 * keeps a CRC-32C of its line ({@link Doc#lineCheck}): a file that changed between the reads (a
 * line that is not the one read before) fails the task with {@link IllegalStateException} instead
 * of writing another document's line. Not thread-safe.
 */
final class SplitRecords {
  private SplitRecords() {}

  /** The checksum of a line that {@link Doc#lineCheck} keeps: CRC-32C, about 10 GB/s. */
  static int check(byte[] line) {
    CRC32C crc = new CRC32C();
    crc.update(line, 0, line.length);
    return (int) crc.getValue();
  }

  /** A text split whose documents' records and locations are read again at write time. */
  static final class Source implements Serializable {
    private static final long serialVersionUID = 1L;
    final DocumentReader.Split split;
    final InputFiles.File file;

    Source(DocumentReader.Split split, InputFiles.File file) {
      this.split = split;
      this.file = file;
    }

    /** Whether the reader leaves records and locations of this format to be read again. */
    static boolean rereads(InputFiles.Format format) {
      return format == InputFiles.Format.JSONL || format == InputFiles.Format.LINES;
    }
  }

  /**
   * The decided documents of {@code source}'s split with their records and locations filled in from
   * the input (the documents are fresh copies from the serialized cache, so they are filled in
   * place).
   */
  static Iterator<Tuple2<Doc, Fact>> fill(
      Iterator<Tuple2<Doc, Fact>> decided, Source source, HadoopConf conf, int maxBytes)
      throws IOException {
    DocumentReader.Split s = source.split;
    InputFiles.File f = source.file;
    SplitLines lines = SplitLines.forTask(conf.get(), f.path(), s.start, s.end, f.gzip(), maxBytes);
    boolean jsonl = f.format() == InputFiles.Format.JSONL;
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    return new Iterator<>() {
      private long ordinal = s.firstDoc;
      private long lineNo = s.firstLine;

      @Override
      public boolean hasNext() {
        return decided.hasNext();
      }

      @Override
      public Tuple2<Doc, Fact> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Tuple2<Doc, Fact> e = decided.next();
        Doc d = e._1();
        try {
          do {
            if (!lines.next()) {
              throw changed(d.ordinal);
            }
            lineNo++;
          } while (jsonl && lines.blank());
          byte[] line = lines.tooLong() ? null : lines.copy();
          if (d.ordinal != ordinal++ || (line == null ? 0 : check(line)) != d.lineCheck) {
            throw changed(d.ordinal);
          }
          d.location = f.name() + ":" + lineNo;
          if (d.error == null) {
            if (line == null) {
              throw changed(d.ordinal);
            }
            d.record =
                jsonl
                    ? line
                    : DocumentReader.textRecord(d.idJson, DocumentReader.decode(decoder, line));
          }
        } catch (CharacterCodingException x) {
          throw changed(d.ordinal);
        } catch (IOException x) {
          throw new UncheckedIOException(x);
        }
        return e;
      }

      private IllegalStateException changed(int doc) {
        return new IllegalStateException(
            f.path()
                + " changed while the job ran: document #"
                + (doc + 1)
                + " is no longer at line "
                + lineNo
                + " where it was read");
      }
    };
  }
}
