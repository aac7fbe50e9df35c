// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP/1.1 exchange over a plain socket ({@code http://} only), the connections kept open
 * between exchanges in a small pool. Writes the request line, headers and body in one write (the
 * head put in room the caller left before the body, or a small body copied behind the head; a large
 * body without room goes in a second write): one copy, into the kernel; reads the status, the
 * headers it needs (Content-Length, Transfer-Encoding: chunked, Connection, Retry-After) and the
 * body. Thread-safe; each exchange holds its connection alone.
 *
 * <p>Why not {@code HttpURLConnection}: in {@code neardup send}, which runs C1 only, its code per
 * request cost more than the documents' own bytes: at news length the client's request threads took
 * ~58 µs of CPU per document of ~122 in all (batches of 100, steady, /proc per thread), and a
 * request of one document ~800 µs of the client's CPU (docs/BENCHMARKS.md, the nineteenth session).
 *
 * <p>As with {@code HttpURLConnection} in fixed-length mode, a request with a body is never sent
 * twice: an error after it was written is the caller's. A request without one is sent once more on
 * a fresh connection when a pooled connection turns out closed before any byte of the answer.
 * Connections idle longer than {@link #IDLE_NANOS} are not reused (the service closes idle ones
 * after its idle timeout; the JDK's keep-alive cache keeps them 5 s).
 */
final class PlainHttp {
  private static final long IDLE_NANOS = 4_000_000_000L;
  private static final int MAX_IDLE = 8;

  /** A body up to this size that has no room for the head before it is copied behind the head. */
  private static final int SMALL_BODY = 16 << 10;

  private final InetSocketAddress address;
  private final String hostHeader;
  private final String prefix;
  private final @Nullable String authorization;
  private final int connectMillis;
  private final int readMillis;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

  /**
   * An open connection and when it was last used. The answer is read through {@link #buf}, the
   * head's lines found in it by a scan, rather than a byte per call of a {@code
   * BufferedInputStream} (a synchronized call per byte, interpreted for a C1-only client's first
   * requests).
   */
  private static final class Connection {
    final Socket socket;
    final InputStream in;
    final OutputStream out;
    final byte[] buf = new byte[8192];
    int pos;
    int lim;
    long idleSince;

    Connection(Socket socket) throws IOException {
      this.socket = socket;
      this.in = socket.getInputStream();
      this.out = socket.getOutputStream();
    }

    /** Reads more into {@link #buf} (after what it holds); false at the end of the stream. */
    boolean fill() throws IOException {
      if (pos == lim) {
        pos = 0;
        lim = 0;
      } else if (lim == buf.length) {
        System.arraycopy(buf, pos, buf, 0, lim - pos);
        lim -= pos;
        pos = 0;
      }
      int n = in.read(buf, lim, buf.length - lim);
      if (n <= 0) {
        return false;
      }
      lim += n;
      return true;
    }

    /** Exactly {@code n} bytes of the answer. */
    byte[] read(int n) throws IOException {
      byte[] out = new byte[n];
      int have = Math.min(n, lim - pos);
      System.arraycopy(buf, pos, out, 0, have);
      pos += have;
      while (have < n) {
        int r = in.read(out, have, n - have);
        if (r <= 0) {
          throw new EOFException("the answer ended after " + have + " of " + n + " bytes");
        }
        have += r;
      }
      return out;
    }

    /** The rest of the stream (an answer delimited by the end of the connection). */
    byte[] readAll() throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(buf, pos, lim - pos);
      pos = lim;
      in.transferTo(out);
      return out.toByteArray();
    }

    void close() {
      try {
        socket.close();
      } catch (IOException e) {
        // closing: nothing to do
      }
    }
  }

  PlainHttp(URI base, @Nullable String authorization, int connectMillis, int readMillis) {
    String host = base.getHost();
    if (host == null) {
      throw new IllegalArgumentException("no host in " + base);
    }
    int port = base.getPort() < 0 ? 80 : base.getPort();
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    this.address = InetSocketAddress.createUnresolved(bare, port);
    this.hostHeader = base.getPort() < 0 ? host : host + ":" + port;
    this.prefix = base.getRawPath() == null ? "" : base.getRawPath();
    this.authorization = authorization;
    this.connectMillis = connectMillis;
    this.readMillis = readMillis;
  }

  /**
   * Sends a request and reads its answer. The body is {@code body[from, to)}; the bytes before
   * {@code from} are the caller's scratch, where the request's head is put when it fits, so that
   * head and body go out in one write (one segment for a small request: the service need not wait
   * for the rest of it) without copying the body.
   */
  Transport.Answer exchange(
      String method,
      String path,
      @Nullable String contentType,
      byte @Nullable [] body,
      int from,
      int to,
      @Nullable String header,
      @Nullable String value)
      throws IOException {
    byte[] head = head(method, path, contentType, body == null ? -1 : to - from, header, value);
    byte[] request;
    int start;
    int end;
    if (body == null) {
      request = head;
      start = 0;
      end = head.length;
    } else if (head.length <= from) {
      request = body;
      start = from - head.length;
      end = to;
      System.arraycopy(head, 0, body, start, head.length);
    } else if (to - from <= SMALL_BODY) {
      request = Arrays.copyOf(head, head.length + to - from);
      System.arraycopy(body, from, request, head.length, to - from);
      start = 0;
      end = request.length;
    } else {
      request = null; // head and body in two writes
      start = from;
      end = to;
    }
    Connection c = pooled();
    boolean reused = c != null;
    if (c == null) {
      c = open();
    }
    try {
      Transport.Answer a;
      try {
        a = send(c, head, request, body, start, end, method);
      } catch (Stale stale) {
        c.close();
        if (!reused || body != null) {
          throw stale.cause;
        }
        c = open(); // a request without a body, on a pooled connection the service had closed
        a = send(c, head, request, body, start, end, method);
      }
      return a;
    } catch (Stale stale) {
      c.close();
      throw stale.cause;
    } catch (SocketTimeoutException e) {
      c.close(); // a late answer must not be read as the next request's
      throw Transport.timeout(method, path, readMillis, e);
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** A connection closed by the service before any byte of the answer. */
  private static final class Stale extends IOException {
    private static final long serialVersionUID = 1L;
    final IOException cause;

    Stale(IOException cause) {
      super(cause);
      this.cause = cause;
    }
  }

  /**
   * Writes the request ({@code request[start, end)}, or when null {@code head} and then {@code
   * body[start, end)}) and reads the answer.
   */
  private Transport.Answer send(
      Connection c,
      byte[] head,
      byte @Nullable [] request,
      byte @Nullable [] body,
      int start,
      int end,
      String method)
      throws IOException {
    c.pos = 0;
    c.lim = 0;
    try {
      if (request != null) {
        c.out.write(request, start, end - start);
      } else {
        c.out.write(head);
        c.out.write(java.util.Objects.requireNonNull(body), start, end - start);
      }
      c.out.flush();
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException e) {
      throw new Stale(e);
    }
    String status = line(c, true);
    if (!status.startsWith("HTTP/1.") || status.length() < 12 || status.charAt(8) != ' ') {
      throw new IOException("not an HTTP/1.x status line: " + status);
    }
    int code;
    try {
      code = Integer.parseInt(status.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP/1.x status line: " + status, e);
    }
    long length = -1;
    boolean chunked = false;
    boolean close = status.startsWith("HTTP/1.0");
    long retry = -1;
    for (String h = line(c, false); !h.isEmpty(); h = line(c, false)) {
      int colon = h.indexOf(':');
      if (colon <= 0) {
        throw new IOException("a malformed header in the answer: " + h);
      }
      String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String v = h.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> {
          try {
            length = Long.parseLong(v);
          } catch (NumberFormatException e) {
            throw new IOException("a malformed Content-Length in the answer: " + v, e);
          }
        }
        case "transfer-encoding" -> chunked = v.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> close = close || v.equalsIgnoreCase("close");
        case "retry-after" -> retry = Transport.retryAfter(v);
        default -> {}
      }
    }
    byte[] answer;
    if (method.equals("HEAD") || code == 204 || code == 304 || (code >= 100 && code < 200)) {
      answer = new byte[0];
    } else if (chunked) {
      answer = chunks(c);
    } else if (length >= 0) {
      if (length > Integer.MAX_VALUE - 16) {
        throw new IOException("an answer of " + length + " bytes");
      }
      answer = c.read((int) length);
    } else {
      answer = c.readAll(); // delimited by the end of the connection
      close = true;
    }
    if (c.pos != c.lim) {
      close = true; // bytes after the answer: not an answer to anything this client sent
    }
    if (close) {
      c.close();
    } else {
      release(c);
    }
    return new Transport.Answer(code, answer, retry);
  }

  private static byte[] chunks(Connection c) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      String size = line(c, false);
      int semi = size.indexOf(';');
      long n;
      try {
        n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("a malformed chunk size in the answer: " + size, e);
      }
      if (n == 0) {
        while (!line(c, false).isEmpty()) {
          // trailers: not used
        }
        return out.toByteArray();
      }
      if (n > Integer.MAX_VALUE - 16 - out.size()) {
        throw new IOException("an answer too large to hold");
      }
      byte[] chunk = c.read((int) n);
      out.write(chunk);
      if (!line(c, false).isEmpty()) {
        throw new IOException("a chunk not followed by CRLF in the answer");
      }
    }
  }

  /** A line of the answer's head without its CRLF (or LF); at most 64 KB. */
  private static String line(Connection c, boolean first) throws IOException {
    StringBuilder s = null; // the line's start, when it spans more than one read
    while (true) {
      byte[] b = c.buf;
      int from = c.pos;
      for (int i = from; i < c.lim; i++) {
        if (b[i] == '\n') {
          c.pos = i + 1;
          int to = i > from && b[i - 1] == '\r' ? i - 1 : i;
          String tail = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
          if (s == null) {
            return tail;
          }
          s.append(tail);
          int n = s.length();
          return to == i && n > 0 && s.charAt(n - 1) == '\r' ? s.substring(0, n - 1) : s.toString();
        }
      }
      if (c.lim - from > 0 && c.lim == b.length) {
        // the buffer is full without a line end: keep what it holds and read on
        if (s == null) {
          s = new StringBuilder(c.lim - from + 64);
        }
        s.append(new String(b, from, c.lim - from, StandardCharsets.ISO_8859_1));
        c.pos = c.lim;
        if (s.length() >= 65_536) {
          throw new IOException("a line of more than 64 KB in the answer's head");
        }
      }
      if (!c.fill()) {
        EOFException eof = new EOFException("the service closed the connection");
        if (first && s == null && c.pos == c.lim) {
          throw new Stale(eof);
        }
        throw eof;
      }
    }
  }

  private byte[] head(
      String method,
      String path,
      @Nullable String contentType,
      int bodyLength,
      @Nullable String header,
      @Nullable String value) {
    StringBuilder h = new StringBuilder(256);
    h.append(method).append(' ').append(prefix).append(path).append(" HTTP/1.1\r\n");
    field(h, "Host", hostHeader);
    field(h, "Accept", "application/json");
    if (authorization != null) {
      field(h, "Authorization", authorization);
    }
    if (header != null && value != null) {
      field(h, header, value);
    }
    if (bodyLength >= 0) {
      if (contentType != null) {
        field(h, "Content-Type", contentType);
      }
      field(h, "Content-Length", Integer.toString(bodyLength));
    }
    h.append("\r\n");
    for (int i = 0; i < h.length(); i++) {
      if (h.charAt(i) > 0x7E) {
        throw new IllegalArgumentException("a request head must be ASCII: " + h);
      }
    }
    return h.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static void field(StringBuilder h, String name, String value) {
    if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a header value with a line break: " + name);
    }
    h.append(name).append(": ").append(value).append("\r\n");
  }

  private @Nullable Connection pooled() {
    long now = System.nanoTime();
    for (Connection c; (c = idle.pollLast()) != null; ) {
      if (now - c.idleSince < IDLE_NANOS && !c.socket.isClosed()) {
        return c;
      }
      c.close();
    }
    return null;
  }

  private void release(Connection c) {
    c.idleSince = System.nanoTime();
    idle.addLast(c);
    while (idle.size() > MAX_IDLE) {
      Connection old = idle.pollFirst();
      if (old != null) {
        old.close();
      }
    }
  }

  private Connection open() throws IOException {
    Socket s = new Socket();
    try {
      InetSocketAddress resolved =
          new InetSocketAddress(address.getHostString(), address.getPort());
      s.connect(resolved, connectMillis);
      s.setTcpNoDelay(true);
      s.setSoTimeout(readMillis);
      return new Connection(s);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** Closes the idle connections. */
  void close() {
    for (Connection c; (c = idle.pollFirst()) != null; ) {
      c.close();
    }
  }
}
