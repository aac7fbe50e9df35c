// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * {@code HostileLoad [SECONDS]}: the figures of docs/BENCHMARKS.md's "Hostile clients" section.
 * Starts the service in this JVM (fsync always, lexicon none), then measures honest clients (8
 * threads, one insert per request) alone and beside 256 hostile connections (128 that declare 16
 * MiB and send nothing, 128 that send a byte a second); the size of /metrics before and after 2,000
 * requests with random methods; and single inserts and batches of 100 over HTTPS beside plain HTTP
 * (a self-signed certificate made with openssl). Client and server share the machine's cores.
 */
public final class HostileLoad {
  private static final AtomicLong IDS = new AtomicLong();

  private HostileLoad() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    Path dir = Files.createTempDirectory("hostile-load");
    try (NeardupServer plain = start(dir.resolve("plain"), Guards.defaults())) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      phase("warm-up", http, plain.uri(), 1, Math.max(3, seconds / 2));
      Result alone = phase("honest alone", http, plain.uri(), 1, seconds);
      List<Socket> hostile = new ArrayList<>();
      ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
      for (int i = 0; i < 256; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", plain.port()), 10_000);
        OutputStream out = s.getOutputStream();
        out.write(
            ("POST /v1/collections/default/documents HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 16777216\r\n\r\n{\"id\"")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        hostile.add(s);
        if (i % 2 == 1) {
          drip.scheduleAtFixedRate(
              () -> {
                try {
                  out.write(' ');
                  out.flush();
                } catch (IOException e) {
                  // closed by the server
                }
              },
              1,
              1,
              TimeUnit.SECONDS);
        }
      }
      Result beside = phase("honest beside 256 hostile", http, plain.uri(), 1, seconds);
      drip.shutdownNow();
      for (Socket s : hostile) {
        s.close();
      }
      System.out.printf(
          Locale.ROOT, "p99 ratio beside/alone: %.2f%n", beside.p99Millis / alone.p99Millis);

      int before = get(http, plain.uri(), "/metrics").length();
      SplittableRandom r = new SplittableRandom(7);
      for (int i = 0; i < 2000; i++) {
        String method =
            "X" + Long.toString(r.nextLong() & Long.MAX_VALUE, 36).toUpperCase(Locale.ROOT);
        http.send(
            HttpRequest.newBuilder(URI.create(plain.uri() + "/v1/x" + i))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.discarding());
      }
      int after = get(http, plain.uri(), "/metrics").length();
      System.out.printf(
          Locale.ROOT, "/metrics: %d bytes before, %d after 2,000 random methods%n", before, after);

      Path certs = Files.createDirectories(dir.resolve("certs"));
      TlsTest.makeCertificate(certs, "rsa:2048");
      Guards tls = Guards.defaults().withTls(certs.resolve("cert.pem"), certs.resolve("key.pem"));
      // Two fresh servers, so that both hold the same documents at each step.
      try (NeardupServer secure = start(dir.resolve("tls"), tls);
          NeardupServer fresh = start(dir.resolve("plain2"), Guards.defaults())) {
        HttpClient https = TlsTest.trusting(certs.resolve("cert.pem"));
        phase("warm-up http", http, fresh.uri(), 1, Math.max(3, seconds / 2));
        phase("warm-up https", https, secure.uri(), 1, Math.max(3, seconds / 2));
        for (int round = 0; round < 2; round++) {
          for (int batch : new int[] {1, 100}) {
            Result p = phase("http  batch " + batch, http, fresh.uri(), batch, seconds);
            Result s = phase("https batch " + batch, https, secure.uri(), batch, seconds);
            System.out.printf(
                Locale.ROOT,
                "round %d batch %d: https/http documents/s %.2f, p99 %.2f%n",
                round,
                batch,
                s.docsPerSecond / p.docsPerSecond,
                s.p99Millis / p.p99Millis);
          }
        }
      }
    }
  }

  private static NeardupServer start(Path dir, Guards guards) throws IOException {
    ServerConfig config =
        ServerConfig.builder().port(0).defaults(TestServer.SETTINGS).guards(guards).build();
    return NeardupServer.start(config, EmbeddedStore.builder(dir).open());
  }

  private static String get(HttpClient http, URI base, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(base + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  record Result(double docsPerSecond, double p50Millis, double p99Millis, long failed) {}

  /** 8 client threads sending inserts (batch 1) or NDJSON batches for {@code seconds}. */
  static Result phase(String name, HttpClient http, URI base, int batch, int seconds)
      throws Exception {
    int threads = 8;
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    long[][] lat = new long[threads][];
    int[] counts = new int[threads];
    long[] failed = new long[threads];
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int me = t;
      Thread th =
          new Thread(
              () -> {
                SplittableRandom r = new SplittableRandom(me * 31L + System.nanoTime());
                long[] l = new long[1 << 16];
                int n = 0;
                URI uri =
                    URI.create(
                        base
                            + (batch == 1
                                ? "/v1/collections/default/documents"
                                : "/v1/collections/default/batch"));
                while (System.nanoTime() < end) {
                  StringBuilder body = new StringBuilder();
                  for (int i = 0; i < batch; i++) {
                    body.append("{\"id\":\"d")
                        .append(IDS.incrementAndGet())
                        .append("\",\"text\":\"");
                    for (int w = 0; w < 30; w++) {
                      body.append('w').append(r.nextInt(5000)).append(' ');
                    }
                    body.append("\"}\n");
                  }
                  long t0 = System.nanoTime();
                  try {
                    HttpResponse<Void> resp =
                        http.send(
                            HttpRequest.newBuilder(uri)
                                .header(
                                    "Content-Type",
                                    batch == 1 ? "application/json" : "application/x-ndjson")
                                .timeout(Duration.ofSeconds(60))
                                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                                .build(),
                            HttpResponse.BodyHandlers.discarding());
                    if (resp.statusCode() != 200) {
                      failed[me]++;
                    }
                  } catch (IOException | InterruptedException e) {
                    failed[me]++;
                  }
                  if (n == l.length) {
                    l = Arrays.copyOf(l, n * 2);
                  }
                  l[n++] = System.nanoTime() - t0;
                }
                lat[me] = l;
                counts[me] = n;
              });
      th.start();
      ts.add(th);
    }
    for (Thread t : ts) {
      t.join();
    }
    int total = 0;
    for (int c : counts) {
      total += c;
    }
    long[] all = new long[total];
    int at = 0;
    long fails = 0;
    for (int t = 0; t < threads; t++) {
      System.arraycopy(lat[t], 0, all, at, counts[t]);
      at += counts[t];
      fails += failed[t];
    }
    Arrays.sort(all);
    Result res =
        new Result(
            (double) total * batch / seconds,
            all[total / 2] / 1e6,
            all[(int) Math.min(total - 1, Math.ceil(total * 0.99) - 1)] / 1e6,
            fails);
    System.out.printf(
        Locale.ROOT,
        "%-28s %8.0f documents/s  %7.0f requests/s  p50 %6.2f ms  p99 %6.2f ms  failed %d%n",
        name,
        res.docsPerSecond,
        (double) total / seconds,
        res.p50Millis,
        res.p99Millis,
        fails);
    return res;
  }
}
