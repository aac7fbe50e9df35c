// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.io.BufferedInputStream;
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
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP/1.1 exchange over a plain socket ({@code http://} only), the connections kept open
 * between exchanges in a small pool. Writes the request line and headers, then the body as it is
 * (one copy, into the kernel); reads the status, the headers it needs (Content-Length,
 * Transfer-Encoding: chunked, Connection, Retry-After) and the body. Thread-safe; each exchange
 * holds its connection alone.
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
  private static final byte[] CRLF = {'\r', '\n'};

  private final InetSocketAddress address;
  private final String hostHeader;
  private final String prefix;
  private final @Nullable String authorization;
  private final int connectMillis;
  private final int readMillis;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

  /** An open connection and when it was last used. */
  private static final class Connection {
    final Socket socket;
    final InputStream in;
    final OutputStream out;
    long idleSince;

    Connection(Socket socket) throws IOException {
      this.socket = socket;
      this.in = new BufferedInputStream(socket.getInputStream(), 8192);
      this.out = socket.getOutputStream();
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

  Transport.Answer exchange(
      String method,
      String path,
      @Nullable String contentType,
      byte @Nullable [] body,
      @Nullable String header,
      @Nullable String value)
      throws IOException {
    byte[] head = head(method, path, contentType, body, header, value);
    Connection c = pooled();
    boolean reused = c != null;
    if (c == null) {
      c = open();
    }
    try {
      Transport.Answer a;
      try {
        a = send(c, head, body, method);
      } catch (Stale stale) {
        c.close();
        if (!reused || body != null) {
          throw stale.cause;
        }
        c = open(); // a request without a body, on a pooled connection the service had closed
        a = send(c, head, null, method);
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

  private Transport.Answer send(Connection c, byte[] head, byte @Nullable [] body, String method)
      throws IOException {
    try {
      c.out.write(head);
      if (body != null) {
        c.out.write(body);
      }
      c.out.flush();
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException e) {
      throw new Stale(e);
    }
    String status = line(c.in, true);
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
    for (String h = line(c.in, false); !h.isEmpty(); h = line(c.in, false)) {
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
      answer = chunks(c.in);
    } else if (length >= 0) {
      if (length > Integer.MAX_VALUE - 16) {
        throw new IOException("an answer of " + length + " bytes");
      }
      answer = c.in.readNBytes((int) length);
      if (answer.length < length) {
        throw new EOFException("the answer ended after " + answer.length + " of " + length);
      }
    } else {
      answer = c.in.readAllBytes(); // delimited by the end of the connection
      close = true;
    }
    if (close) {
      c.close();
    } else {
      release(c);
    }
    return new Transport.Answer(code, answer, retry);
  }

  private static byte[] chunks(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      String size = line(in, false);
      int semi = size.indexOf(';');
      long n;
      try {
        n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("a malformed chunk size in the answer: " + size, e);
      }
      if (n == 0) {
        while (!line(in, false).isEmpty()) {
          // trailers: not used
        }
        return out.toByteArray();
      }
      if (n > Integer.MAX_VALUE - 16 - out.size()) {
        throw new IOException("an answer too large to hold");
      }
      byte[] chunk = in.readNBytes((int) n);
      if (chunk.length < n) {
        throw new EOFException("the answer ended inside a chunk");
      }
      out.write(chunk);
      if (!line(in, false).isEmpty()) {
        throw new IOException("a chunk not followed by CRLF in the answer");
      }
    }
  }

  /** A line of the answer's head without its CRLF (or LF); at most 64 KB. */
  private static String line(InputStream in, boolean first) throws IOException {
    StringBuilder s = new StringBuilder(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        EOFException eof = new EOFException("the service closed the connection");
        if (first && s.length() == 0) {
          throw new Stale(eof);
        }
        throw eof;
      }
      if (b == '\n') {
        int n = s.length();
        return n > 0 && s.charAt(n - 1) == '\r' ? s.substring(0, n - 1) : s.toString();
      }
      if (s.length() >= 65_536) {
        throw new IOException("a line of more than 64 KB in the answer's head");
      }
      s.append((char) b);
    }
  }

  private byte[] head(
      String method,
      String path,
      @Nullable String contentType,
      byte @Nullable [] body,
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
    if (body != null) {
      if (contentType != null) {
        field(h, "Content-Type", contentType);
      }
      field(h, "Content-Length", Integer.toString(body.length));
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
