// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.handlers.GracefulShutdownHandler;
import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.neardup.internal.DaemonThreads;
import org.neardup.store.FingerprintStore;
import org.xnio.Options;

/**
 * The running service: Undertow on {@link ServerConfig#host()}:{@link ServerConfig#port()} in front
 * of a store, which it owns from {@link #start} on and closes on {@link #close()}.
 *
 * <p>{@link #close()} is the graceful shutdown that SIGTERM triggers: /ready turns 503 and every
 * new request gets 503, requests in progress finish and are answered (up to {@link
 * ServerConfig#shutdownTimeout()}), the listener closes, then the store syncs, writes a snapshot
 * and closes.
 */
public final class NeardupServer implements Closeable {
  private static final System.Logger LOG = System.getLogger(NeardupServer.class.getName());

  private final FingerprintStore store;
  private final ServerConfig config;
  private final Undertow undertow;
  private final GracefulShutdownHandler graceful;
  private final Api api;
  private final ThreadPoolExecutor workers;
  private final ThreadPoolExecutor singles;
  private final DecisionOrder order;
  private final int port;
  private final CountDownLatch closed = new CountDownLatch(1);
  private boolean closing;

  private NeardupServer(ServerConfig config, FingerprintStore store) throws IOException {
    this.store = store;
    this.config = config;
    this.workers = pool("neardup-worker-", config.workerThreads());
    // Requests other than batches (single check-and-inserts, checks, reads) have threads of their
    // own, so that they never queue behind the analysis of big batches: the operating system
    // shares the cores between them, and a single insert waits a time slice, not a batch.
    this.singles = pool("neardup-single-", config.workerThreads());
    Admission admission = new Admission(config.maxInFlight(), config.maxQueuedBytes());
    Metrics metrics = new Metrics(store, admission, workers);
    String name = config.defaultCollection();
    if (name != null && store.collection(name) == null) {
      try {
        store.create(name, config.defaults());
      } catch (IllegalArgumentException e) {
        // Another node sharing the store created it meanwhile; anything else is an error.
        if (store.collection(name) == null) {
          throw e;
        }
      }
    }
    this.order = new DecisionOrder(config.guards().requestTimeout().toMillis(), workers);
    this.api = new Api(store, config, admission, workers, singles, metrics, order);
    this.graceful = new GracefulShutdownHandler(routing(api));
    Guards guards = config.guards();
    Undertow.Builder builder = Undertow.builder();
    if (guards.tls()) {
      builder.addHttpsListener(
          config.port(), config.host(), Tls.context(guards.tlsCert(), guards.tlsKey()));
    } else {
      builder.addHttpListener(config.port(), config.host());
    }
    int idle = (int) guards.idleTimeout().toMillis();
    this.undertow =
        builder
            .setIoThreads(config.ioThreads())
            // Against clients that hold connections: the headers must arrive within the request
            // timeout (the body is timed in Api), a connection may be silent for the idle timeout
            // between requests and while a request or its answer is on the way, then it is closed.
            .setServerOption(
                UndertowOptions.REQUEST_PARSE_TIMEOUT, (int) guards.requestTimeout().toMillis())
            .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, idle)
            .setSocketOption(Options.READ_TIMEOUT, idle)
            .setSocketOption(Options.WRITE_TIMEOUT, idle)
            .setWorkerThreads(2)
            // Api enforces maxRequestBytes; this is the hard cut for chunked bodies (see Api).
            .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, 4L * config.maxRequestBytes())
            .setServerOption(UndertowOptions.ALWAYS_SET_DATE, false)
            .setServerOption(UndertowOptions.RECORD_REQUEST_START_TIME, false)
            .setSocketOption(Options.BACKLOG, 1024)
            .setHandler(graceful)
            .build();
    undertow.start();
    this.port = ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
  }

  private static ThreadPoolExecutor pool(String name, int threads) {
    ThreadPoolExecutor p =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), // bounded by Admission: at most maxInFlight tasks
            DaemonThreads.numbered(name));
    p.allowCoreThreadTimeOut(true);
    return p;
  }

  /**
   * The handler tree of the service: the same in {@link Main} and in tests. Exposed so tests and
   * embedders can mount it.
   */
  static HttpHandler routing(Api api) {
    return api;
  }

  /**
   * Starts the service on {@code store}, creating the default collection if it is missing.
   *
   * @throws IllegalArgumentException if the default collection's settings are not valid here
   * @throws IOException if the port cannot be bound or the store fails
   */
  public static NeardupServer start(ServerConfig config, FingerprintStore store)
      throws IOException {
    try {
      return new NeardupServer(config, store);
    } catch (RuntimeException e) {
      if (e.getCause() instanceof java.net.BindException b) {
        // Undertow wraps bind failures, whose message ("Address already in use") names no port.
        java.net.BindException named =
            new java.net.BindException(
                "cannot listen on "
                    + config.host()
                    + ":"
                    + config.port()
                    + ": "
                    + b.getMessage()
                    + " (another process holds the port? choose another with --port)");
        named.initCause(b);
        throw named;
      }
      if (e.getCause() instanceof IOException) {
        throw (IOException) e.getCause(); // Undertow wraps bind failures
      }
      throw e;
    }
  }

  /** The port listened on (the real one when the config asked for 0). */
  public int port() {
    return port;
  }

  /** The base URI, e.g. {@code http://127.0.0.1:8080} ({@code https} with TLS). */
  public URI uri() {
    String h = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
    return URI.create((config.guards().tls() ? "https://" : "http://") + h + ":" + port);
  }

  public FingerprintStore store() {
    return store;
  }

  /** Blocks until {@link #close()} has finished. */
  public void awaitClosed() throws InterruptedException {
    closed.await();
  }

  /** Graceful shutdown; see the class doc. Idempotent. */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
    }
    try {
      api.stopAccepting();
      // Not ListenerInfo.suspend(): in Undertow 2.3 it also closes every open connection, which
      // would cut the requests in progress. New requests get 503 from the graceful handler.
      graceful.shutdown();
      if (!graceful.awaitShutdown(config.shutdownTimeout().toMillis())) {
        LOG.log(
            Level.WARNING,
            "requests still in progress after {0}; stopping anyway",
            config.shutdownTimeout());
      }
      undertow.stop();
      order.close();
      workers.shutdown();
      singles.shutdown();
      workers.awaitTermination(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS);
      singles.awaitTermination(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        store.close();
      } finally {
        closed.countDown();
      }
    }
  }
}
