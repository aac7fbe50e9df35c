// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.jspecify.annotations.Nullable;
import org.neardup.verify.ShingleSketch;

/**
 * The dump file of one collection, written by {@code neardup store export} and read by {@code
 * neardup store import}: a stream (written and read front to back, never seeked, so {@code -} for
 * stdout and stdin works) of {@link StoredRecord}s in ordinal order, optionally gzip-compressed (a
 * reader tells by the first two bytes).
 *
 * <pre>
 * Dump       --> Header, Document*, End, Footer
 * Header     --> Magic, Version, Source, Name, Settings, AnalyzerId, CreatedAt, Documents,
 *                HeaderChecksum
 * Magic      --> the 8 bytes "NDUPDUMP"
 * Version    --> int32: 1
 * Source     --> String: the kind of store it was exported from, e.g. "embedded"
 * Name       --> String: the collection's name
 * Settings   --> String: {@link CollectionSettings#toText()}
 * AnalyzerId --> String: {@link org.neardup.Analyzer#id()} of those settings in the exporting build
 * CreatedAt  --> int64: epoch milliseconds
 * Documents  --> int64: how many documents the collection held when the export began (for a
 *                progress bar; the footer has the exact count), -1 if unknown
 * HeaderChecksum --> int32: CRC32C of the header's bytes before it (checked before any document
 *                is read, as an importer creates the collection from the header)
 * Document   --> 'D', OrdinalDelta, RootDelta, Fingerprint, Timestamp, ExpiresAt, Id,
 *                [Cluster if RootDelta &gt; 0], BandCount, BandKey^BandCount, SketchLength, Sketch
 * OrdinalDelta --> varint: the ordinal minus the previous document's (the first: ordinal + 1), &gt;= 1
 * RootDelta  --> varint: the ordinal minus the root's ordinal (0: the document is its own root)
 * Fingerprint, Timestamp, ExpiresAt, BandKey --> int64
 * Id, Cluster --> String; an id has 1 to 4096 bytes
 * BandCount  --> uint8
 * SketchLength --> varint, at most 16 MiB; Sketch: {@link ShingleSketch#encode()}'s bytes
 * End        --> 'E'
 * Footer     --> DocumentCount (int64), Checksum (int32), EndMagic
 * Checksum   --> CRC32C of every uncompressed byte before it
 * EndMagic   --> the 8 bytes "NDUPDEND"
 * String     --> varint length, UTF-8 bytes
 * int32, int64 --> big-endian; varint: 7 bits per byte, low first
 * </pre>
 *
 * A reader checks each document as it reads it (lengths, order, UTF-8, the sketch's encoding) and
 * the checksum and count at the end, and throws {@link CorruptDumpException} naming the source and
 * the byte where the check failed. An importer must therefore be ready to undo what it wrote before
 * the end (see {@link CollectionTransfer.Importer#close()}).
 */
public final class CollectionDump {
  static final long MAGIC = 0x4E44_5550_4455_4D50L; // "NDUPDUMP"
  static final long END_MAGIC = 0x4E44_5550_4445_4E44L; // "NDUPDEND"

  /** The version this build writes and reads. */
  public static final int VERSION = 1;

  private static final int MAX_SKETCH = 16 << 20;
  private static final int MAX_STRING = 1 << 20;
  private static final int BUFFER = 1 << 16;

  private CollectionDump() {}

  /**
   * What a dump says of its collection.
   *
   * @param documents how many documents it held when the export began, or -1
   */
  public record Header(
      String source,
      String name,
      String settings,
      String analyzerId,
      long createdAt,
      long documents) {}

