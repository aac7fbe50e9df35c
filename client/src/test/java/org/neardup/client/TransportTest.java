// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The transport against raw sockets on the loopback, for what a running service does not do on
 * demand: answer with a given status and header, stay silent, or not listen.
 */
class TransportTest {
  /** A request as the fake server reads it: its head's lines ending in '\n', then its body. */
  private static String readRequest(BufferedReader in) throws IOException {
    StringBuilder head = new StringBuilder();
    int length = 0;
    for (String line; !(line = in.readLine()).isEmpty(); ) {
      head.append(line).append('\n');
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    char[] body = new char[length];
    for (int n = 0; n < length; ) {
      n += in.read(body, n, length - n);
    }
    return head + new String(body);
  }

  private static Transport transport(int port, Duration timeout) {
    return new Transport(
        URI.create("http://127.0.0.1:" + port), "Bearer t", Duration.ofSeconds(10), timeout);
  }

  /**
   * Two exchanges go over one connection (it is kept open), each answer read whole with its status,
   * body and Retry-After; the request carries its body, type, token and extra header.
   */
  @Test
  void exchange_twoRequests_oneConnectionAndTheAnswers() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      AtomicInteger accepted = new AtomicInteger();
      List<String> requests = new ArrayList<>();
      Thread t =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  accepted.incrementAndGet();
                  BufferedReader in =
                      new BufferedReader(
                          new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                  OutputStream out = s.getOutputStream();
                  String[] answers = {
                    "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 16\r\n"
                        + "\r\n{\"error\":\"busy\"}",
                    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
                  };
                  for (String answer : answers) {
                    String request = readRequest(in);
                    synchronized (requests) {
                      requests.add(request);
                    }
                    out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                  }
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      t.start();
      Transport transport = transport(server.getLocalPort(), Duration.ofSeconds(30));
      byte[] body = "{\"id\":\"a\"}\n".getBytes(StandardCharsets.UTF_8);
      Transport.Answer busy =
          transport.exchange("POST", "/v1/x/batch", "application/x-ndjson", body, "Seq", "s/0");
      assertThat(busy.status()).isEqualTo(503);
      assertThat(busy.retryAfterSeconds()).isEqualTo(7);
      assertThat(new String(busy.body(), StandardCharsets.UTF_8)).isEqualTo("{\"error\":\"busy\"}");
      Transport.Answer ok = transport.exchange("GET", "/ready", null, null, null, null);
      assertThat(ok.status()).isEqualTo(200);
      assertThat(ok.retryAfterSeconds()).isEqualTo(-1);
      t.join(30_000);
      assertThat(accepted.get()).as("connections").isEqualTo(1);
      assertThat(requests.get(0))
          .startsWith("POST /v1/x/batch HTTP/1.1\n")
          .contains("Content-Type: application/x-ndjson\n", "Authorization: Bearer t\n")
          .contains("Seq: s/0\n", "Content-Length: " + body.length + "\n")
          .endsWith("\n{\"id\":\"a\"}\n");
      assertThat(requests.get(1)).startsWith("GET /ready HTTP/1.1\n");
    }
  }

