// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The '\n'-terminated lines of one split of a file, read as {@code neardup dedup} reads lines: a
 * trailing '\r' is dropped, a last line without '\n' counts, and a line longer than the limit is
 * skipped to its end without being held (only its length is kept).
 *
 * <p>A split {@code [start, end)} owns the lines that start inside it: unless it starts the file,
 * it first skips through the first '\n' at or after {@code start - 1}, and it reads on past {@code
 * end} to finish its last line. Every line of a file thus belongs to exactly one split. A gzipped
 * file is one split. Not thread-safe.
 */
final class SplitLines implements Closeable {
  private final InputStream in;
  private final int maxBytes;
  private final long end;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int lim;
  private long offset; // file offset of buf[pos] (for uncompressed input)
  private boolean eof;
  private byte[] line = new byte[1024];
  private int lineLength;
  private long lineTotal;
  private boolean tooLong;

  SplitLines(Configuration conf, String path, long start, long end, boolean gzip, int maxBytes)
      throws IOException {
    Path p = new Path(path);
    FileSystem fs = p.getFileSystem(conf);
    FSDataInputStream raw = fs.open(p);
    this.maxBytes = maxBytes;
    if (gzip) {
      this.in = new BufferedInputStream(new GZIPInputStream(raw, 1 << 16), 1 << 16);
      this.end = Long.MAX_VALUE;
      this.offset = 0;
      return;
    }
    this.in = raw;
    this.end = end;
    if (start > 0) {
      raw.seek(start - 1);
      this.offset = start - 1;
      // Skip the rest of the line that started in the previous split (or just its '\n').
      while (true) {
        if (pos == lim && !fill()) {
          return;
        }
        byte b = buf[pos++];
        offset++;
        if (b == '\n') {
          break;
        }
      }
    } else {
      this.offset = 0;
    }
  }

  private boolean fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    if (n <= 0) {
      eof = true;
      lim = pos = 0;
      return false;
    }
    lim = n;
    pos = 0;
    return true;
  }

  /** Advances to the next line of this split; false when there is none. */
  boolean next() throws IOException {
    if (offset >= end || (eof && pos == lim)) {
      return false;
    }
    lineLength = 0;
    lineTotal = 0;
    tooLong = false;
    boolean any = false;
    while (true) {
      if (pos == lim && !fill()) {
        return any;
      }
      any = true;
      int s = pos;
      while (pos < lim && buf[pos] != '\n') {
        pos++;
      }
      append(s, pos);
      offset += pos - s;
      if (pos < lim) {
        pos++;
        offset++;
        if (lineLength > 0 && line[lineLength - 1] == '\r' && !tooLong) {
          lineLength--;
        }
        return true;
      }
    }
  }

  private void append(int s, int e) {
    int n = e - s;
    lineTotal += n;
    if (tooLong || lineTotal > maxBytes) {
      tooLong = true;
      return;
    }
    if (lineLength + n > line.length) {
      line = Arrays.copyOf(line, Math.max(lineLength + n, line.length * 2));
    }
    System.arraycopy(buf, s, line, lineLength, n);
    lineLength += n;
  }

  boolean tooLong() {
    return tooLong;
  }

  long byteLength() {
    return lineTotal;
  }

  /** Whether the line holds only spaces, tabs and '\r' (never when too long). */
  boolean blank() {
    for (int i = 0; i < lineLength; i++) {
      if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
        return false;
      }
    }
    return !tooLong;
  }

  byte[] copy() {
    return Arrays.copyOf(line, lineLength);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
