// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.neardup.store.CorruptStoreException;

/**
 * The log's file format. The log is a sequence of segment files; each is
 *
 * <pre>
 * Segment       --> Header, Record*
 * Header        --> Magic, Version, SegmentNumber, HeaderCrc
 * Magic         --> the 8 bytes "NDUPLOG\0"
 * Version       --> int32: 2 (this build also reads 1)
 * SegmentNumber --> int64: the number in the file name
 * HeaderCrc     --> int32: CRC32C of the 20 bytes before it
 * Record        --> Length, Crc, Body
 * Length        --> int32: bytes of Body, in [1, 64 MiB]
 * Crc           --> int32: CRC32C of Length and Body
 * Body          --> Create | Drop | Insert | Delete | InsertV1
 * Create        --> 1 (byte), Collection, Name, Settings, AnalyzerId
 * Drop          --> 2 (byte), Collection
 * Insert        --> 5 (byte), Collection, DocId, Timestamp, ExpiresAt, Cluster, IdLength, Id,
 *                   JoinedCount, Joined^JoinedCount, Analysis
 * InsertV1      --> 3 (byte), Collection, DocId, Timestamp, ExpiresAt, Cluster, IdLength, Id, Analysis
 *                   (version 1 wrote these; version 2 reads them as an Insert whose Joined is Cluster)
 * Delete        --> 4 (byte), Collection, DocId
 * Collection    --> int32: the collection's number, never reused in a directory
 * DocId         --> int64: the document's number in its collection, increasing, never reused
 * Timestamp     --> int64: epoch milliseconds (the caller's, or the arrival)
 * ExpiresAt     --> int64: epoch milliseconds; Long.MAX_VALUE for never
 * Cluster       --> int64: DocId of the cluster's representative when the record was written
 * JoinedCount   --> int32: the number of Joined, in [0, (Length - 43 - IdLength) / 8]
 * Joined        --> int64: DocId of the representative of one cluster the document matched, before
 *                   it joined them (org.neardup.Verdict#joined(), earliest first): replay joins
 *                   them all, so a document that merged two clusters merges them again
 * IdLength      --> uint16; Id --> UTF-8 bytes of the caller's id
 * Name, Settings, AnalyzerId --> String
 * String        --> uint16 length, UTF-8 bytes
 * Analysis      --> the rest of the body: org.neardup.Analysis#encode()
 * </pre>
 *
 * All integers are big-endian. Integers are fixed-width so that a snapshot can copy an Insert body
 * and patch its Cluster in place (a snapshot drops the Joined: its Cluster alone places the
 * document, see {@link SnapshotFormat}). Version 1 logged only Cluster, so replaying a document
 * that had joined two clusters rebuilt only one of the links and split the merged cluster. A record
 * is valid only if its Length is in range, the file holds all of it, and its Crc matches; replay
 * stops at the first invalid record, which can only be a torn tail of the newest segment (older
 * segments were forced to disk before they were closed). The segment being written has zeros after
 * its last record (written ahead, see {@link Preallocator}): a frame of zeros followed by nothing
 * but zeros is the end, not an invalid record, and a closed segment is cut at its last record.
 */
final class LogFormat {
  static final long MAGIC = 0x4E44_5550_4C4F_4700L; // "NDUPLOG\0"
  static final int VERSION = 2;
  static final int OLDEST_VERSION = 1;
  static final int HEADER_SIZE = 8 + 4 + 8 + 4;
  static final int FRAME_SIZE = 8;
  static final int MAX_BODY = 64 << 20;

  static final byte CREATE = 1;
  static final byte DROP = 2;

  /** Version 1's insert, without Joined; read, never written. */
  static final byte INSERT_V1 = 3;

  static final byte DELETE = 4;
  static final byte INSERT = 5;

  static final int COLLECTION = 1;
  static final int DOC_ID = 5;
  static final int TIMESTAMP = 13;
  static final int EXPIRES_AT = 21;
  static final int CLUSTER = 29;
  static final int ID_LENGTH = 37;
  static final int ID = 39;

  private static final String PREFIX = "log-";
  private static final String SUFFIX = ".ndlog";

