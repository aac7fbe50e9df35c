// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A client of one neardup service. Thread-safe: share one instance; it keeps HTTP/1.1 connections
 * open between calls.
 *
 * <pre>{@code
 * try (NeardupClient client = NeardupClient.builder(URI.create("http://127.0.0.1:8080")).build()) {
 *   Result r = client.insert("default", Doc.text("https://example.com/a", text));
 *   if (!r.isNew()) System.out.println("duplicate of " + r.cluster());
 * }
 * }</pre>
 *
 * <p>Requests go over a plain socket for {@code http://} and the JDK's {@code HttpURLConnection}
 * for {@code https://} ({@link Transport}); an asynchronous one holds a thread of the client's
 * executor while it waits for its answer.
 *
 * <p>Every method throws {@link NeardupException} when the service refuses the request, with its
 * status and message; {@link NeardupException#isRetryable()} tells a full queue (503) from bad
 * input. Inserting an id that is stored already is not an error: the result says {@code exists}.
 */
public final class NeardupClient implements AutoCloseable {
  /**
   * The answers of batches and collection descriptions are read with this factory's parsers; an
   * {@code ObjectMapper} is built only by the calls that read a tree ({@link Trees}), which {@code
   * neardup send} makes none of.
   */
  private static final JsonFactory FACTORY = new JsonFactory();

  private static final String JSON = "application/json";

  private final Transport transport;
  private final URI base;
  private final Executor executor;

  /**
   * Batch bodies' arrays, given back once their request is written, for the next batches: a send of
   * news texts allocated (and the JVM zeroed) its bodies' ~400 KB per batch of 100 twice, once for
   * the body and once for its copy (docs/BENCHMARKS.md, the twenty-first session).
   */
  private final java.util.concurrent.ConcurrentLinkedQueue<byte[]> bodies =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  /** Bytes left before a batch's body for the request's head (the plain socket writes it there). */
  private static final int HEAD_ROOM = 1024;

  /** Spare bodies kept, and the largest kept. */
  private static final int SPARE_BODIES = 4;

  private static final int SPARE_BODY_BYTES = 8 << 20;

  /** The executor this client made and shuts down on {@link #close()}, or null. */
  private final @Nullable ExecutorService owned;

  /** Built on first use: an ObjectMapper's classes and set-up are a fixed cost per process. */
  private static final class Trees {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private NeardupClient(Builder b) {
    String s = b.base.toString();
    this.base = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    this.transport =
        new Transport(
            base, b.token == null ? null : "Bearer " + b.token, b.connectTimeout, b.timeout);
    if (b.executor != null) {
      this.executor = b.executor;
      this.owned = null;
    } else {
      this.owned = Executors.newCachedThreadPool(daemons());
      this.executor = owned;
    }
  }

  /** Daemon threads, so an unclosed client does not keep a JVM alive. */
  private static ThreadFactory daemons() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "neardup-client-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  public static Builder builder(URI base) {
    return new Builder(base);
  }

  public URI base() {
    return base;
  }

  // --- documents ----------------------------------------------------------------------------

  /** Checks a document against everything stored and stores it; answered once durable. */
  public Result insert(String collection, Doc doc) throws IOException {
    byte[] body = new RequestWriter(256).document(doc).toByteArray();
    return result(parse(call("POST", path(collection, "documents"), JSON, body, null, 200, 409)));
  }

  /** {@link #insert(String, Doc)} for a text. */
  public Result insert(String collection, String id, String text) throws IOException {
    return insert(collection, Doc.text(id, text));
  }

  /** {@link #insert(String, Doc)} without blocking. */
  public CompletableFuture<Result> insertAsync(String collection, Doc doc) {
    byte[] body = new RequestWriter(256).document(doc).toByteArray();
    return sendAsync("POST", path(collection, "documents"), JSON, body, null, 200, 409)
        .thenApply(r -> result(parse(r)));
  }

  /** Checks a text against everything stored; stores nothing. */
  public Result check(String collection, String text) throws IOException {
    byte[] body =
        write(
            g -> {
              g.writeStartObject();
              g.writeStringField("text", text);
              g.writeEndObject();
            });
    return result(parse(call("POST", path(collection, "check"), JSON, body, null, 200)));
  }

  /** Checks a precomputed fingerprint (collections without verification). */
  public Result check(String collection, long fingerprint) throws IOException {
    byte[] body =
        write(
            g -> {
              g.writeStartObject();
              g.writeStringField("fingerprint", hex(fingerprint));
              g.writeEndObject();
            });
    return result(parse(call("POST", path(collection, "check"), JSON, body, null, 200)));
  }

  /** The fingerprint of a text under the collection's settings. */
  public long fingerprint(String collection, String text) throws IOException {
    byte[] body =
        write(
            g -> {
              g.writeStartObject();
              g.writeStringField("text", text);
              g.writeEndObject();
            });
    JsonNode n = parse(call("POST", path(collection, "fingerprint"), JSON, body, null, 200));
    return Long.parseUnsignedLong(n.get("fingerprint").asText(), 16);
  }

  /**
   * Sends many documents in one request (NDJSON); the results come in the same order, with the same
   * meaning as inserting them one by one in that order.
   */
  public List<Result> batch(String collection, List<Doc> docs) throws IOException {
    return join(batchAsync(collection, docs));
  }

  /** {@link #batch} without blocking. */
  public CompletableFuture<List<Result>> batchAsync(String collection, List<Doc> docs) {
    return batchAsync(collection, docs, null);
  }

  /**
   * A sequence of batches that the service decides in the order they are sent, however many are in
   * flight at once: with two or more in flight the service analyses one batch while it decides,
   * stores and answers the one before it, and the answers are those of sending them one by one.
   */
  public BatchSequence sequence() {
    return new BatchSequence(this, java.util.UUID.randomUUID().toString());
  }

  /** A batch numbered in a {@link BatchSequence} ({@code sequence} = stream/number), or not. */
  CompletableFuture<List<Result>> batchAsync(
      String collection, List<Doc> docs, @Nullable String sequence) {
    int size = HEAD_ROOM + bodySize(docs);
    byte[] spare = bodies.poll();
    RequestWriter w =
        new RequestWriter(
            spare != null && spare.length >= size ? spare : new byte[size], HEAD_ROOM);
    for (Doc d : docs) {
      w.document(d).newline();
    }
    byte[] body = w.buffer();
    return sendAsync(
            "POST",
            path(collection, "batch"),
            "application/x-ndjson",
            body,
            HEAD_ROOM,
            w.size(),
            sequence,
            200)
        .whenComplete((r, e) -> spare(body))
        .thenApply(r -> ResultReader.readAll(r.body(), docs.size()));
  }

  /** Keeps a body's array for a later batch, if few are kept and it is not large. */
  private void spare(byte[] body) {
    if (body.length <= SPARE_BODY_BYTES && bodies.size() < SPARE_BODIES) {
      bodies.offer(body);
    }
  }

  /**
   * About the bytes of a batch's body, so that its buffer is made once: a buffer grown by doubling
   * was ~8% of {@code neardup send}'s main thread for short Chinese texts (JFR at 1 ms). Exact for
   * texts given as JSON literals, two bytes per char for others (Chinese takes three).
   */
  private static int bodySize(List<Doc> docs) {
    long size = 0;
    for (Doc d : docs) {
      byte[] json = d.textJson();
      size +=
          64
              + 3L * d.id().length()
              + (json != null ? json.length : d.text() != null ? 2L * d.text().length() : 0);
    }
    return (int) Math.min(size, Integer.MAX_VALUE - 16);
  }

  /** The stored document with this id, if any. */
  public Optional<StoredDoc> get(String collection, String id) throws IOException {
    Transport.Answer r =
        call(
            "GET", path(collection, "documents") + "?id=" + encode(id), null, null, null, 200, 404);
    if (r.status() == 404) {
      return Optional.empty();
    }
    JsonNode n = parse(r);
    JsonNode exp = n.get("expiresAt");
    return Optional.of(
        new StoredDoc(
            n.get("id").asText(),
            Long.parseUnsignedLong(n.get("fingerprint").asText(), 16),
            n.get("timestamp").asLong(),
            exp == null || exp.isNull() ? null : exp.asLong(),
            n.get("cluster").asText()));
  }

  /** Deletes a document; returns whether it was stored. */
  public boolean delete(String collection, String id) throws IOException {
    return call(
                "DELETE",
                path(collection, "documents") + "?id=" + encode(id),
                null,
                null,
                null,
                200,
                404)
            .status()
        == 200;
  }

  // --- collections --------------------------------------------------------------------------

  /**
   * Creates a collection. {@code settings} may hold {@code k}, {@code threshold}, {@code verify},
   * {@code retention} (e.g. "48h"), {@code retentionBasis}, {@code lexicon}, {@code han}, {@code
   * userDictionary}, {@code preset} ("web" for crawled pages), {@code numbers}, {@code html},
   * {@code volatileLines}, {@code topN}, {@code sketchCapacity}, {@code scheme}; the rest take the
   * server's defaults.
   */
  public CollectionInfo createCollection(String name, Map<String, ?> settings) throws IOException {
    Map<String, Object> body = new LinkedHashMap<>(settings);
    body.put("name", name);
    byte[] json;
    try {
      json = Trees.MAPPER.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return CollectionReader.readOne(
        FACTORY, call("POST", "/v1/collections", JSON, json, null, 201).body());
  }

  public List<CollectionInfo> collections() throws IOException {
    return CollectionReader.readList(
        FACTORY, call("GET", "/v1/collections", null, null, null, 200).body());
  }

  public Optional<CollectionInfo> collection(String name) throws IOException {
    Transport.Answer r = call("GET", "/v1/collections/" + encode(name), null, null, null, 200, 404);
    return r.status() == 404
        ? Optional.empty()
        : Optional.of(CollectionReader.readOne(FACTORY, r.body()));
  }

  /** Drops a collection and its documents; returns whether it existed. */
  public boolean dropCollection(String name) throws IOException {
    return call("DELETE", "/v1/collections/" + encode(name), null, null, null, 200, 404).status()
        == 200;
  }

  /** Whether /ready answers 200. */
  public boolean ready() throws IOException {
    return call("GET", "/ready", null, null, null, 200, 503).status() == 200;
  }

  /** The Prometheus exposition text of /metrics. */
  public String metrics() throws IOException {
    return new String(
        call("GET", "/metrics", null, null, null, 200).body(), StandardCharsets.UTF_8);
  }

  /**
   * Stops the client's own threads (not an executor given to the builder); idle ones expire. Closes
   * the connections it keeps open.
   */
  @Override
  public void close() {
    if (owned != null) {
      owned.shutdown();
    }
    transport.close();
  }

  // --- plumbing -----------------------------------------------------------------------------

  private static String path(String collection, String tail) {
    return "/v1/collections/" + encode(collection) + "/" + tail;
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Sends a request on the caller's thread; an answer not in {@code ok} is a NeardupException. */
  private Transport.Answer call(
      String method,
      String path,
      @Nullable String type,
      byte @Nullable [] body,
      @Nullable String sequence,
      int... ok)
      throws IOException {
    return call(method, path, type, body, 0, body == null ? 0 : body.length, sequence, ok);
  }

  /** {@link #call} with the body {@code body[from, to)}, the bytes before it free for the head. */
  private Transport.Answer call(
      String method,
      String path,
      @Nullable String type,
      byte @Nullable [] body,
      int from,
      int to,
      @Nullable String sequence,
      int... ok)
      throws IOException {
    Transport.Answer r =
        transport.exchange(method, path, type, body, from, to, BatchSequence.HEADER, sequence);
    for (int s : ok) {
      if (r.status() == s) {
        return r;
      }
    }
    String message;
    try {
      JsonNode n = Trees.MAPPER.readTree(r.body());
      message =
          n != null && n.has("error")
              ? n.get("error").asText()
              : new String(r.body(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      message = new String(r.body(), StandardCharsets.UTF_8);
    }
    throw new NeardupException(r.status(), message, r.retryAfterSeconds());
  }

  /** {@link #call} on the client's executor. */
  private CompletableFuture<Transport.Answer> sendAsync(
      String method,
      String path,
      @Nullable String type,
      byte @Nullable [] body,
      @Nullable String sequence,
      int... ok) {
    return sendAsync(method, path, type, body, 0, body == null ? 0 : body.length, sequence, ok);
  }

  private CompletableFuture<Transport.Answer> sendAsync(
      String method,
      String path,
      @Nullable String type,
      byte @Nullable [] body,
      int from,
      int to,
      @Nullable String sequence,
      int... ok) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return call(method, path, type, body, from, to, sequence, ok);
          } catch (IOException e) {
            throw new CompletionException(e);
          }
        },
        executor);
  }

  private static <T> T join(CompletableFuture<T> f) throws IOException {
    try {
      return f.join();
    } catch (CompletionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof UncheckedIOException) {
        throw ((UncheckedIOException) c).getCause();
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(c);
    }
  }

  private static JsonNode parse(Transport.Answer r) {
    return parse(r.body());
  }

  private static JsonNode parse(byte[] body) {
    try {
      return Trees.MAPPER.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException("the service answered with malformed JSON", e);
    }
  }

  static Result result(JsonNode n) {
    List<Result.Match> matches = new ArrayList<>();
    JsonNode ms = n.get("matches");
    if (ms != null) {
      for (JsonNode m : ms) {
        JsonNode sim = m.get("similarity");
        matches.add(
            new Result.Match(
                m.get("id").asText(),
                m.get("distance").asInt(),
                sim == null ? Double.NaN : sim.asDouble()));
      }
    }
    JsonNode cluster = n.get("cluster");
    JsonNode id = n.get("id");
    JsonNode error = n.get("error");
    return new Result(
        n.get("status").asText(),
        id == null ? null : id.asText(),
        n.get("new").asBoolean(),
        Long.parseUnsignedLong(n.get("fingerprint").asText(), 16),
        cluster == null || cluster.isNull() ? null : cluster.asText(),
        matches,
        error == null ? null : error.asText());
  }

  private interface Writer {
    void write(JsonGenerator g) throws IOException;
  }

  private static byte[] write(Writer w) {
    ByteArrayBuilder out = new ByteArrayBuilder(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      w.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static String hex(long fp) {
    String s = Long.toHexString(fp);
    return "0".repeat(16 - s.length()) + s;
  }

  /** Configures a {@link NeardupClient}. */
  public static final class Builder {
    private final URI base;
    private @Nullable String token;
    private Duration timeout = Duration.ofSeconds(60);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private @Nullable Executor executor;

    private Builder(URI base) {
      this.base = Objects.requireNonNull(base, "base");
    }

    /** The bearer token, when the service was started with one. */
    public Builder token(@Nullable String token) {
      this.token = token;
      return this;
    }

    /**
     * How long to wait for the service: for each read of an answer (a batch is answered once it is
     * decided and durable); 60 s by default.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /**
     * The executor of the asynchronous requests ({@link #batchAsync}, {@link #insertAsync}, {@link
     * #sequence}): each holds one of its threads until answered. By default the client's own pool
     * of daemon threads, as many as requests in flight.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    public NeardupClient build() {
      return new NeardupClient(this);
    }
  }
}
