// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Reads the records of one log segment in order, stopping at the first invalid one. Zeros from the
 * last record to the end of the file are the end of the segment, not a problem: the log writes them
 * ahead of itself ({@link Preallocator}), so they are what a crash leaves after the last record.
 * Not thread-safe.
 */
final class SegmentReader implements Closeable {
  private final Path file;
  private final long segment;
  private final InputStream in;
  private final long size;
  private long offset;
  private byte[] body = new byte[1 << 12];
  private int length;
  private @Nullable String problem;
  private boolean zeroTail;
  private final byte[] frame = new byte[LogFormat.FRAME_SIZE];

  private SegmentReader(Path file, long segment) throws IOException {
    this.file = file;
    this.segment = segment;
    this.size = Files.size(file);
    this.in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
  }

  /**
   * Opens a segment and checks its header. A file too short to hold a header reads as empty with
   * {@link #problem()} set (a segment torn right after it was created).
   *
   * @throws org.neardup.store.CorruptStoreException if the header is complete but wrong
   */
  static SegmentReader open(Path file, long segment) throws IOException {
    SegmentReader r = new SegmentReader(file, segment);
    try {
      byte[] h = r.in.readNBytes(LogFormat.HEADER_SIZE);
      if (h.length < LogFormat.HEADER_SIZE) {
        r.problem =
            "the header is incomplete (" + h.length + " of " + LogFormat.HEADER_SIZE + " bytes)";
        r.offset = 0;
        return r;
      }
      LogFormat.checkHeader(file, h, segment);
      r.offset = LogFormat.HEADER_SIZE;
      return r;
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
  }

  Path file() {
    return file;
  }

  long segment() {
    return segment;
  }

  /**
   * Reads the next record. Returns false at the end of the valid records: the end of the file when
   * {@link #problem()} is null, else an invalid record at {@link #offset()}.
   */
  boolean next() throws IOException {
    if (problem != null) {
      return false;
    }
    long remaining = size - offset;
    if (remaining == 0) {
      return false;
    }
    if (remaining < LogFormat.FRAME_SIZE) {
      problem = "a record header is cut short (" + remaining + " bytes left)";
      return false;
    }
    if (in.readNBytes(frame, 0, LogFormat.FRAME_SIZE) != LogFormat.FRAME_SIZE) {
      problem = "the file ended while reading a record header";
      return false;
    }
    int len = Bytes.getInt(frame, 0);
    int crc = Bytes.getInt(frame, 4);
    if (len == 0 && crc == 0) {
      long nonZero = firstNonZero(remaining - LogFormat.FRAME_SIZE);
      if (nonZero < 0) {
        zeroTail = true;
        return false;
      }
      problem =
          "zeros where a record should start, then a non-zero byte "
              + (LogFormat.FRAME_SIZE + nonZero)
              + " bytes further on";
      return false;
    }
    if (len < 1 || len > LogFormat.MAX_BODY) {
      problem = "record length " + len + " is outside [1, " + LogFormat.MAX_BODY + "]";
      return false;
    }
    if (remaining - LogFormat.FRAME_SIZE < len) {
      problem =
          "a record of "
              + len
              + " bytes is cut short ("
              + (remaining - LogFormat.FRAME_SIZE)
              + " bytes left)";
      return false;
    }
    if (body.length < len) {
      body = new byte[Math.max(len, body.length * 2)];
    }
    if (in.readNBytes(body, 0, len) != len) {
      problem = "the file ended while reading a record";
      return false;
    }
    if (LogFormat.frameCrc(frame, 0, body, 0, len) != crc) {
      problem = "record checksum mismatch";
      return false;
    }
    length = len;
    offset += LogFormat.FRAME_SIZE + len;
    return true;
  }

  /** Reads the next n bytes; returns the position of the first non-zero one among them, or -1. */
  private long firstNonZero(long n) throws IOException {
    byte[] buf = new byte[1 << 16];
    for (long read = 0; read < n; ) {
      int got = in.read(buf, 0, (int) Math.min(buf.length, n - read));
      if (got < 0) {
        return -1; // the file shrank while read: nothing after the zeros
      }
      for (int i = 0; i < got; i++) {
        if (buf[i] != 0) {
          return read + i;
        }
      }
      read += got;
    }
    return -1;
  }

  /** The current record's body is {@code body()[0, length())}; valid until the next call. */
  byte[] body() {
    return body;
  }

  int length() {
    return length;
  }

  /** The offset after the last valid record (where an invalid one starts). */
  long offset() {
    return offset;
  }

  /**
   * Whether the records end before the end of the file, followed only by zeros (written ahead by
   * the log, or left by a crash): {@link #offset()} is then the segment's end.
   */
  boolean zeroTail() {
    return zeroTail;
  }

  /** Why reading stopped before the end of the file, or null. */
  @Nullable String problem() {
    return problem;
  }

  long size() {
    return size;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