  private LogFormat() {}

  static String fileName(long segment) {
    return String.format(Locale.ROOT, "%s%020d%s", PREFIX, segment, SUFFIX);
  }

  /** The segment number of a log file name, or -1 if it is not one. */
  static long segmentOf(Path file) {
    return numberOf(file.getFileName().toString(), PREFIX, SUFFIX);
  }

  static long numberOf(String name, String prefix, String suffix) {
    if (!name.startsWith(prefix)
        || !name.endsWith(suffix)
        || name.length() != prefix.length() + 20 + suffix.length()) {
      return -1;
    }
    String digits = name.substring(prefix.length(), prefix.length() + 20);
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(digits);
  }

  static byte[] header(long segment) {
    byte[] h = new byte[HEADER_SIZE];
    Bytes.putLong(h, 0, MAGIC);
    Bytes.putInt(h, 8, VERSION);
    Bytes.putLong(h, 12, segment);
    CRC32C crc = new CRC32C();
    crc.update(h, 0, 20);
    Bytes.putInt(h, 20, (int) crc.getValue());
    return h;
  }

  /** Checks a segment header read from {@code file}, which should be segment {@code segment}. */
  static void checkHeader(Path file, byte[] h, long segment) throws CorruptStoreException {
    long magic = Bytes.getLong(h, 0);
    if (magic != MAGIC) {
      throw new CorruptStoreException(
          file,
          0,
          String.format(
              Locale.ROOT,
              "not a neardup log segment: magic is %016x, expected %016x",
              magic,
              MAGIC));
    }
    CRC32C crc = new CRC32C();
    crc.update(h, 0, 20);
    int expected = Bytes.getInt(h, 20);
    if ((int) crc.getValue() != expected) {
      throw new CorruptStoreException(file, 20, "header checksum mismatch");
    }
    int version = Bytes.getInt(h, 8);
    if (version < OLDEST_VERSION || version > VERSION) {
      throw new CorruptStoreException(
          file,
          8,
          "log format version "
              + version
              + " is not supported by this build (it reads versions "
              + OLDEST_VERSION
              + " to "
              + VERSION
              + "); use the neardup release that wrote it");
    }
    long number = Bytes.getLong(h, 12);
    if (number != segment) {
      throw new CorruptStoreException(
          file, 12, "header says segment " + number + ", file name says " + segment);
    }
  }

  /** CRC32C of a record's Length field (4 bytes at {@code lengthAt}) and its Body. */
  static int frameCrc(byte[] lengthBytes, int lengthAt, byte[] body, int bodyAt, int bodyLength) {
    CRC32C crc = new CRC32C();
    crc.update(lengthBytes, lengthAt, 4);
    crc.update(body, bodyAt, bodyLength);
    return (int) crc.getValue();
  }

  // --- bodies ----------------------------------------------------------------------------

  /**
   * An Insert body with DocId and Cluster left 0 and no Joined, to be patched under the
   * collection's lock ({@link #withJoined}).
   */
  static byte[] insert(int collection, long timestamp, long expiresAt, byte[] id, byte[] analysis) {
    byte[] b = new byte[ID + id.length + 4 + analysis.length];
    b[0] = INSERT;
    Bytes.putInt(b, COLLECTION, collection);
    Bytes.putLong(b, TIMESTAMP, timestamp);
    Bytes.putLong(b, EXPIRES_AT, expiresAt);
    Bytes.putShort(b, ID_LENGTH, id.length);
    System.arraycopy(id, 0, b, ID, id.length);
    System.arraycopy(analysis, 0, b, ID + id.length + 4, analysis.length);
    return b;
  }

  /** An Insert body (without Joined) with {@code joined} as its Joined: a copy unless empty. */
  static byte[] withJoined(byte[] body, java.util.List<Long> joined) {
    if (joined.isEmpty()) {
      return body;
    }
    int at = ID + idLength(body);
    assert body[0] == INSERT && Bytes.getInt(body, at) == 0;
    int n = joined.size();
    byte[] b = new byte[body.length + n * 8];
    System.arraycopy(body, 0, b, 0, at);
    Bytes.putInt(b, at, n);
    for (int i = 0; i < n; i++) {
      Bytes.putLong(b, at + 4 + i * 8, joined.get(i));
    }
    System.arraycopy(body, at + 4, b, at + 4 + n * 8, body.length - at - 4);
    return b;
  }

