// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the answers of a batch (NDJSON, or a JSON array) from their bytes into {@link Result}s, in
 * one walk over them: the fields a result has are read where they stand, any other field's value is
 * skipped whole (objects and arrays included), as the tree path ignored them. Malformed JSON, or a
 * result without {@code status} or {@code fingerprint}, fails naming what and the byte where.
 * Thread-safe: each call reads with its own instance.
 *
 * <p>Why not Jackson's streaming parser: {@code neardup send} runs C1 only and starts a JVM per
 * run, and of the code its per-document path compiles after its first request, Jackson's parser was
 * the largest part (4.3 KB of 16 KB of bytecode compiled by C1 between a one-document send and one
 * of 5,000 news texts); its parse of a batch of 100 plain answers took ~130 us of CPU once compiled
 * (docs/BENCHMARKS.md, the twenty-first session). Answers are ASCII but for ids, so a string
 * without escapes is made from its bytes directly.
 */
final class ResultReader {
  private static final int MAX_DEPTH = 64;
  private static final String[] LITERALS = {"true", "false", "null"};

  /** A byte's value as a hex digit, or -1. */
  private static final byte[] HEX_DIGITS = new byte[256];

  static {
    java.util.Arrays.fill(HEX_DIGITS, (byte) -1);
    for (int c = 0; c < 256; c++) {
      int d = Character.digit(c, 16);
      if (d >= 0 && c < 0x80) {
        HEX_DIGITS[c] = (byte) d;
      }
    }
  }

  // The fields read, by their index in these lists; any other field is skipped.
  private static final byte[][] RESULT_FIELDS =
      names("status", "id", "new", "fingerprint", "cluster", "error", "matches");
  private static final int STATUS = 0;
  private static final int ID = 1;
  private static final int NEW = 2;
  private static final int FINGERPRINT = 3;
  private static final int CLUSTER = 4;
  private static final int ERROR = 5;
  private static final int MATCHES = 6;
  private static final byte[][] MATCH_FIELDS = names("id", "distance", "similarity");
  private static final int MATCH_ID = 0;
  private static final int DISTANCE = 1;
  private static final int SIMILARITY = 2;

  private final byte[] b;
  private int pos;
  private @Nullable CharsetDecoder decoder;

  private ResultReader(byte[] body) {
    this.b = body;
  }

  /** The results in {@code body}, in order; malformed JSON is an {@link UncheckedIOException}. */
  static List<Result> readAll(byte[] body, int expected) {
    List<Result> out = new ArrayList<>(expected);
    ResultReader r = new ResultReader(body);
    try {
      r.space();
      if (r.take('[')) { // a JSON array of results
        r.space();
        if (!r.take(']')) {
          do {
            r.space();
            out.add(r.result());
            r.space();
          } while (r.take(','));
          r.want(']', "',' or ']' after a result");
        }
      } else { // NDJSON: results one after another
        while (r.pos < body.length) {
          out.add(r.result());
          r.space();
        }
      }
      r.end();
    } catch (IOException e) {
      throw new UncheckedIOException("the service answered with malformed JSON", e);
    }
    return out;
  }

  /** One result object, from its '{' to past its '}'. */
  private Result result() throws IOException {
    want('{', "a result (an object)");
    String status = null;
    String id = null;
    boolean isNew = false;
    long fingerprint = 0;
    boolean hasFingerprint = false;
    String cluster = null;
    String error = null;
    List<Result.Match> matches = new ArrayList<>(0);
    space();
    if (!take('}')) {
      do {
        int field = field(RESULT_FIELDS);
        switch (field) {
          case STATUS -> status = scalar();
          case ID -> id = scalar();
          case NEW -> isNew = "true".equals(scalar());
          case FINGERPRINT -> {
            fingerprint = fingerprint();
            hasFingerprint = true;
          }
          case CLUSTER -> cluster = scalar();
          case ERROR -> error = scalar();
          case MATCHES -> {
            want('[', "'matches' (an array)");
            space();
            if (!take(']')) {
              do {
                space();
                matches.add(match());
                space();
              } while (take(','));
              want(']', "',' or ']' in 'matches'");
            }
          }
          default -> skipValue(0);
        }
        space();
      } while (take(','));
      want('}', "',' or '}' in a result");
    }
    if (status == null || !hasFingerprint) {
      throw new IOException(
          "a result without "
              + (status == null ? "'status'" : "'fingerprint'")
              + " before byte "
              + pos);
    }
    return new Result(status, id, isNew, fingerprint, cluster, matches, error);
  }