  /** A dump that fails a check. */
  public static final class CorruptDumpException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptDumpException(String source, long offset, String problem) {
      super(source + " is not a valid neardup dump (at byte " + offset + "): " + problem);
    }
  }

  /** Writes a dump; {@link #finish()} completes it. Not thread-safe. */
  public static final class Writer implements Closeable {
    private final OutputStream sink;
    private final @Nullable GZIPOutputStream gzip;
    private final CRC32C crc = new CRC32C();
    private final DataOutputStream out;
    private long previous = -1;
    private long count;
    private boolean finished;

    /**
     * Writes the header.
     *
     * @param gzip whether to compress the stream
     */
    public Writer(OutputStream sink, Header header, boolean gzip) throws IOException {
      this.sink = sink;
      this.gzip = gzip ? new GZIPOutputStream(sink, BUFFER) : null;
      OutputStream raw = this.gzip != null ? this.gzip : sink;
      this.out =
          new DataOutputStream(new BufferedOutputStream(new CheckedOutputStream(raw, crc), BUFFER));
      out.writeLong(MAGIC);
      out.writeInt(VERSION);
      writeString(header.source());
      writeString(header.name());
      writeString(header.settings());
      writeString(header.analyzerId());
      out.writeLong(header.createdAt());
      out.writeLong(header.documents());
      out.flush();
      out.writeInt((int) crc.getValue());
    }

    /**
     * Appends a record.
     *
     * @throws IllegalArgumentException if its ordinal does not increase or a field is too long
     */
    public void write(StoredRecord r) throws IOException {
      if (r.ordinal() <= previous) {
        throw new IllegalArgumentException(
            "ordinals must increase: " + r.ordinal() + " after " + previous);
      }
      if (r.bandKeys().length > 255) {
        throw new IllegalArgumentException("at most 255 band keys, got " + r.bandKeys().length);
      }
      if (r.sketch().length > MAX_SKETCH) {
        throw new IllegalArgumentException("sketch of " + r.sketch().length + " bytes");
      }
      out.writeByte('D');
      writeVarint(r.ordinal() - previous);
      writeVarint(r.ordinal() - r.root());
      out.writeLong(r.fingerprint());
      out.writeLong(r.timestamp());
      out.writeLong(r.expiresAt());
      writeString(r.id());
      if (!r.isRoot()) {
        writeString(r.cluster());
      }
      out.writeByte(r.bandKeys().length);
      for (long k : r.bandKeys()) {
        out.writeLong(k);
      }
      writeVarint(r.sketch().length);
      out.write(r.sketch());
      previous = r.ordinal();
      count++;
    }

    /** Records written so far. */
    public long count() {
      return count;
    }

    /** Writes the end and the footer and flushes; the sink stays open. */
    public void finish() throws IOException {
      if (finished) {
        return;
      }
      out.writeByte('E');
      out.writeLong(count);
      out.flush();
      int checksum = (int) crc.getValue();
      DataOutputStream tail =
          new DataOutputStream(gzip != null ? gzip : sink); // not part of the checksum
      tail.writeInt(checksum);
      tail.writeLong(END_MAGIC);
      tail.flush();
      if (gzip != null) {
        gzip.finish();
      }
      sink.flush();
      finished = true;
    }

    /**
     * Flushes what was written and closes the sink, without finishing: a dump that was not finished
     * is refused when read, as one cut short.
     */
    @Override
    public void close() throws IOException {
      try {
        if (!finished) {
          out.flush();
        }
      } finally {
        sink.close();
      }
    }

    private void writeString(String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      writeVarint(b.length);
      out.write(b);
    }

    private void writeVarint(long v) throws IOException {
      while ((v & ~0x7FL) != 0) {
        out.writeByte((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.writeByte((int) v);
    }
  }

  /** Reads a dump, checking it as it goes. Not thread-safe. */
  public static final class Reader implements Closeable {
    private static final long[] NO_KEYS = new long[0];
    private static final byte[] NO_SKETCH = new byte[0];

    private final String source;
    private final InputStream in;
    private final Input data;
    private final Header header;
    // Reused: a decoder per string was a large part of reading a record.
    private final CharsetDecoder utf8 =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private long previous = -1;
    private long count;
    private boolean done;

    /**
     * Reads and checks the header.
     *
     * @param source what to call the input in errors, e.g. its file name
     * @throws CorruptDumpException if it is not a dump of a version this build reads
     */
    public Reader(InputStream in, String source) throws IOException {
      this.source = source;
      this.in = in;
      BufferedInputStream b = new BufferedInputStream(in, BUFFER);
      b.mark(2);
      int b0 = b.read();
      int b1 = b.read();
      b.reset();
      InputStream raw = b;
      if (b0 == 0x1f && b1 == 0x8b) {
        raw = new GZIPInputStream(b, BUFFER);
      }
      this.data = new Input(raw);
      try {
        long magic = data.readLong();
        if (magic != MAGIC) {
          throw corrupt("it does not start with NDUPDUMP");
        }
        int version = data.readInt();
        if (version != VERSION) {
          throw corrupt(
              "version " + version + ", this build reads version " + VERSION + " (a newer build?)");
        }
        header =
            new Header(
                readString(),
                readString(),
                readString(),
                readString(),
                data.readLong(),
                data.readLong());
        int expected = data.checksum();
        if (data.readInt() != expected) {
          throw corrupt("the header's checksum does not match");
        }
      } catch (EOFException e) {
        throw corrupt("it ends inside the header");
      } catch (ZipException e) {
        throw corrupt("bad gzip data: " + e.getMessage());
      }
    }

    public Header header() {
      return header;
    }

    /** Records read so far. */
    public long count() {
      return count;
    }

    /** Uncompressed bytes read so far. */
    public long position() {
      return data.position();
    }

    /**
     * The next record, or null after the last one, once the footer's count and checksum are
     * checked.
     *
     * @throws CorruptDumpException if anything fails a check
     */
    public @Nullable StoredRecord next() throws IOException {
      if (done) {
        return null;
      }
      try {
        int tag = data.read();
        if (tag == 'E') {
          long n = data.readLong();
          int expected = data.checksum(); // the footer's own bytes are not part of it
          int checksum = data.readInt();
          long endMagic = data.readLong();
          if (n != count) {
            throw corrupt("the footer counts " + n + " documents, the dump holds " + count);
          }
          if (checksum != expected) {
            throw corrupt(
                String.format(
                    java.util.Locale.ROOT,
                    "checksum mismatch: the footer says %08x, the data gives %08x",
                    checksum,
                    expected));
          }
          if (endMagic != END_MAGIC) {
            throw corrupt("it does not end with NDUPDEND");
          }
          if (data.read() != -1) {
            throw corrupt("data after the end");
          }
          done = true;
          return null;
        }
        if (tag != 'D') {
          throw corrupt(
              tag < 0
                  ? "it ends after " + count + " documents, without its end and footer (cut short?)"
                  : "unexpected byte " + tag + " where a document or the end should be");
        }
        long ordinal = previous + readVarint();
        if (ordinal <= previous) {
          throw corrupt("ordinals do not increase");
        }
        long rootDelta = readVarint();
        if (rootDelta > ordinal) {
          throw corrupt("root before ordinal 0");
        }
        long fingerprint = data.readLong();
        long timestamp = data.readLong();
        long expiresAt = data.readLong();
        String id = readString();
        if (id.isEmpty() || id.length() > Collection.MAX_ID_BYTES) {
          throw corrupt("an id of " + id.length() + " characters");
        }
        String cluster = rootDelta == 0 ? id : readString();
        int bands = data.read();
        if (bands < 0) {
          throw new EOFException();
        }
        long[] keys = bands == 0 ? NO_KEYS : new long[bands];
        for (int i = 0; i < bands; i++) {
          keys[i] = data.readLong();
        }
        long sketchLength = readVarint();
        if (sketchLength > MAX_SKETCH) {
          throw corrupt("a sketch of " + sketchLength + " bytes");
        }
        byte[] sketch = sketchLength == 0 ? NO_SKETCH : new byte[(int) sketchLength];
        data.readFully(sketch, 0, sketch.length);
        if (sketch.length > 0) {
          try {
            ShingleSketch.validate(sketch, 0, sketch.length);
          } catch (IllegalArgumentException e) {
            throw corrupt("the sketch of '" + id + "': " + e.getMessage());
          }
        }
        previous = ordinal;
        count++;
        return new StoredRecord(
            ordinal,
            id,
            fingerprint,
            timestamp,
            expiresAt,
            ordinal - rootDelta,
            cluster,
            keys,
            sketch);
      } catch (EOFException e) {
        throw corrupt("it ends after " + count + " documents, inside a document (cut short?)");
      } catch (ZipException e) {
        throw corrupt("bad gzip data: " + e.getMessage());
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }

    private CorruptDumpException corrupt(String problem) {
      return new CorruptDumpException(source, data.position(), problem);
    }

    private String readString() throws IOException {
      long n = readVarint();
      if (n > MAX_STRING) {
        throw corrupt("a string of " + n + " bytes");
      }
      int len = (int) n;
      if (data.request(len)) {
        // In the buffer: ASCII (ids mostly are) as Latin-1, which is the same text and the JDK's
        // cheapest String; anything else through the checking decoder.
        byte[] buf = data.buf;
        int off = data.pos;
        data.pos += len;
        return isAscii(buf, off, len)
            ? new String(buf, off, len, StandardCharsets.ISO_8859_1)
            : decode(ByteBuffer.wrap(buf, off, len));
      }
      byte[] b = new byte[len];
      data.readFully(b, 0, len);
      return decode(ByteBuffer.wrap(b));
    }

    private String decode(ByteBuffer bytes) throws CorruptDumpException {
      try {
        return utf8.decode(bytes).toString();
      } catch (CharacterCodingException e) {
        throw corrupt("a string that is not UTF-8");
      }
    }

    private static boolean isAscii(byte[] b, int off, int len) {
      for (int i = off; i < off + len; i++) {
        if (b[i] < 0) {
          return false;
        }
      }
      return true;
    }

    private long readVarint() throws IOException {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = data.read();
        if (b < 0) {
          throw new EOFException();
        }
        v |= (long) (b & 0x7F) << shift;
        if (b < 0x80) {
          if (v < 0) {
            throw corrupt("a negative number");
          }
          return v;
        }
      }
      throw corrupt("a number longer than 64 bits");
    }
  }

  /**
   * The uncompressed bytes of a dump through a buffer of its own, their CRC32C taken over the
   * consumed bytes a buffer at a time. It replaces a DataInputStream over a CheckedInputStream over
   * a counting stream over a BufferedInputStream, where each of a record's dozen one-byte reads
   * went through four streams, a lock and a one-byte checksum update. Not thread-safe.
   */
  private static final class Input {
    private static final VarHandle LONG =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final InputStream in;
    private final CRC32C crc = new CRC32C();
    final byte[] buf = new byte[BUFFER];

    /** The next byte to read. */
    int pos;

    private int limit;

    /** Bytes [0, summed) of the buffer are in the checksum. */
    private int summed;

    /** The stream's offset of buf[0]. */
    private long base;

    Input(InputStream in) {
      this.in = in;
    }

    long position() {
      return base + pos;
    }

    /** The checksum of every byte consumed so far. */
    int checksum() {
      crc.update(buf, summed, pos - summed);
      summed = pos;
      return (int) crc.getValue();
    }

    /**
     * Whether the next {@code n <= BUFFER} bytes are (now) in the buffer at [pos, pos + n); false
     * when the stream ends before, or when n is larger than the buffer.
     */
    boolean request(int n) throws IOException {
      if (limit - pos >= n) {
        return true;
      }
      if (n > buf.length) {
        return false;
      }
      crc.update(buf, summed, pos - summed);
      int rest = limit - pos;
      System.arraycopy(buf, pos, buf, 0, rest);
      base += pos;
      pos = 0;
      summed = 0;
      limit = rest;
      while (limit < n) {
        int r = in.read(buf, limit, buf.length - limit);
        if (r < 0) {
          return false;
        }
        limit += r;
      }
      return true;
    }

    /** The next byte, or -1 at the end of the stream. */
    int read() throws IOException {
      if (pos == limit && !request(1)) {
        return -1;
      }
      return buf[pos++] & 0xFF;
    }

    long readLong() throws IOException {
      if (!request(8)) {
        throw new EOFException();
      }
      long v = (long) LONG.get(buf, pos);
      pos += 8;
      return v;
    }

    int readInt() throws IOException {
      if (!request(4)) {
        throw new EOFException();
      }
      int v = (int) INT.get(buf, pos);
      pos += 4;
      return v;
    }

    void readFully(byte[] b, int off, int len) throws IOException {
      if (request(len)) {
        System.arraycopy(buf, pos, b, off, len);
        pos += len;
        return;
      }
      // Longer than the buffer (or the stream ends): what is buffered, then straight from the
      // stream, summed as it comes.
      int n = limit - pos;
      System.arraycopy(buf, pos, b, off, n);
      pos = limit;
      crc.update(buf, summed, pos - summed);
      base += pos;
      pos = 0;
      limit = 0;
      summed = 0;
      for (int done = n; done < len; ) {
        int r = in.read(b, off + done, len - done);
        if (r < 0) {
          throw new EOFException();
        }
        crc.update(b, off + done, r);
        base += r;
        done += r;
      }
    }
  }
}
