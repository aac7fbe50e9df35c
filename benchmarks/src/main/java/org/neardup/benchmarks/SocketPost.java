// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 POSTs over one kept-alive plain socket, each request (head and body) handed to the
 * kernel in one write, its answer read by its Content-Length: a client that adds as little as a
 * client can to a request's time, for {@link ServiceProbe}.
 *
 * <p>Why: the JDK's {@code HttpClient} writes a request's head and its body separately, from its
 * own threads (against a server that only timed them: a quarter of 3,000 news-length singles'
 * bodies came in a read of their own, up to 2-3.5 ms after the head at the 99th percentile under
 * load 15, docs/BENCHMARKS.md, the twentieth session); the server's {@code read} stage starts at
 * the head, so it counted the client's gap as its own.
 *
 * <p>Not thread-safe: one instance per client thread.
 */
final class SocketPost implements Closeable {
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final String host;

  SocketPost(URI base) throws IOException {
    int port = base.getPort() < 0 ? 80 : base.getPort();
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(base.getHost(), port), 10_000);
    socket.setSoTimeout(60_000);
    out = socket.getOutputStream();
    in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    host = base.getHost() + ":" + port;
  }

  /**
   * Posts {@code body} to {@code uri}'s path; returns the status and fills {@code answer} with the
   * answer's body.
   */
  int post(URI uri, String contentType, String body, ByteArrayOutputStream answer)
      throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    byte[] head =
        ("POST "
                + uri.getRawPath()
                + " HTTP/1.1\r\nHost: "
                + host
                + "\r\nContent-Type: "
                + contentType
                + "\r\nContent-Length: "
                + b.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[head.length + b.length];
    System.arraycopy(head, 0, request, 0, head.length);
    System.arraycopy(b, 0, request, head.length, b.length);
    out.write(request);
    out.flush();
    return readAnswer(answer);
  }

  private int readAnswer(ByteArrayOutputStream answer) throws IOException {
    String status = line();
    if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
      throw new IOException("not an HTTP/1.1 answer: " + status);
    }
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    for (String h = line(); !h.isEmpty(); h = line()) {
      String lower = h.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(h.substring(15).trim());
      } else if (lower.startsWith("transfer-encoding:") && !lower.contains("identity")) {
        throw new IOException("chunked answers are not read here: " + h);
      }
    }
    if (length < 0) {
      throw new IOException("an answer without Content-Length");
    }
    answer.reset();
    for (long i = 0; i < length; i++) {
      int c = in.read();
      if (c < 0) {
        throw new EOFException("the answer ended early");
      }
      answer.write(c);
    }
    return code;
  }

  private String line() throws IOException {
    StringBuilder s = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new EOFException("the connection closed mid-answer");
      }
      if (c != '\r') {
        s.append((char) c);
      }
    }
    return s.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