  private Result.Match match() throws IOException {
    want('{', "a match (an object)");
    String id = null;
    int distance = 0;
    double similarity = Double.NaN;
    space();
    if (!take('}')) {
      do {
        int field = field(MATCH_FIELDS);
        switch (field) {
          case MATCH_ID -> id = scalar();
          case DISTANCE -> distance = integer();
          case SIMILARITY -> similarity = Double.parseDouble(numberText());
          default -> skipValue(0);
        }
        space();
      } while (take(','));
      want('}', "',' or '}' in a match");
    }
    if (id == null) {
      throw new IOException("a match without 'id' before byte " + pos);
    }
    return new Result.Match(id, distance, similarity);
  }

  /** A string, or null for {@code null}; a number or boolean as its text, as the tree path did. */
  private @Nullable String scalar() throws IOException {
    if (pos < b.length && b[pos] == '"') {
      return string();
    }
    if (pos < b.length && (b[pos] == 't' || b[pos] == 'f' || b[pos] == 'n')) {
      String w = literal();
      return w.equals("null") ? null : w;
    }
    return numberText();
  }

  private static byte[][] names(String... names) {
    byte[][] out = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      out[i] = names[i].getBytes(StandardCharsets.US_ASCII);
    }
    return out;
  }

  /**
   * A field name's index in {@code known}, or -1; compared as bytes where it stands (no string is
   * made for it), unless it holds an escape.
   */
  /**
   * Reads a member's name and the ':' after it, with the spaces around them; returns the name's
   * index in {@code known}, as {@link #name} does.
   */
  private int field(byte[][] known) throws IOException {
    space();
    int field = name(known);
    space();
    want(':', "':' after a field name");
    space();
    return field;
  }

  private int name(byte[][] known) throws IOException {
    if (pos >= b.length || b[pos] != '"') {
      throw malformed("a field name (a string)");
    }
    int from = pos + 1;
    int p = from;
    while (p < b.length && b[p] != '"' && b[p] != '\\' && (b[p] < 0 || b[p] >= 0x20)) {
      p++;
    }
    if (p < b.length && b[p] == '"') {
      pos = p + 1;
      for (int i = 0; i < known.length; i++) {
        if (java.util.Arrays.equals(b, from, p, known[i], 0, known[i].length)) {
          return i;
        }
      }
      return -1;
    }
    String name = string(); // an escape, or malformed: the slow way
    for (int i = 0; i < known.length; i++) {
      if (name.equals(new String(known[i], StandardCharsets.US_ASCII))) {
        return i;
      }
    }
    return -1;
  }

  /** A string's value; the reader is at its opening quote and is left past its closing one. */
  private String string() throws IOException {
    want('"', "a string");
    int from = pos;
    byte[] a = b;
    int p = pos;
    boolean ascii = true;
    while (p < a.length) {
      int c = a[p];
      if (c == '"') {
        pos = p + 1;
        return ascii ? new String(a, from, p - from, StandardCharsets.ISO_8859_1) : utf8(from, p);
      }
      if (c < 0) {
        ascii = false;
        p++;
        continue;
      }
      if (c == '\\') {
        pos = p;
        return escapedString(from);
      }
      if (c >= 0 && c < 0x20) {
        pos = p;
        throw malformed("no control character in a string");
      }
      p++;
    }
    pos = p;
    throw malformed("the end of a string");
  }

  /** The rest of a string that holds an escape: its bytes up to {@code pos} are plain. */
  private String escapedString(int from) throws IOException {
    StringBuilder s = new StringBuilder(pos - from + 16);
    int run = from;
    while (pos < b.length) {
      int c = b[pos];
      if (c == '"') {
        s.append(utf8(run, pos));
        pos++;
        return s.toString();
      }
      if (c >= 0 && c < 0x20) {
        throw malformed("no control character in a string");
      }
      if (c != '\\') {
        pos++;
        continue;
      }
      s.append(utf8(run, pos));
      if (pos + 1 >= b.length) {
        break;
      }
      int e = b[pos + 1];
      pos += 2;
      switch (e) {
        case '"', '\\', '/' -> s.append((char) e);
        case 'b' -> s.append('\b');
        case 'f' -> s.append('\f');
        case 'n' -> s.append('\n');
        case 'r' -> s.append('\r');
        case 't' -> s.append('\t');
        case 'u' -> s.append(unicode());
        default -> {
          pos -= 2;
          throw malformed("an escape");
        }
      }
      run = pos;
    }
    throw malformed("the end of a string");
  }

  /**
   * Bytes of a string as strict UTF-8: an answer that is not UTF-8 is malformed, as for Jackson.
   */
  private String utf8(int from, int to) throws IOException {
    if (decoder == null) {
      decoder =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
    try {
      return decoder.decode(ByteBuffer.wrap(b, from, to - from)).toString();
    } catch (CharacterCodingException e) {
      throw new IOException("a string that is not UTF-8 before byte " + to, e);
    }
  }

  /** The four hex digits of a backslash-u escape (one UTF-16 unit, as JSON spells it). */
  private char unicode() throws IOException {
    if (pos + 4 > b.length) {
      throw malformed("four hex digits");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = HEX_DIGITS[b[pos + i] & 0xFF];
      if (d < 0) {
        throw malformed("four hex digits");
      }
      v = v << 4 | d;
    }
    pos += 4;
    return (char) v;
  }

  /** {@code true}, {@code false} or {@code null}: its text. */
  private String literal() throws IOException {
    for (String w : LITERALS) {
      if (pos + w.length() <= b.length && ascii(w)) {
        pos += w.length();
        return w;
      }
    }
    throw malformed("a value");
  }

  private boolean ascii(String w) {
    for (int i = 0; i < w.length(); i++) {
      if (b[pos + i] != w.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** A JSON number's text, checked against JSON's grammar. */
  private String numberText() throws IOException {
    int from = pos;
    take('-');
    if (!take('0') && digits() == 0) {
      throw malformed("a value");
    }
    if (take('.') && digits() == 0) {
      throw malformed("a digit after '.'");
    }
    if (take('e') || take('E')) {
      if (!take('+')) {
        take('-');
      }
      if (digits() == 0) {
        throw malformed("a digit in an exponent");
      }
    }
    return new String(b, from, pos - from, StandardCharsets.US_ASCII);
  }

  /** An integer that fits an int. */
  private int integer() throws IOException {
    int from = pos;
    String text = numberText();
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      pos = from;
      throw malformed("an integer");
    }
  }

  private int digits() {
    int from = pos;
    while (pos < b.length && b[pos] >= '0' && b[pos] <= '9') {
      pos++;
    }
    return pos - from;
  }

  /** Skips one value of any kind, nested ones included. */
  private void skipValue(int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw malformed("nesting of at most " + MAX_DEPTH);
    }
    if (pos >= b.length) {
      throw malformed("a value");
    }
    switch (b[pos]) {
      case '"' -> string();
      case '{' -> {
        pos++;
        space();
        if (take('}')) {
          return;
        }
        do {
          space();
          string();
          space();
          want(':', "':' after a field name");
          space();
          skipValue(depth + 1);
          space();
        } while (take(','));
        want('}', "',' or '}' in an object");
      }
      case '[' -> {
        pos++;
        space();
        if (take(']')) {
          return;
        }
        do {
          space();
          skipValue(depth + 1);
          space();
        } while (take(','));
        want(']', "',' or ']' in an array");
      }
      case 't', 'f', 'n' -> literal();
      default -> numberText();
    }
  }

  /**
   * A fingerprint: its 16 hex digits as the service writes them are read where they stand, without
   * a string (Long.parseUnsignedLong was the largest JDK method C1 compiled for send's answers);
   * any other spelling through the string.
   */
  private long fingerprint() throws IOException {
    int from = pos + 1;
    if (pos < b.length && b[pos] == '"' && from + 17 <= b.length && b[from + 16] == '"') {
      long v = 0;
      int i = from;
      for (; i < from + 16; i++) {
        int d = HEX_DIGITS[b[i] & 0xFF];
        if (d < 0) {
          break;
        }
        v = v << 4 | d;
      }
      if (i == from + 16) {
        pos = from + 17;
        return v;
      }
    }
    return hex(string());
  }

  private static long hex(String s) throws IOException {
    try {
      return Long.parseUnsignedLong(s, 16);
    } catch (NumberFormatException e) {
      throw new IOException("a fingerprint that is not 16 hex digits: " + s, e);
    }
  }

  private void space() {
    while (pos < b.length) {
      int c = b[pos];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      pos++;
    }
  }

  private boolean take(char c) {
    if (pos < b.length && b[pos] == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void want(char c, String what) throws IOException {
    if (!take(c)) {
      throw malformed(what);
    }
  }

  /** Fails unless only white space is left. */
  private void end() throws IOException {
    space();
    if (pos < b.length) {
      throw malformed("the end of the answer");
    }
  }

  private IOException malformed(String wanted) {
    String found =
        pos >= b.length
            ? "the end"
            : "'" + new String(b, pos, Math.min(b.length - pos, 20), StandardCharsets.UTF_8) + "'";
    return new IOException("expected " + wanted + " at byte " + pos + ", found " + found);
  }
}
