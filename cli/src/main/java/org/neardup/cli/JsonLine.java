// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * One JSON object per line, written field by field into a reused buffer: for the output files of
 * {@code neardup dedup}, which hold hundreds of millions of lines on crowded corpora, where a
 * Jackson generator per line cost more than everything else in the write phase. Field names are
 * plain ASCII keys given by the caller; values are raw JSON (ids as the input spelled them),
 * booleans, ints, or doubles written as {@link Double#toString} writes them, as Jackson does.
 *
 * <p>Not thread-safe; one instance per output stream.
 */
final class JsonLine {
  private final OutputStream out;
  private byte[] buf = new byte[256];
  private int n;
  private boolean first = true;

  JsonLine(OutputStream out) {
    this.out = out;
  }

  /** Starts a field: {@code {"name":} or {@code ,"name":}. */
  private void name(String name) {
    ensure(name.length() + 4);
    buf[n++] = (byte) (first ? '{' : ',');
    first = false;
    buf[n++] = '"';
    for (int i = 0; i < name.length(); i++) {
      buf[n++] = (byte) name.charAt(i);
    }
    buf[n++] = '"';
    buf[n++] = ':';
  }

  /**
   * A field whose value is JSON already ({@code value[0, len)}, e.g. an id as the input had it).
   */
  JsonLine raw(String name, byte[] value, int len) {
    name(name);
    ensure(len);
    System.arraycopy(value, 0, buf, n, len);
    n += len;
    return this;
  }

  JsonLine bool(String name, boolean value) {
    return ascii(name, value ? "true" : "false");
  }

  JsonLine number(String name, long value) {
    return ascii(name, Long.toString(value));
  }

  /** A finite double as Double.toString spells it (what Jackson writes for a double). */
  JsonLine number(String name, double value) {
    return ascii(name, Double.toString(value));
  }

  private JsonLine ascii(String name, String value) {
    name(name);
    ensure(value.length());
    for (int i = 0; i < value.length(); i++) {
      buf[n++] = (byte) value.charAt(i);
    }
    return this;
  }

  /** Closes the object, writes it and a newline, and starts the next line. */
  void end() throws IOException {
    ensure(3);
    if (first) {
      buf[n++] = '{';
    }
    buf[n++] = '}';
    buf[n++] = '\n';
    out.write(buf, 0, n);
    n = 0;
    first = true;
  }

  private void ensure(int more) {
    if (n + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + more));
    }
  }
}
