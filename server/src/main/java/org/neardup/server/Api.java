// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.undertow.io.Receiver;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoredDocument;

/**
 * The routing and handlers of the HTTP API, shared by {@link NeardupServer} and its tests.
 *
 * <p>On the I/O thread: authentication, routing, admission (bounded count and bytes, else 503 with
 * Retry-After), the size limit (413) and reading the body. On a worker thread: parsing, analysis,
 * the store call (which returns once the write is durable) and the answer. Every refusal is JSON
 * {@code {"error": "..."}} naming the problem, and nothing is stored from a request that fails
 * validation: a batch is checked whole before its first document is stored.
 */
final class Api implements HttpHandler {
  private static final System.Logger LOG = System.getLogger(Api.class.getName());
  private static final String JSON = "application/json";
  private static final String NDJSON = "application/x-ndjson";
  private static final HttpString RETRY_AFTER = HttpString.tryFromString("Retry-After");
  private static final byte[] NO_BODY = new byte[0];
  private static final HttpString SEQUENCE = HttpString.tryFromString(DecisionOrder.HEADER);
  private static final io.undertow.util.AttachmentKey<DecisionOrder.Ticket> TICKET =
      io.undertow.util.AttachmentKey.create(DecisionOrder.Ticket.class);
  // A batch's or a single insert's clock: its start, then the end of each of
  // Metrics.BATCH_STAGES or Metrics.SINGLE_STAGES.
  private static final io.undertow.util.AttachmentKey<long[]> STAGES =
      io.undertow.util.AttachmentKey.create(long[].class);
  // Request ids of internal errors: unique in a run and across restarts (they start at the time).
  private static final java.util.concurrent.atomic.AtomicLong ERROR_IDS =
      new java.util.concurrent.atomic.AtomicLong(System.currentTimeMillis() << 20);

  private final FingerprintStore store;
  private final ServerConfig config;
  private final Admission admission;
  private final ExecutorService workers;
  private final ExecutorService singles;
  private final Metrics metrics;
  private final DecisionOrder order;
  private final byte @Nullable [] tokenHash;
  private final byte[] openApi;
  private volatile boolean accepting = true;

  Api(
      FingerprintStore store,
      ServerConfig config,
      Admission admission,
      ExecutorService workers,
      ExecutorService singles,
      Metrics metrics,
      DecisionOrder order) {
    this.store = store;
    this.order = order;
    this.config = config;
    this.admission = admission;
    this.workers = workers;
    this.singles = singles;
    this.metrics = metrics;
    this.tokenHash = config.token() == null ? null : sha256(config.token());
    this.openApi = resource("openapi.json");
  }

