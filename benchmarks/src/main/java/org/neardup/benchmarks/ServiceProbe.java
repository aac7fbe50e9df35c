// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
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

/**
 * Latency of check-and-insert through a running service, as one client sees it: SINGLES documents
 * sent one per request, then BATCHES requests of BATCH documents, one request at a time (no
 * queueing: each figure is one request's own time), from the JSONL lines of QUERIES ({@code id},
 * {@code text}, or {@code fingerprint}: 16 hex digits, for a collection that does not verify) that
 * are not stored yet. Prints p50, p99 and max per kind, and documents per second. With MIXED, then
 * MIXED more singles while a second client sends batches of BATCH back to back (the rest of the
 * file): the latency of a single behind a batch load. With {@code -Dneardup.probe.client=socket}
 * the requests go over plain sockets, each in one write ({@link SocketPost}), instead of the JDK's
 * HttpClient.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.ServiceProbe \
 *     URL COLLECTION QUERIES.jsonl SINGLES BATCHES BATCH [MIXED]
 * </pre>
 */
public final class ServiceProbe {
  /**
   * {@code -Dneardup.probe.client=socket}: each client thread sends over a plain socket of its own,
   * a request in one write ({@link SocketPost}); {@code jdk} (the default): the JDK's HttpClient.
   */
  private static final boolean SOCKET =
      "socket".equals(System.getProperty("neardup.probe.client", "jdk"));

  private static final ThreadLocal<SocketPost> SOCKETS = new ThreadLocal<>();

  private ServiceProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 6 && args.length != 7) {
      System.err.println(
          "usage: ServiceProbe URL COLLECTION QUERIES.jsonl SINGLES BATCHES BATCH [MIXED]");
      System.exit(2);
    }
    int mixed = args.length == 7 ? Integer.parseInt(args[6]) : 0;
    String url = args[0].replaceAll("/+$", "");
    String collection = args[1];
    int singles = Integer.parseInt(args[3]);
    int batches = Integer.parseInt(args[4]);
    int batch = Integer.parseInt(args[5]);
    int need = singles + batches * batch + mixed + (mixed > 0 ? batch : 0);
    List<String[]> docs = read(Path.of(args[2]), mixed > 0 ? Integer.MAX_VALUE : need);
    if (docs.size() < need) {
      System.err.println("QUERIES holds " + docs.size() + " documents, need " + need);
      System.exit(2);
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    URI one = URI.create(url + "/v1/collections/" + collection + "/documents");
    URI many = URI.create(url + "/v1/collections/" + collection + "/batch");
    long[] single = new long[singles];
    long t0 = System.nanoTime();
    for (int i = 0; i < singles; i++) {
      single[i] = post(http, one, json(docs.subList(i, i + 1), false));
    }
    double singleSeconds = (System.nanoTime() - t0) / 1e9;
    long[] multi = new long[batches];
    t0 = System.nanoTime();
    for (int b = 0; b < batches; b++) {
      int from = singles + b * batch;
      multi[b] = post(http, many, json(docs.subList(from, from + batch), true));
    }
    double batchSeconds = (System.nanoTime() - t0) / 1e9;
    report("single", single, singles / singleSeconds);
    report("batch of " + batch, multi, (double) batches * batch / batchSeconds);
    if (mixed > 0) {
      mixed(http, one, many, docs.subList(singles + batches * batch, docs.size()), mixed, batch);
    }
  }

  /**
   * MIXED singles, one at a time, while a second client sends batches back to back (from the
   * documents after the singles' until they run out): what a single waits behind batches.
   */
  private static void mixed(
      HttpClient http, URI one, URI many, List<String[]> docs, int mixed, int batch)
      throws Exception {
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    int[] sent = {0};
    Thread background =
        new Thread(
            () -> {
              try {
                for (int from = mixed; !stop.get() && from + batch <= docs.size(); from += batch) {
                  post(http, many, json(docs.subList(from, from + batch), true));
                  sent[0]++;
                }
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            },
            "background-batches");
    background.start();
    Thread.sleep(200); // the first batch is in the server
    long[] single = new long[mixed];
    long t0 = System.nanoTime();
    for (int i = 0; i < mixed; i++) {
      single[i] = post(http, one, json(docs.subList(i, i + 1), false));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    stop.set(true);
    background.join();
    report(
        "single beside batches of " + batch + " (" + sent[0] + " sent meanwhile)",
        single,
        mixed / seconds);
  }

  private static void report(String what, long[] nanos, double docsPerSecond) {
    if (nanos.length == 0) {
      return;
    }
    long[] s = nanos.clone();
    Arrays.sort(s);
    System.out.printf(
        Locale.ROOT,
        "%s: %d requests, p50 %.2f ms, p99 %.2f ms, max %.2f ms, %.0f documents/s (one %s)%n",
        what,
        s.length,
        s[s.length / 2] / 1e6,
        s[(int) Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] / 1e6,
        s[s.length - 1] / 1e6,
        docsPerSecond,
        SOCKET ? "client, plain socket" : "client");
  }

  private static long post(HttpClient http, URI uri, String body) throws Exception {
    if (SOCKET) {
      return postOverSocket(uri, body);
    }
    HttpRequest r =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    long t = System.nanoTime();
    HttpResponse<String> response = http.send(r, HttpResponse.BodyHandlers.ofString());
    long took = System.nanoTime() - t;
    if (response.statusCode() != 200 && response.statusCode() != 409) {
      throw new IOException(uri + " answered " + response.statusCode() + ": " + response.body());
    }
    return took;
  }

  /** As {@link #post} through this thread's own plain socket ({@link SocketPost}). */
  private static long postOverSocket(URI uri, String body) throws IOException {
    SocketPost socket = SOCKETS.get();
    if (socket == null) {
      socket = new SocketPost(uri);
      SOCKETS.set(socket);
    }
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    long t = System.nanoTime();
    int status = socket.post(uri, "application/json", body, answer);
    long took = System.nanoTime() - t;
    if (status != 200 && status != 409) {
      throw new IOException(
          uri + " answered " + status + ": " + answer.toString(StandardCharsets.UTF_8));
    }
    return took;
  }

  private static String json(List<String[]> docs, boolean array) throws IOException {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
      if (array) {
        g.writeStartArray();
      }
      for (String[] d : docs) {
        g.writeStartObject();
        g.writeStringField("id", d[0]);
        g.writeStringField(d[2], d[1]); // "text" or "fingerprint"
        g.writeEndObject();
      }
      if (array) {
        g.writeEndArray();
      }
    }
    return w.toString();
  }

  private static List<String[]> read(Path path, int limit) throws IOException {
    List<String[]> out = new ArrayList<>();
    try (InputStream in = Files.newInputStream(path);
        JsonParser p = new JsonFactory().createParser(in)) {
      while (out.size() < limit && p.nextToken() == JsonToken.START_OBJECT) {
        String id = null;
        String value = null;
        String kind = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken t = p.nextToken();
          if (t == JsonToken.VALUE_STRING && field.equals("id")) {
            id = p.getText();
          } else if (t == JsonToken.VALUE_STRING
              && (field.equals("text") || field.equals("fingerprint"))) {
            value = p.getText();
            kind = field;
          } else {
            p.skipChildren();
          }
        }
        if (id != null && value != null) {
          out.add(new String[] {id, value, kind});
        }
      }
    }
    return out;
  }
}
