// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads byte ranges of a file at positions that mostly move forward, through one heap buffer of
 * positional reads: ranges that follow each other cost one system call per buffer, not one each,
 * and the file's pages stay the kernel's page cache, never the process's resident set (nothing is
 * mapped). A range outside the buffer refills it from the range's start, so ranges skipped over are
 * never read. One thread per window.
 */
final class ChannelWindow {
  private final FileChannel channel;
  private final ByteBuffer buffer;

  /** File position of buffer position 0. */
  private long bufferStart;

  /** A window of {@code size} bytes on {@code channel}, which the caller closes. */
  ChannelWindow(FileChannel channel, int size) {
    this.channel = channel;
    this.buffer = ByteBuffer.allocate(size);
    buffer.limit(0);
  }

  /**
   * Makes the buffer ({@link #array()}) hold the file's bytes {@code [start, start + len)} and
   * returns where they start in it; -1 when they do not fit in the buffer or the file ends before
   * {@code start + len}. Valid until the next call.
   */
  int hold(long start, int len) throws IOException {
    if (len > buffer.capacity()) {
      return -1;
    }
    if (start < bufferStart || start + len > bufferStart + buffer.limit()) {
      fill(start);
      if (len > buffer.limit()) {
        return -1;
      }
    }
    return (int) (start - bufferStart);
  }

  /** The buffer {@link #hold} fills. */
  byte[] array() {
    return buffer.array();
  }

  /** Refills the buffer with the file's bytes from {@code at} (fewer where the file ends). */
  private void fill(long at) throws IOException {
    buffer.clear();
    bufferStart = at;
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, bufferStart + buffer.position()) < 0) {
        break;
      }
    }
    buffer.flip();
  }

  /**
   * Copies the file's bytes {@code [start, start + len)} into {@code dst[0, len)}; returns how many
   * it copied, fewer than {@code len} only where the file ends before {@code start + len}.
   */
  int read(long start, byte[] dst, int len) throws IOException {
    int done = 0;
    while (done < len) {
      long at = start + done;
      if (at < bufferStart || at >= bufferStart + buffer.limit()) {
        fill(at);
        if (buffer.limit() == 0) {
          return done;
        }
      }
      int from = (int) (at - bufferStart);
      int n = Math.min(len - done, buffer.limit() - from);
      System.arraycopy(buffer.array(), from, dst, done, n);
      done += n;
    }
    return done;
  }
}
