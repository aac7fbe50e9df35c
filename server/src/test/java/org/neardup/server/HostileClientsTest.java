// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.FingerprintStore;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * Clients that are not honest: random methods, connections that declare a body and send nothing or
 * send it a byte at a time, unlimited collections and k = 64, and a failure whose text must not
 * reach the client. Each test failed on the code before the fix (see the commit message).
 */
class HostileClientsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DOCS = "/v1/collections/default/documents";

  @TempDir Path dir;

  private static String insertBody(String id) {
    return "{\"id\":\"" + id + "\",\"text\":\"the council approved the budget for " + id + "\"}";
  }

  /** Opens a connection and sends the head of a POST that declares {@code length} bytes. */
  private static Socket declare(TestServer t, long length, String first) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", t.server.port()), 10_000);
    OutputStream out = s.getOutputStream();
    out.write(
        ("POST "
                + DOCS
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: "
                + length
                + "\r\n\r\n"
                + first)
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return s;
  }

  @Test
  public void randomMethods_shareOneMetricsSeries() throws Exception {
    try (TestServer t = TestServer.start(dir, InstantSource.system(), b -> b.token("tok"))) {
      java.util.SplittableRandom r = new java.util.SplittableRandom(5);
      for (int i = 0; i < 300; i++) {
        String m =
            "M"
                + Long.toString(r.nextLong() & Long.MAX_VALUE, 36)
                    .toUpperCase(java.util.Locale.ROOT);
        assertThat(t.request(m, "/x" + i, "").statusCode()).isEqualTo(401);
      }
      String metrics = t.request("GET", "/metrics", "", "Authorization", "Bearer tok").body();
      assertThat(metrics).contains("method=\"other\"").doesNotContain("method=\"M");
      long series =
          metrics.lines().filter(l -> l.startsWith("neardup_http_requests_seconds_count")).count();
      assertThat(series).isLessThan(5);
    }
  }

  @Test
  public void silentBodies_holdNoByteBudget_andHonestClientsAreServed() throws Exception {
    // 4 connections declaring 16 MiB took the whole 64 MiB budget before: every request got 503.
    try (TestServer t =
        TestServer.start(
            dir,
            InstantSource.system(),
            b -> b.maxRequestBytes(16 << 20).maxQueuedBytes(64L << 20))) {
      List<Socket> hostile = new ArrayList<>();
      try {
        for (int i = 0; i < 32; i++) {
          hostile.add(declare(t, 16 << 20, "{\"id\""));
        }
        Thread.sleep(300); // let the server read every head
        for (int i = 0; i < 20; i++) {
          HttpResponse<String> r = t.post(DOCS, insertBody("honest" + i));
          assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
      } finally {
        for (Socket s : hostile) {
          s.close();
        }
      }
    }
  }

  /** Reads until the server closes the connection; returns what it sent. */
  private static String readUntilClosed(Socket s, int maxMillis) throws IOException {
    s.setSoTimeout(maxMillis);
    InputStream in = s.getInputStream();
    StringBuilder got = new StringBuilder();
    byte[] buf = new byte[4096];
    try {
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
      }
    } catch (java.net.SocketException e) {
      // reset: closed too
    }
    return got.toString();
  }

  @Test
  public void slowAndSilentConnections_areClosed() throws Exception {
    try (TestServer t =
        TestServer.start(
            dir,
            InstantSource.system(),
            b ->
                b.guards(
                    Guards.defaults()
                        .withRequestTimeout(Duration.ofSeconds(2))
                        .withIdleTimeout(Duration.ofSeconds(1)))); ) {
      // Silent after the head: closed by the idle timeout.
      try (Socket silent = declare(t, 1000, "")) {
        long t0 = System.nanoTime();
        readUntilClosed(silent, 60_000);
        assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(30).toNanos());
      }
      // A byte every 300 ms beats the idle timeout but not the request timeout.
      try (Socket dripping = declare(t, 1000, "")) {
        long t0 = System.nanoTime();
        OutputStream out = dripping.getOutputStream();
        boolean closed = false;
        for (int i = 0; i < 200 && !closed; i++) {
          try {
            out.write(' ');
            out.flush();
            Thread.sleep(300);
          } catch (IOException e) {
            closed = true;
          }
          if (!closed && System.nanoTime() - t0 > Duration.ofSeconds(4).toNanos()) {
            // The server should have closed by now; a read shows it.
            dripping.setSoTimeout(20_000);
            try {
              closed = dripping.getInputStream().read() < 0;
            } catch (SocketTimeoutException e) {
              closed = false;
              break;
            } catch (IOException e) {
              closed = true;
            }
          }
        }
        assertThat(closed).as("the dripping connection was closed").isTrue();
        assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(40).toNanos());
      }
      // Half a head, then nothing: closed too.
      try (Socket s = new Socket("127.0.0.1", t.server.port())) {
        s.getOutputStream()
            .write("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
        readUntilClosed(s, 60_000);
      }
      assertThat(t.get("/health").statusCode()).isEqualTo(200);
    }
  }

  @Test
  public void collectionsAndK_areBounded() throws Exception {
    try (TestServer t =
        TestServer.start(
            dir, InstantSource.system(), b -> b.guards(Guards.defaults().withMaxCollections(3)))) {
      HttpResponse<String> k64 = t.post("/v1/collections", "{\"name\":\"wide\",\"k\":64}");
      assertThat(k64.statusCode()).isEqualTo(400);
      assertThat(k64.body()).contains("'k' must be at most 8", "--max-k", "got 64");
      assertThat(t.post("/v1/collections", "{\"name\":\"k8\",\"k\":8}").statusCode())
          .isEqualTo(201);
      assertThat(t.post("/v1/collections", "{\"name\":\"c3\"}").statusCode()).isEqualTo(201);
      HttpResponse<String> over = t.post("/v1/collections", "{\"name\":\"c4\"}");
      assertThat(over.statusCode()).isEqualTo(400);
      assertThat(over.body()).contains("at most 3 collections", "--max-collections");
      assertThat(t.get("/v1/collections/c4").statusCode()).isEqualTo(404);
      assertThat(t.request("DELETE", "/v1/collections/c3", "").statusCode()).isEqualTo(200);
      assertThat(t.post("/v1/collections", "{\"name\":\"c4\"}").statusCode()).isEqualTo(201);
    }
    try (TestServer t =
        TestServer.start(
            dir.resolve("wide"),
            InstantSource.system(),
            b -> b.guards(Guards.defaults().withMaxK(12)))) {
      assertThat(t.post("/v1/collections", "{\"name\":\"k12\",\"k\":12}").statusCode())
          .isEqualTo(201);
    }
  }

  /** A store whose collections fail with an exception that names a secret. */
  private static FingerprintStore failing(FingerprintStore real) {
    return (FingerprintStore)
        Proxy.newProxyInstance(
            HostileClientsTest.class.getClassLoader(),
            new Class<?>[] {FingerprintStore.class},
            (proxy, m, args) -> {
              try {
                Object o = m.invoke(real, args);
                if (o instanceof Collection && m.getName().equals("collection")) {
                  Collection c = (Collection) o;
                  return Proxy.newProxyInstance(
                      HostileClientsTest.class.getClassLoader(),
                      new Class<?>[] {Collection.class},
                      (p2, m2, a2) -> {
                        if (m2.getName().equals("analyzer")) {
                          throw new UnsupportedOperationException("secret /etc/neardup/key.pem");
                        }
                        try {
                          return m2.invoke(c, a2);
                        } catch (InvocationTargetException e) {
                          throw e.getCause();
                        }
                      });
                }
                return o;
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  public void internalErrors_answerARequestIdAndLogTheDetail() throws Exception {
    List<LogRecord> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    Handler h =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            logged.add(r);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger api = Logger.getLogger(Api.class.getName());
    api.addHandler(h);
    try (TestServer t =
        new TestServer(failing(EmbeddedStore.builder(dir).background(false).open()), b -> b)) {
      HttpResponse<String> r = t.post(DOCS, insertBody("a"));
      assertThat(r.statusCode()).isEqualTo(500);
      assertThat(r.body()).doesNotContain("secret").doesNotContain("Unsupported");
      String error = JSON.readTree(r.body()).get("error").asText();
      assertThat(error).matches("internal error \\(request id [0-9a-f]{16}\\).*");
      String id = error.replaceAll(".*request id ([0-9a-f]{16}).*", "$1");
      assertThat(logged)
          .anySatisfy(
              rec -> {
                assertThat(rec.getMessage()).contains(id);
                assertThat(rec.getThrown()).hasMessageContaining("secret");
              });
    } finally {
      api.removeHandler(h);
    }
  }
}