  /** Stops answering /ready with 200 (the first step of a graceful shutdown). */
  void stopAccepting() {
    accepting = false;
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /**
   * The API description with this server as its server: the scheme, host and port the request came
   * to (its Host header), not the address the file was written with.
   */
  private byte[] openApiFor(HttpServerExchange ex) {
    String text = new String(openApi, StandardCharsets.UTF_8);
    String here = ex.getRequestScheme() + "://" + ex.getHostAndPort();
    String quoted = new String(Json.write(g -> g.writeString(here)), StandardCharsets.UTF_8);
    return text.replace("\"url\": \"http://127.0.0.1:8080\"", "\"url\": " + quoted)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] resource(String name) {
    try (InputStream in = Api.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read resource " + name, e);
    }
  }

  // --- I/O thread ---------------------------------------------------------------------------

  @Override
  public void handleRequest(HttpServerExchange ex) {
    long start = System.nanoTime();
    Route.Match match;
    try {
      authenticate(ex);
      match = Route.match(ex.getRequestMethod(), ex.getRequestPath());
    } catch (ApiException e) {
      record(ex, "unmatched", start);
      fail(ex, e);
      return;
    }
    Route route = match.route();
    record(ex, route.template, start);
    if (route == Route.HEALTH) {
      send(ex, 200, JSON, "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8));
      return;
    }
    if (route == Route.INSERT) {
      long[] stages = new long[Metrics.SINGLE_STAGES.size() + 1];
      stages[0] = start;
      ex.putAttachment(STAGES, stages);
    } else if (route == Route.BATCH) {
      long[] stages = new long[Metrics.BATCH_STAGES.size() + 1];
      stages[0] = start;
      ex.putAttachment(STAGES, stages);
      DecisionOrder.Ticket ticket;
      try {
        ticket = order.ticket(ex.getRequestHeaders().getFirst(SEQUENCE));
      } catch (ApiException e) {
        fail(ex, e);
        return;
      }
      if (ticket != null) {
        // Whatever ends this request (a refusal here, a bad body, a closed connection), its number
        // passes, so the next batch of its stream is not held up; a decided one has passed already.
        ex.putAttachment(TICKET, ticket);
        ex.addExchangeCompleteListener(
            (e, next) -> {
              if (!ticket.passed()) {
                passOffIoThread(ticket);
              }
              next.proceed();
            });
      }
    }
    long declared = ex.getRequestContentLength();
    if (route.hasBody && declared > config.maxRequestBytes()) {
      fail(ex, tooLarge());
      return;
    }
    // The request counts now; its body's bytes count as they arrive (Body), so that connections
    // that declare a large body and send nothing hold no share of the byte budget.
    if (!admission.tryAcquire(0)) {
      atCapacity(ex);
      return;
    }
    if (!route.hasBody) {
      ex.addExchangeCompleteListener(
          (e, next) -> {
            admission.release(0);
            next.proceed();
          });
      dispatch(ex, match, NO_BODY);
      return;
    }
    Body body = new Body(config.maxRequestBytes());
    ex.addExchangeCompleteListener(
        (e, next) -> {
          admission.release(body.counted);
          next.proceed();
        });
    // A body must arrive whole within the request timeout (a client that sends a byte now and
    // then is not stopped by the idle timeout): past it the connection is closed.
    io.undertow.server.ServerConnection connection = ex.getConnection();
    org.xnio.XnioExecutor.Key deadline =
        ex.getIoThread()
            .executeAfter(
                () -> {
                  if (!body.done) {
                    body.done = true;
                    LOG.log(Level.DEBUG, "a request body did not arrive in time; closing");
                    org.xnio.IoUtils.safeClose(connection);
                  }
                },
                config.guards().requestTimeout().toMillis(),
                java.util.concurrent.TimeUnit.MILLISECONDS);
    Receiver.ErrorCallback onError =
        (e, error) -> {
          body.done = true;
          deadline.remove();
          if (error instanceof RequestTooBigException) {
            fail(e, tooLarge());
          } else {
            LOG.log(Level.DEBUG, "reading a request body failed", error);
            e.setStatusCode(400);
            e.endExchange();
          }
        };
    if (declared >= 0) {
      ex.setMaxEntitySize(config.maxRequestBytes());
    }
    // Chunked bodies: collected up to the limit, then read on and discarded so that the client,
    // still sending, gets the 413 instead of a reset connection. Undertow cuts the connection at
    // 4 times the limit (its MAX_ENTITY_SIZE option, which is what bounds chunked bodies: a
    // per-exchange setting comes too late for them).
    ex.getRequestReceiver()
        .receivePartialBytes(
            (e, chunk, last) -> {
              if (body.done) {
                return;
              }
              if (!body.tooLarge) {
                if (!admission.tryAddBytes(chunk.length)) {
                  body.done = true;
                  deadline.remove();
                  e.setPersistent(false); // the rest of the body is not read
                  atCapacity(e);
                  return;
                }
                body.counted += chunk.length;
              }
              body.add(chunk);
              if (last) {
                body.done = true;
                deadline.remove();
                if (body.tooLarge) {
                  fail(e, tooLarge());
                } else {
                  dispatch(e, match, body.bytes());
                }
              }
            },
            onError);
  }

  /**
   * Passes a ticket on a worker: passing may run the decisions of the batches it held up, which
   * must not run on an I/O thread.
   */
  private void passOffIoThread(DecisionOrder.Ticket ticket) {
    try {
      workers.execute(ticket::pass);
    } catch (RejectedExecutionException e) {
      ticket.pass(); // shutting down
    }
  }

  private void atCapacity(HttpServerExchange ex) {
    ex.getResponseHeaders().put(RETRY_AFTER, "1");
    fail(
        ex,
        new ApiException(
            503,
            "the server is at capacity ("
                + config.maxInFlight()
                + " requests or "
                + config.maxQueuedBytes()
                + " body bytes in progress); retry after 1 s"));
  }

  /**
   * A request body being read: kept only while it fits the limit, as the chunks arrive (never sized
   * by what the client declared), and the bytes of it counted in {@link Admission}; joined into one
   * array once, at its end. Touched by the exchange's I/O thread only.
   *
   * <p>Why chunks: Undertow hands each read over as an array of its own, which this keeps. Copied
   * into an array that doubled as bytes arrived, a news batch of 100 (~400 KB, read 16 KB at a
   * time) was copied about twice and allocated ~900 KB before its end (docs/BENCHMARKS.md, the
   * twenty-first session).
   */
  private static final class Body {
    private final int max;
    private final ArrayList<byte[]> chunks = new ArrayList<>();
    private int size;
    long counted;
    boolean tooLarge;
    boolean done;

    Body(int max) {
      this.max = max;
    }

    void add(byte[] chunk) {
      if (tooLarge) {
        return;
      }
      if ((long) size + chunk.length > max) {
        tooLarge = true;
        chunks.clear();
        return;
      }
      if (chunk.length > 0) {
        chunks.add(chunk); // Undertow's own array for this read: not reused by it
        size += chunk.length;
      }
    }

    byte[] bytes() {
      if (chunks.size() == 1) {
        return chunks.get(0);
      }
      byte[] out = size == 0 ? NO_BODY : new byte[size];
      int at = 0;
      for (byte[] c : chunks) {
        System.arraycopy(c, 0, out, at, c.length);
        at += c.length;
      }
      return out;
    }
  }

  private ApiException tooLarge() {
    return new ApiException(
        413,
        "the request body exceeds "
            + config.maxRequestBytes()
            + " bytes; split it (see --max-request-bytes)");
  }

  private void record(HttpServerExchange ex, String route, long start) {
    String method = Metrics.methodLabel(ex.getRequestMethod());
    ex.addExchangeCompleteListener(
        (e, next) -> {
          metrics.request(route, method, e.getStatusCode(), System.nanoTime() - start);
          next.proceed();
        });
  }

  private void authenticate(HttpServerExchange ex) throws ApiException {
    if (tokenHash == null) {
      return;
    }
    HeaderValues h = ex.getRequestHeaders().get(Headers.AUTHORIZATION);
    String value = h == null ? null : h.getFirst();
    String given =
        value != null && value.regionMatches(true, 0, "Bearer ", 0, 7)
            ? value.substring(7).trim()
            : "";
    // Hash both sides: MessageDigest.isEqual then compares 32 bytes in constant time, whatever
    // the length of the guess.
    if (!MessageDigest.isEqual(tokenHash, sha256(given))) {
      ex.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer realm=\"neardup\"");
      throw new ApiException(
          401,
          value == null
              ? "this server needs 'Authorization: Bearer <token>'"
              : "the bearer token is wrong");
    }
  }

  private void dispatch(HttpServerExchange ex, Route.Match match, byte[] body) {
    try {
      // Batches on the workers, the rest on threads of their own (see NeardupServer).
      ex.dispatch(match.route() == Route.BATCH ? workers : singles, () -> run(ex, match, body));
    } catch (RejectedExecutionException e) {
      ex.getResponseHeaders().put(RETRY_AFTER, "1");
      fail(ex, new ApiException(503, "the server is shutting down"));
    }
  }

  // --- worker thread ------------------------------------------------------------------------

  private void run(HttpServerExchange ex, Route.Match match, byte[] body) {
    try {
      handle(ex, match, body);
    } catch (Exception | Error e) {
      failFromStore(ex, "on " + match.route().template, e);
    }
  }

  /** Answers what a handler or a store call threw: bad input, a dropped collection, a fault. */
  private void failFromStore(HttpServerExchange ex, String where, Throwable t) {
    if (t instanceof ApiException e) {
      fail(ex, e);
    } else if (t instanceof IllegalArgumentException e) {
      fail(ex, ApiException.badRequest(e.getMessage()));
    } else if (t instanceof IllegalStateException e) {
      // A collection dropped while the request ran, or a store closing.
      fail(ex, new ApiException(store.isHealthy() ? 404 : 503, e.getMessage()));
    } else if (t instanceof IOException e) {
      LOG.log(Level.ERROR, "the store failed", e);
      ex.getResponseHeaders().put(RETRY_AFTER, "10");
      fail(ex, new ApiException(503, "the store cannot take writes: " + e.getMessage()));
    } else if (t instanceof java.io.UncheckedIOException e) {
      // A networked store's reads (check, get, stats) when its server is unreachable.
      LOG.log(Level.ERROR, "the store failed", e);
      ex.getResponseHeaders().put(RETRY_AFTER, "10");
      fail(ex, new ApiException(503, "the store is unavailable: " + e.getCause().getMessage()));
    } else {
      fail(ex, internalError(where, t));
    }
  }

  private void handle(HttpServerExchange ex, Route.Match m, byte[] body)
      throws ApiException, IOException {
    String bad = Utf8.problem(body, 0, body.length);
    if (bad != null) {
      throw ApiException.badRequest("the request body is not valid UTF-8: " + bad);
    }
    switch (m.route()) {
      case READY:
        {
          String reason = accepting ? store.unhealthyReason() : null;
          boolean ok = accepting && reason == null;
          send(
              ex,
              ok ? 200 : 503,
              JSON,
              Json.write(
                  g -> {
                    g.writeStartObject();
                    g.writeStringField(
                        "status", ok ? "ready" : accepting ? "store unhealthy" : "shutting down");
                    if (reason != null) {
                      g.writeStringField("reason", reason);
                    }
                    g.writeEndObject();
                  }));
          return;
        }
      case METRICS:
        send(
            ex,
            200,
            "text/plain; version=0.0.4; charset=utf-8",
            metrics.scrape().getBytes(StandardCharsets.UTF_8));
        return;
      case OPENAPI:
        send(ex, 200, JSON, openApiFor(ex));
        return;
      case LIST_COLLECTIONS:
        send(
            ex,
            200,
            JSON,
            Json.write(
                g -> {
                  g.writeStartObject();
                  g.writeArrayFieldStart("collections");
                  for (Collection c : store.collections()) {
                    Json.collection(g, c);
                  }
                  g.writeEndArray();
                  g.writeEndObject();
                }));
        return;
      case CREATE_COLLECTION:
        createCollection(ex, body);
        return;
      case GET_COLLECTION:
        {
          Collection c = collection(m);
          send(ex, 200, JSON, Json.write(g -> Json.collection(g, c)));
          return;
        }
      case STATS:
        {
          Collection c = collection(m);
          send(ex, 200, JSON, Json.write(g -> Json.stats(g, c.stats())));
          return;
        }
      case DROP_COLLECTION:
        {
          String name = m.collection();
          if (!store.drop(name)) {
            throw noCollection(name);
          }
          send(
              ex,
              200,
              JSON,
              Json.write(
                  g -> {
                    g.writeStartObject();
                    g.writeBooleanField("dropped", true);
                    g.writeEndObject();
                  }));
          return;
        }
      case INSERT:
        insert(ex, collection(m), body);
        return;
      case CHECK:
        {
          Collection c = collection(m);
          Json.DocInput in = Json.document(Json.readDocument(body), "", false);
          Outcome o = c.check(analysis(c, in, ""));
          metrics.document(c.name(), o);
          send(ex, 200, JSON, Json.outcome(o, c.name()));
          return;
        }
      case FINGERPRINT:
        {
          Collection c = collection(m);
          JsonNode n = Json.parse(body);
          Json.checkObject(n, "", java.util.Set.of("text"));
          String text = Json.string(n, "text", "");
          if (text == null) {
            throw ApiException.badRequest("field 'text' is required");
          }
          Analysis a = c.analyzer().analyze(text);
          send(
              ex,
              200,
              JSON,
              Json.write(
                  g -> {
                    g.writeStartObject();
                    g.writeStringField("fingerprint", Json.hex(a.fingerprint()));
                    g.writeNumberField("letters", a.letters());
                    g.writeStringField("analyzer", c.analyzer().id());
                    g.writeEndObject();
                  }));
          return;
        }
      case GET_DOCUMENT:
        {
          Collection c = collection(m);
          String id = idParameter(ex);
          Optional<StoredDocument> d = c.get(id);
          if (d.isEmpty()) {
            throw ApiException.notFound(
                "no document with id '" + id + "' in collection '" + c.name() + "'");
          }
          send(ex, 200, JSON, Json.stored(d.get()));
          return;
        }
      case DELETE_DOCUMENT:
        {
          Collection c = collection(m);
          String id = idParameter(ex);
          if (!c.delete(id)) {
            throw ApiException.notFound(
                "no document with id '" + id + "' in collection '" + c.name() + "'");
          }
          send(
              ex,
              200,
              JSON,
              Json.write(
                  g -> {
                    g.writeStartObject();
                    g.writeBooleanField("deleted", true);
                    g.writeEndObject();
                  }));
          return;
        }
      case BATCH:
        batch(ex, collection(m), body);
        return;
      default:
        throw new IllegalStateException("unhandled route " + m.route());
    }
  }

  private Collection collection(Route.Match m) throws ApiException {
    String name = m.collection();
    Collection c = name == null ? null : store.collection(name);
    if (c == null) {
      throw noCollection(name);
    }
    return c;
  }

  private ApiException noCollection(@Nullable String name) {
    List<String> names = new ArrayList<>();
    for (Collection c : store.collections()) {
      names.add(c.name());
    }
    String shown = name == null ? "" : name.length() > 80 ? name.substring(0, 80) + "..." : name;
    return ApiException.notFound(
        "no collection named '" + shown + "' (collections: " + String.join(", ", names) + ")");
  }

  private static String idParameter(HttpServerExchange ex) throws ApiException {
    Deque<String> ids = ex.getQueryParameters().get("id");
    if (ids == null || ids.isEmpty() || ids.getFirst().isEmpty()) {
      throw ApiException.badRequest(
          "query parameter 'id' is required, e.g. ?id=https%3A%2F%2Fexample.com%2Fa");
    }
    if (ids.size() > 1) {
      throw ApiException.badRequest(
          "give query parameter 'id' once, got it " + ids.size() + " times");
    }
    // Undertow decodes %XX escapes leniently (invalid UTF-8 becomes U+FFFD), so decode the raw
    // query string strictly.
    return QueryId.of(ex.getQueryString());
  }

  private void createCollection(HttpServerExchange ex, byte[] body)
      throws ApiException, IOException {
    JsonNode n = Json.parse(body);
    Json.checkObject(n, "", Json.COLLECTION_FIELDS);
    String name = Json.string(n, "name", "");
    if (name == null) {
      throw ApiException.badRequest("field 'name' is required");
    }
    FingerprintStore.checkName(name);
    CollectionSettings settings = Json.settings(n, config.defaults());
    Guards guards = config.guards();
    if (settings.maxDistance() > guards.maxK()) {
      throw ApiException.badRequest(
          "field 'k' must be at most "
              + guards.maxK()
              + " on this server (each bit of k multiplies the work of every insert; the server's"
              + " --max-k allows more), got "
              + settings.maxDistance());
    }
    Collection c;
    synchronized (this) { // the count and the create as one step
      if (store.collection(name) != null) {
        throw new ApiException(409, "collection '" + name + "' exists");
      }
      if (store.collections().size() >= guards.maxCollections()) {
        throw ApiException.badRequest(
            "this server holds at most "
                + guards.maxCollections()
                + " collections (--max-collections); drop one before creating '"
                + name
                + "'");
      }
      c = store.create(name, settings);
    }
    send(ex, 201, JSON, Json.write(g -> Json.collection(g, c)));
  }

  /** Analyses a document's text, or wraps its fingerprint; checks it can be compared. */
  private static Analysis analysis(Collection c, Json.DocInput in, String where)
      throws ApiException {
    if (in.hasText()) {
      Analysis a = c.analyzer().analyze(in.text());
      if (a.isEmpty()) {
        throw ApiException.badRequest(where + "field 'text' has no letters or digits");
      }
      return a;
    }
    if (c.settings().verify()) {
      throw ApiException.badRequest(
          where
              + "collection '"
              + c.name()
              + "' verifies candidates with the text's shingles, so it needs 'text'; send"
              + " fingerprints only to a collection created with \"verify\": false");
    }
    return Analysis.ofFingerprint(in.fingerprint(), 1);
  }

  private void insert(HttpServerExchange ex, Collection c, byte[] body) throws ApiException {
    long[] stages = ex.getAttachment(STAGES);
    stages[1] = System.nanoTime();
    Json.DocInput in = Json.document(Json.readDocument(body), "", true);
    Analysis a = analysis(c, in, "");
    stages[2] = System.nanoTime();
    // Decided now; answered when durable, from the store's thread, with no worker waiting.
    CompletableFuture<Outcome> durable =
        c.checkAndInsertAsync(new Document(in.id(), a, in.timestamp()));
    stages[3] = System.nanoTime();
    durable.whenComplete(
        (o, error) -> {
          stages[4] = System.nanoTime();
          answer(
              ex,
              error,
              () -> {
                metrics.document(c.name(), o);
                send(
                    ex,
                    o.status() == Outcome.Status.EXISTS ? 409 : 200,
                    JSON,
                    Json.outcome(o, c.name()));
                stages[5] = System.nanoTime();
                metrics.singleStages(stages);
              });
        });
  }

  private void batch(HttpServerExchange ex, Collection c, byte[] body) throws ApiException {
    long[] stages = ex.getAttachment(STAGES);
    stages[1] = System.nanoTime();
    DecisionOrder.Ticket ticket = ex.getAttachment(TICKET);
    if (ticket == null) {
      List<Document> docs = analyse(c, body);
      stages[2] = System.nanoTime();
      commit(ex, c, docs, Json.startsWithArray(body));
      return;
    }
    List<Document> docs;
    try {
      docs = analyse(c, body);
    } catch (ApiException | RuntimeException e) {
      ticket.pass(); // refused: the next batch need not wait for this one's answer
      throw e;
    }
    stages[2] = System.nanoTime();
    boolean array = Json.startsWithArray(body);
    order.inTurn(
        ticket,
        () -> {
          try {
            commit(ex, c, docs, array);
          } catch (RuntimeException | Error e) {
            failFromStore(ex, "on " + Route.BATCH.template, e);
          }
        });
  }

  /**
   * Parses and analyses a batch on this worker and idle ones: each document's JSON too when the
   * body has the usual shape ({@link BatchSpans}), else the whole body first, on this worker.
   */
  private List<Document> analyse(Collection c, byte[] body) throws ApiException {
    boolean array = Json.startsWithArray(body);
    int[] spans = BatchSpans.find(body, array, config.maxBatch());
    if (spans == null) {
      List<Json.RawDoc> raw = Json.readBatch(body, array, config.maxBatch());
      if (raw.isEmpty()) {
        throw ApiException.badRequest(
            "the batch is empty; send a JSON array or NDJSON of documents");
      }
      return analyse(c, body, raw.size(), i -> raw.get(i));
    }
    try {
      return analyse(
          c, body, spans.length / 2, i -> Json.readSpan(body, spans[2 * i], spans[2 * i + 1]));
    } catch (ApiException | RuntimeException e) {
      // Malformed JSON anywhere is refused before any document's own error, with the message (and
      // the line and column) that parsing the whole body gives.
      Json.readBatch(body, array, config.maxBatch());
      throw e;
    }
  }

  /** Reads one document of a batch (position i); throws ApiException for malformed JSON. */
  @FunctionalInterface
  private interface RawSource {
    Json.RawDoc read(int i) throws ApiException;
  }

  private List<Document> analyse(Collection c, byte[] body, int n, RawSource raw)
      throws ApiException {
    // On this worker and idle ones (BatchAnalysis): the batch's analysis is most of its cost.
    return BatchAnalysis.run(
        n,
        BatchAnalysis.chunk(body.length, n),
        i -> {
          String where = "document " + i + ": ";
          Json.DocInput in = Json.document(raw.read(i), where, true);
          return new Document(in.id(), analysis(c, in, where), in.timestamp());
        },
        workers,
        config.workerThreads() - 1);
  }

  /**
   * Decides and stores an analysed batch, its probes on this worker and idle ones; renders the
   * answer on this worker while the log forces the batch (a news batch's 100 outcomes took ~2 ms to
   * render at load 12, as long as the force), and sends it once the batch is durable.
   */
  private void commit(HttpServerExchange ex, Collection c, List<Document> docs, boolean array) {
    long[] stages = ex.getAttachment(STAGES);
    stages[3] = System.nanoTime();
    c.checkAndInsertAllAsync(
            docs,
            BatchAnalysis.parallel(workers, config.workerThreads() - 1),
            outcomes -> {
              stages[4] = System.nanoTime();
              Answer a = new Answer(outcomes, batchAnswer(c, outcomes, array));
              stages[5] = System.nanoTime();
              return a;
            })
        .whenComplete(
            (a, error) -> {
              stages[6] = System.nanoTime();
              answer(
                  ex,
                  error,
                  () -> {
                    metrics.documents(c.name(), a.outcomes);
                    send(ex, 200, array ? JSON : NDJSON, a.body);
                    stages[7] = System.nanoTime();
                    metrics.batchStages(stages);
                  });
            });
  }

  /** A batch's outcomes and the answer's body rendered from them. */
  private record Answer(List<Outcome> outcomes, byte[] body) {}

  /** A batch's answer: a JSON array of outcomes, or NDJSON, one outcome per line. */
  private static byte[] batchAnswer(Collection c, List<Outcome> outcomes, boolean array) {
    return Json.write(
        g -> {
          if (array) {
            g.writeStartArray();
          }
          for (Outcome o : outcomes) {
            Json.outcome(g, o, c.name());
            if (!array) {
              g.writeRaw('\n');
            }
          }
          if (array) {
            g.writeEndArray();
          }
        });
  }

  /**
   * Sends what {@code ok} sends, or the error a store future failed with, from the exchange's I/O
   * thread: the store completes futures on its log thread, and an exchange finished there would
   * make XNIO wake the I/O thread once per request to resume reading; queued to the I/O thread, one
   * wake-up serves a whole group commit. Never throws.
   */
  private void answer(HttpServerExchange ex, @Nullable Throwable error, Runnable ok) {
    if (!ex.isInIoThread()) {
      ex.getIoThread().execute(() -> answerNow(ex, error, ok));
    } else {
      answerNow(ex, error, ok);
    }
  }

  private void answerNow(HttpServerExchange ex, @Nullable Throwable error, Runnable ok) {
    try {
      if (error == null) {
        ok.run();
        return;
      }
      Throwable cause =
          error instanceof java.util.concurrent.CompletionException && error.getCause() != null
              ? error.getCause()
              : error;
      if (cause instanceof IOException) {
        LOG.log(Level.ERROR, "the store failed", cause);
        ex.getResponseHeaders().put(RETRY_AFTER, "10");
        fail(ex, new ApiException(503, "the store cannot take writes: " + cause.getMessage()));
      } else {
        fail(ex, internalError("completing a write", cause));
      }
    } catch (RuntimeException e) {
      fail(ex, internalError("answering", e));
    }
  }

  /**
   * Logs an unexpected failure under a fresh request id and returns the 500 to answer: the id and
   * no detail, since exception texts may name files, settings or other clients' data.
   */
  private static ApiException internalError(String what, Throwable e) {
    String id = String.format(java.util.Locale.ROOT, "%016x", ERROR_IDS.incrementAndGet());
    LOG.log(Level.ERROR, "internal error " + what + " (request id " + id + ")", e);
    return new ApiException(
        500, "internal error (request id " + id + "); the server's log has the details");
  }

  // --- answers ------------------------------------------------------------------------------

  private static void send(HttpServerExchange ex, int status, String type, byte[] body) {
    ex.setStatusCode(status);
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, type);
    ex.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
    ex.getResponseSender().send(ByteBuffer.wrap(body));
  }

  private static void fail(HttpServerExchange ex, ApiException e) {
    if (ex.isResponseStarted()) {
      ex.endExchange();
      return;
    }
    send(ex, e.status, JSON, Json.error(e.getMessage()));
  }
}