  /**
   * Drops the Joined of an Insert body in place (a snapshot keeps only the Cluster); returns the
   * new length. An InsertV1 body is returned as it is.
   */
  static int stripJoined(byte[] body, int length) {
    if (body[0] != INSERT) {
      return length;
    }
    int at = ID + idLength(body);
    int n = joinedCount(body, length);
    if (n == 0) {
      return length;
    }
    int from = at + 4 + n * 8;
    System.arraycopy(body, from, body, at + 4, length - from);
    Bytes.putInt(body, at, 0);
    return length - n * 8;
  }

  /** Whether a record type is an insert of either version. */
  static boolean isInsert(byte type) {
    return type == INSERT || type == INSERT_V1;
  }

  /**
   * The number of Joined of an insert body: 0 for InsertV1.
   *
   * @throws IllegalArgumentException if the count does not fit in the record
   */
  static int joinedCount(byte[] b, int length) {
    if (b[0] != INSERT) {
      return 0;
    }
    int at = ID + idLength(b);
    if (at + 4 > length) {
      throw new IllegalArgumentException("insert record ends inside its id");
    }
    int n = Bytes.getInt(b, at);
    if (n < 0 || n > (length - at - 4) / 8) {
      throw new IllegalArgumentException(
          "insert record has JoinedCount "
              + n
              + ", its length allows [0, "
              + (length - at - 4) / 8
              + "]");
    }
    return n;
  }

  /** Joined i of an Insert body. */
  static long joined(byte[] b, int i) {
    return Bytes.getLong(b, ID + idLength(b) + 4 + i * 8);
  }

  static byte[] delete(int collection, long docId) {
    byte[] b = new byte[13];
    b[0] = DELETE;
    Bytes.putInt(b, COLLECTION, collection);
    Bytes.putLong(b, DOC_ID, docId);
    return b;
  }

  static byte[] drop(int collection) {
    byte[] b = new byte[5];
    b[0] = DROP;
    Bytes.putInt(b, COLLECTION, collection);
    return b;
  }

  static byte[] create(int collection, String name, String settings, String analyzerId) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] s = settings.getBytes(StandardCharsets.UTF_8);
    byte[] a = analyzerId.getBytes(StandardCharsets.UTF_8);
    byte[] b = new byte[5 + 6 + n.length + s.length + a.length];
    b[0] = CREATE;
    Bytes.putInt(b, COLLECTION, collection);
    int p = 5;
    p = putString(b, p, n);
    p = putString(b, p, s);
    putString(b, p, a);
    return b;
  }

  private static int putString(byte[] b, int p, byte[] s) {
    if (s.length > 0xFFFF) {
      throw new IllegalArgumentException("string too long for the log: " + s.length + " bytes");
    }
    Bytes.putShort(b, p, s.length);
    System.arraycopy(s, 0, b, p + 2, s.length);
    return p + 2 + s.length;
  }

  /** The three strings of a Create body: name, settings, analyzer id. */
  static String[] createStrings(byte[] b, int len) {
    String[] out = new String[3];
    int p = 5;
    for (int i = 0; i < 3; i++) {
      int n = Bytes.getUnsignedShort(b, p);
      if (p + 2 + n > len) {
        throw new IllegalArgumentException("create record string overruns the record");
      }
      out[i] = new String(b, p + 2, n, StandardCharsets.UTF_8);
      p += 2 + n;
    }
    return out;
  }

  static int idLength(byte[] b) {
    return Bytes.getUnsignedShort(b, ID_LENGTH);
  }

  /** Where the Analysis of an insert body of either version starts. */
  static int analysisOffset(byte[] b, int length) {
    return b[0] == INSERT ? ID + idLength(b) + 4 + 8 * joinedCount(b, length) : ID + idLength(b);
  }
}