  /**
   * A body given as a range of a larger array: the request's head is put in the bytes before it and
   * the request goes out whole, the service reads the same head and body as from two writes; an
   * answer whose head holds a line longer than the transport's read buffer (8 KB), with its body
   * sent in two parts, is read whole, and the connection serves the next exchange.
   */
  @Test
  void exchange_bodyInARange_headBeforeItAndALongAnswerLineRead() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      List<String> requests = new ArrayList<>();
      String longValue = "v".repeat(20_000);
      Thread t =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  BufferedReader in =
                      new BufferedReader(
                          new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                  OutputStream out = s.getOutputStream();
                  for (int r = 0; r < 2; r++) {
                    String request = readRequest(in);
                    synchronized (requests) {
                      requests.add(request);
                    }
                    out.write(
                        ("HTTP/1.1 200 OK\r\nX-Long: "
                                + longValue
                                + "\r\nContent-Length: 10\r\n\r\nhello")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    Thread.sleep(50);
                    out.write("world".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                  }
                } catch (IOException | InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      t.start();
      Transport transport = transport(server.getLocalPort(), Duration.ofSeconds(30));
      byte[] array = new byte[1024 + 30_000];
      java.util.Arrays.fill(array, (byte) 'x');
      byte[] body = "{\"id\":\"a\"}\n".getBytes(StandardCharsets.UTF_8);
      System.arraycopy(body, 0, array, 1024, body.length);
      for (int r = 0; r < 2; r++) {
        Transport.Answer a =
            transport.exchange(
                "POST",
                "/v1/x/batch",
                "application/x-ndjson",
                array,
                1024,
                1024 + body.length,
                "Seq",
                "s/" + r);
        assertThat(a.status()).isEqualTo(200);
        assertThat(new String(a.body(), StandardCharsets.UTF_8)).isEqualTo("helloworld");
      }
      assertThat(new String(array, 0, 1024, StandardCharsets.ISO_8859_1))
          .as("the head, in the bytes before the body")
          .endsWith("Content-Length: " + body.length + "\r\n\r\n");
      t.join(30_000);
      for (int r = 0; r < 2; r++) {
        assertThat(requests.get(r))
            .startsWith("POST /v1/x/batch HTTP/1.1\n")
            .contains("Seq: s/" + r + "\n", "Content-Length: " + body.length + "\n")
            .endsWith("\n{\"id\":\"a\"}\n");
      }
    }
  }

  /**
   * A server that answers the first request chunked and keeps the connection, then closes it on the
   * next request unanswered (a pooled connection the service dropped), answers that request again
   * on a new connection with Connection: close, and drops a POST unanswered. The chunks are joined;
   * the GET goes out again on a new connection; the POST is not sent twice but fails.
   */
  @Test
  void exchange_chunkedAnswerAndDroppedConnections_bodyJoinedGetRetriedPostNot() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      AtomicInteger accepted = new AtomicInteger();
      List<String> firstLines = new ArrayList<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 3; i++) {
                    try (Socket s = server.accept()) {
                      accepted.incrementAndGet();
                      BufferedReader in =
                          new BufferedReader(
                              new InputStreamReader(
                                  s.getInputStream(), StandardCharsets.ISO_8859_1));
                      OutputStream out = s.getOutputStream();
                      String first = in.readLine();
                      for (String line = first; !line.isEmpty(); line = in.readLine()) {
                        // the head; bodies are not read
                      }
                      synchronized (firstLines) {
                        firstLines.add(first);
                      }
                      if (i == 0) {
                        out.write(
                            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                    + "3\r\n{\"a\r\n5;x=y\r\n\":1}\n\r\n0\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        // kept open, the client pools it: the next request's line is read, and
                        // the connection closed unanswered
                        String next = in.readLine();
                        synchronized (firstLines) {
                          firstLines.add(next);
                        }
                      } else if (i == 1) {
                        out.write(
                            "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{}"
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                      }
                    }
                  }
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      t.start();
      Transport transport = transport(server.getLocalPort(), Duration.ofSeconds(30));
      Transport.Answer chunked = transport.exchange("GET", "/a", null, null, null, null);
      assertThat(chunked.status()).isEqualTo(200);
      assertThat(new String(chunked.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}\n");
      // Connection 1 is closed by the server after this request's line: sent again on connection 2,
      // answered with a body delimited by the connection's end.
      Transport.Answer again = transport.exchange("GET", "/b", null, null, null, null);
      assertThat(new String(again.body(), StandardCharsets.UTF_8)).isEqualTo("{}");
      byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
      // Connection 3 answers nothing and closes: a POST is not sent twice.
      assertThatThrownBy(
              () -> transport.exchange("POST", "/c", "application/json", body, null, null))
          .isInstanceOf(IOException.class);
      t.join(30_000);
      assertThat(firstLines)
          .containsExactly(
              "GET /a HTTP/1.1", "GET /b HTTP/1.1", "GET /b HTTP/1.1", "POST /c HTTP/1.1");
      assertThat(accepted.get()).isEqualTo(3);
    }
  }

  /** A service that accepts and never answers: a timeout, named as HttpClient named it. */
  @Test
  void exchange_silentServer_timesOut() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      long t0 = System.nanoTime();
      assertThatThrownBy(
              () ->
                  transport(server.getLocalPort(), Duration.ofMillis(300))
                      .exchange("GET", "/ready", null, null, null, null))
          .isInstanceOf(HttpTimeoutException.class)
          .hasMessageContaining("no answer within 300 ms");
      assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(60).toNanos());
    }
  }

  /** Nothing listening: the connection is refused (send says "cannot connect" for it). */
  @Test
  void exchange_nothingListening_connectException() throws Exception {
    int port;
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      port = server.getLocalPort();
    }
    assertThatThrownBy(
            () ->
                transport(port, Duration.ofSeconds(5)).exchange("GET", "/", null, null, null, null))
        .isInstanceOf(ConnectException.class);
  }

  /**
   * A service the JVM's proxy selector sends through a proxy is reached through it (the request
   * line names the service's whole URL, as a proxy is asked), not over the plain socket, which
   * would connect to the service itself; a service the selector leaves direct keeps the plain
   * socket.
   */
  @Test
  void exchange_proxySelected_requestGoesThroughTheProxy() throws Exception {
    ProxySelector before = ProxySelector.getDefault();
    try (ServerSocket proxy = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      SocketAddress proxyAddress =
          new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.getLocalPort());
      ProxySelector.setDefault(
          new ProxySelector() {
            @Override
            public List<Proxy> select(URI uri) {
              return List.of(
                  "service.invalid".equals(uri.getHost())
                      ? new Proxy(Proxy.Type.HTTP, proxyAddress)
                      : Proxy.NO_PROXY);
            }

            @Override
            public void connectFailed(URI uri, SocketAddress sa, IOException e) {}
          });
      AtomicReference<String> requestLine = new AtomicReference<>();
      Thread t =
          new Thread(
              () -> {
                try (Socket s = proxy.accept()) {
                  BufferedReader in =
                      new BufferedReader(
                          new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                  requestLine.set(in.readLine());
                  for (String line; !(line = in.readLine()).isEmpty(); ) {
                    // the headers: nothing to check
                  }
                  OutputStream out = s.getOutputStream();
                  out.write(
                      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
                          .getBytes(StandardCharsets.ISO_8859_1));
                  out.flush();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      t.start();
      Transport proxied =
          new Transport(
              URI.create("http://service.invalid:8080"),
              null,
              Duration.ofSeconds(10),
              Duration.ofSeconds(30));
      assertThat(proxied.plain()).isFalse();
      Transport.Answer ok = proxied.exchange("GET", "/ready", null, null, null, null);
      t.join(30_000);
      assertThat(ok.status()).isEqualTo(200);
      assertThat(new String(ok.body(), StandardCharsets.UTF_8)).isEqualTo("{}");
      assertThat(requestLine.get()).isEqualTo("GET http://service.invalid:8080/ready HTTP/1.1");
      assertThat(transport(proxy.getLocalPort(), Duration.ofSeconds(30)).plain()).isTrue();
    } finally {
      ProxySelector.setDefault(before);
    }
  }
}
