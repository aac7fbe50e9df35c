// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.neardup.store.Collection;
import org.neardup.store.CollectionStats;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;

/**
 * The service's Prometheus metrics: request counts and latency histograms by route and status,
 * documents by result, and gauges of every collection (documents, bytes, expiries), the queue and
 * the store. Thread-safe; meters are cached so recording costs a map lookup.
 */
final class Metrics {
  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final FingerprintStore store;
  private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> documents = new ConcurrentHashMap<>();
  private final Map<String, List<Meter>> collectionMeters = new HashMap<>();
  private final Set<String> storeMetrics = new HashSet<>();

  Metrics(FingerprintStore store, Admission admission, ThreadPoolExecutor workers) {
    this.store = store;
    Gauge.builder("neardup.queue.depth", admission, Admission::inFlight)
        .description("requests admitted and not yet answered")
        .register(registry);
    Gauge.builder("neardup.queue.bytes", admission, Admission::inFlightBytes)
        .description("body bytes of requests admitted and not yet answered")
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder("neardup.queue.rejected", admission, a -> a.rejected.sum())
        .description("requests refused with 503 because the queue was full")
        .register(registry);
    Gauge.builder("neardup.workers.queued", workers, w -> w.getQueue().size())
        .description("admitted requests waiting for a worker thread")
        .register(registry);
    Gauge.builder("neardup.workers.active", workers, ThreadPoolExecutor::getActiveCount)
        .register(registry);
    HugePages pages = HugePages.ofThisJvm();
    Gauge.builder("neardup.heap.huge.pages", pages, p -> p.on() ? 1 : 0)
        .description("1 when the heap is on huge pages, 0 when not (the startup log says why)")
        .register(registry);
    stageTimers(
        batchStages,
        "neardup.batch.stage",
        BATCH_STAGES,
        "the parts of a batch request's time, in order: read, analyse, turn, decide,"
            + " render, durable, answer (see the server's Metrics.BATCH_STAGES)");
    stageTimers(
        singleStages,
        "neardup.single.stage",
        SINGLE_STAGES,
        "the parts of a single check-and-insert's time, in order: read, analyse, decide,"
            + " durable, answer (see the server's Metrics.SINGLE_STAGES)");
    new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.jvm.JvmGcMetrics().bindTo(registry);
  }

  private static final Set<String> METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

  /**
   * The method's label: one of the standard methods, else {@code other}, since a client may send
   * any token as a method and each label would be a series of its own.
   */
  static String methodLabel(io.undertow.util.HttpString method) {
    String m = method.toString();
    return METHODS.contains(m) ? m : "other";
  }

  /** Records one answered request. */
  void request(String route, String method, int status, long nanos) {
    String key = route + ' ' + method + ' ' + status;
    Timer t = timers.get(key);
    if (t == null) {
      t =
          timers.computeIfAbsent(
              key,
              k ->
                  Timer.builder("neardup.http.requests")
                      .description("HTTP requests by route, method and status")
                      .tag("route", route)
                      .tag("method", method)
                      .tag("status", Integer.toString(status))
                      .publishPercentileHistogram()
                      .minimumExpectedValue(Duration.ofMillis(1))
                      .maximumExpectedValue(Duration.ofSeconds(10))
                      .register(registry));
    }
    t.record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * The parts of a batch request, in order, each timed from the end of the one before: {@code read}
   * from the request's start to a worker taking it (the body's arrival, its UTF-8 check, the wait
   * for a worker), {@code analyse} (parsing and analysis, on every idle worker), {@code turn} (an
   * ordered batch's wait for its predecessors' decisions), {@code decide} (probes and inserts),
   * {@code render} (the answer's body, while the log forces), {@code durable} (the rest of the wait
   * for the force) and {@code answer} (handing the answer to the I/O thread and sending it).
   */
  static final List<String> BATCH_STAGES =
      List.of("read", "analyse", "turn", "decide", "render", "durable", "answer");

  private final Timer[] batchStages = new Timer[BATCH_STAGES.size()];

  /**
   * The parts of a single check-and-insert ({@code POST /v1/collections/{c}/documents}), in order,
   * each timed from the end of the one before: {@code read} (the body's arrival, its UTF-8 check,
   * the wait for a thread), {@code analyse} (parsing and analysis), {@code decide} (the probe:
   * index search, band lookup, the candidates' sketches read and verified; then the insert under
   * the lock and the log append), {@code durable} (the wait for the log's write and fsync) and
   * {@code answer} (handing the answer to the I/O thread and sending it). The stage that makes a
   * slow single slow, where the request histogram says only that it was.
   */
  static final List<String> SINGLE_STAGES =
      List.of("read", "analyse", "decide", "durable", "answer");

  private final Timer[] singleStages = new Timer[SINGLE_STAGES.size()];

  private void stageTimers(Timer[] into, String name, List<String> stages, String description) {
    for (int i = 0; i < into.length; i++) {
      into[i] =
          Timer.builder(name)
              .description(description)
              .tag("stage", stages.get(i))
              .publishPercentileHistogram()
              .minimumExpectedValue(Duration.ofNanos(100_000))
              .maximumExpectedValue(Duration.ofSeconds(10))
              .register(registry);
    }
  }

  /**
   * Records one answered batch's stages: {@code at[0]} its start, {@code at[i + 1]} the end of
   * stage i of {@link #BATCH_STAGES} ({@link System#nanoTime}).
   */
  void batchStages(long[] at) {
    record(batchStages, at);
  }

  /** As {@link #batchStages} for a single check-and-insert's {@link #SINGLE_STAGES}. */
  void singleStages(long[] at) {
    record(singleStages, at);
    SingleCheckEvent.record(at);
  }

  private static void record(Timer[] stages, long[] at) {
    for (int i = 0; i < stages.length; i++) {
      stages[i].record(Math.max(0, at[i + 1] - at[i]), TimeUnit.NANOSECONDS);
    }
  }

  /** Counts one document's outcome in a collection. */
  void document(String collection, Outcome o) {
    counter(collection, result(o)).increment();
  }

  /** {@link #document} for every outcome of a batch: one counter update per result. */
  void documents(String collection, List<Outcome> outcomes) {
    int fresh = 0;
    int duplicates = 0;
    for (Outcome o : outcomes) {
      if (o.status() == Outcome.Status.STORED) {
        fresh += o.isNew() ? 1 : 0;
        duplicates += o.isNew() ? 0 : 1;
      } else {
        document(collection, o);
      }
    }
    if (fresh > 0) {
      counter(collection, "new").increment(fresh);
    }
    if (duplicates > 0) {
      counter(collection, "duplicate").increment(duplicates);
    }
  }

  private static String result(Outcome o) {
    return o.status() == Outcome.Status.STORED
        ? (o.isNew() ? "new" : "duplicate")
        : Json.status(o.status());
  }

  private Counter counter(String collection, String result) {
    String key = collection + ' ' + result;
    Counter c = documents.get(key);
    if (c == null) {
      c =
          documents.computeIfAbsent(
              key,
              k ->
                  Counter.builder("neardup.documents")
                      .description(
                          "documents by result: new, duplicate (both stored), exists, expired,"
                              + " checked")
                      .tag("collection", collection)
                      .tag("result", result)
                      .register(registry));
    }
    return c;
  }

  /** Brings the per-collection and store meters up to date and renders the exposition text. */
  synchronized String scrape() {
    Set<String> names = new HashSet<>();
    for (Collection c : store.collections()) {
      names.add(c.name());
      collectionMeters.computeIfAbsent(c.name(), this::registerCollection);
    }
    for (String gone : new ArrayList<>(collectionMeters.keySet())) {
      if (!names.contains(gone)) {
        for (Meter m : collectionMeters.remove(gone)) {
          registry.remove(m);
        }
        documents.keySet().removeIf(k -> k.startsWith(gone + ' '));
        registry.getMeters().stream()
            .filter(m -> gone.equals(m.getId().getTag("collection")))
            .forEach(registry::remove);
      }
    }
    for (String key : store.metrics().keySet()) {
      if (storeMetrics.add(key)) {
        ToDoubleFunction<FingerprintStore> f =
            s -> {
              Number n = s.metrics().get(key);
              return n == null ? Double.NaN : n.doubleValue();
            };
        if (key.endsWith("_total")) {
          String name = "neardup.store." + key.substring(0, key.length() - "_total".length());
          FunctionCounter.builder(name, store, f).tag("store", store.kind()).register(registry);
        } else {
          Gauge.builder("neardup.store." + key, store, f)
              .tag("store", store.kind())
              .register(registry);
        }
      }
    }
    return registry.scrape();
  }

  private List<Meter> registerCollection(String name) {
    List<Meter> out = new ArrayList<>();
    out.add(gauge("neardup.index.documents", name, "documents stored", CollectionStats::documents));
    out.add(
        Gauge.builder(
                "neardup.index.bytes", store, s -> stat(s, name, CollectionStats::ramBytesUsed))
            .description("heap bytes of the collection's index, ids and bookkeeping")
            .baseUnit("bytes")
            .tag("collection", name)
            .register(registry));
    out.add(
        counter(
            "neardup.index.expired",
            name,
            "documents removed by retention",
            CollectionStats::expired));
    out.add(
        counter(
            "neardup.index.deleted",
            name,
            "documents removed by delete",
            CollectionStats::deleted));
    return out;
  }

  private Meter gauge(
      String metric, String name, String description, ToDoubleFunction<CollectionStats> f) {
    return Gauge.builder(metric, store, s -> stat(s, name, f))
        .description(description)
        .tag("collection", name)
        .register(registry);
  }

  private Meter counter(
      String metric, String name, String description, ToDoubleFunction<CollectionStats> f) {
    return FunctionCounter.builder(metric, store, s -> stat(s, name, f))
        .description(description)
        .tag("collection", name)
        .register(registry);
  }

  private static double stat(FingerprintStore s, String name, ToDoubleFunction<CollectionStats> f) {
    Collection c = s.collection(name);
    return c == null ? Double.NaN : f.applyAsDouble(c.stats());
  }
}
