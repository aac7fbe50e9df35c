// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.DaemonThreads;

/**
 * Decides the batches of one client's stream in the order the client numbered them, whatever order
 * they arrive and finish their analysis in: a client may keep several batches in flight (so the
 * server analyses the next batch while the previous one is decided, forced to disk and answered)
 * and still get the answers that sending them one at a time gives. The client names its stream and
 * numbers its requests from 0 in the {@value #HEADER} header, {@code <stream>/<number>}.
 *
 * <p>Thread-safe. A request whose turn has not come is parked as a task (no thread waits) and run
 * by the thread that finishes its predecessor. Every numbered request passes exactly once: decided
 * ({@link #inTurn}) or refused at any step ({@link Ticket#pass}, which the exchange's completion
 * calls for requests that never reached the decision), so a refused batch never holds up the next.
 * A number that never arrives (a client that died, a request lost) holds up the ones after it for
 * at most the timeout, after which they run in their order. Costs one map lookup per request.
 */
final class DecisionOrder implements AutoCloseable {
  /*
   * Invariants, under the lock of this: streams.get(s).next is the lowest number of stream s not
   * passed yet; parked holds tasks with numbers > next only; a task leaves parked exactly once,
   * to run. Streams are kept until there are MAX_STREAMS of them, then the least recently used
   * idle ones go (a forgotten stream that comes back starts again at 0, so its next request waits
   * for the timeout at worst).
   */
  static final String HEADER = "Neardup-Sequence";
  static final int MAX_STREAMS = 4096;
  private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9_-]{1,64})/([0-9]{1,18})");

  private final long timeoutMillis;
  private final Executor runner;
  private final ScheduledExecutorService timer;
  private final Map<String, Stream> streams = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * @param timeoutMillis how long a request waits for a missing predecessor
   * @param runner where tasks released by the timeout run (the workers)
   */
  DecisionOrder(long timeoutMillis, Executor runner) {
    this.timeoutMillis = timeoutMillis;
    this.runner = runner;
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("neardup-order-timer"));
    t.setRemoveOnCancelPolicy(true);
    this.timer = t;
  }

  /**
   * The ticket a header value names, or null without one.
   *
   * @throws ApiException (400) for a value that is not {@code <stream>/<number>}
   */
  @Nullable Ticket ticket(@Nullable String header) throws ApiException {
    if (header == null) {
      return null;
    }
    Matcher m = VALUE.matcher(header.trim());
    if (!m.matches()) {
      throw ApiException.badRequest(
          "header "
              + HEADER
              + " must be <stream>/<number>: a stream name of 1-64 letters, digits, '-' or '_'"
              + " and a number from 0, e.g. 'a1b2c3/0'; got '"
              + (header.length() > 80 ? header.substring(0, 80) + "..." : header)
              + "'");
    }
    return new Ticket(m.group(1), Long.parseLong(m.group(2)));
  }

  /**
   * Runs {@code decide} once every lower number of the ticket's stream has passed, then passes the
   * ticket (and runs the requests it held up). {@code decide} must not throw. A ticket that has
   * passed already (refused earlier), and a number the stream has parked already (a client that
   * numbers two requests alike), run at once.
   */
  void inTurn(Ticket t, Runnable decide) {
    if (!t.taken.compareAndSet(false, true)) {
      decide.run();
      return;
    }
    enter(t, decide);
  }

  /** Passes a ticket without a decision (its request was refused). Idempotent per ticket. */
  private void pass(Ticket t) {
    if (t.taken.compareAndSet(false, true)) {
      enter(t, () -> {}); // in its turn: a later number must still wait for the ones before
    }
  }

  private void enter(Ticket t, Runnable decide) {
    boolean twice = false;
    synchronized (this) {
      Stream s = stream(t.stream);
      if (t.number > s.next) {
        if (s.parked.containsKey(t.number)) {
          twice = true;
        } else {
          s.parked.put(t.number, decide);
          s.timeouts.put(t.number, timeout(t.stream, t.number));
          return;
        }
      }
    }
    if (twice) {
      decide.run(); // the number's turn belongs to the one parked
      return;
    }
    runAndPass(t.stream, t.number, decide);
  }

  /** Runs task (if any) for number, then every parked task whose turn that makes. */
  private void runAndPass(String name, long number, @Nullable Runnable task) {
    long n = number;
    Runnable next = task;
    while (true) {
      if (next != null) {
        try {
          next.run();
        } catch (RuntimeException e) {
          System.getLogger(DecisionOrder.class.getName())
              .log(System.Logger.Level.ERROR, "an ordered decision failed", e);
        }
      }
      synchronized (this) {
        Stream s = stream(name);
        if (n >= s.next) {
          s.next = n + 1; // a number below next (one released by its timeout) moves nothing
        }
        Map.Entry<Long, Runnable> e = s.parked.firstEntry();
        if (e == null || e.getKey() != s.next) {
          return;
        }
        s.parked.remove(e.getKey());
        cancel(s, e.getKey());
        n = e.getKey();
        next = e.getValue();
      }
    }
  }

  /** After the timeout, runs the parked tasks of the stream from the lowest, skipping the gap. */
  private java.util.concurrent.@Nullable ScheduledFuture<?> timeout(String name, long number) {
    try {
      return timer.schedule(
          () -> release(name, number, false), timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return null; // closing: release() below in close() runs what is parked
    }
  }

  /**
   * Runs the stream's lowest parked task, giving up on the numbers below it: after the timeout of
   * {@code number} if it is still parked, or ({@code any}) whatever is parked.
   */
  private void release(String name, long number, boolean any) {
    Runnable task;
    long first;
    synchronized (this) {
      Stream s = streams.get(name);
      if (s == null || s.parked.isEmpty() || (!any && !s.parked.containsKey(number))) {
        return; // ran meanwhile
      }
      Map.Entry<Long, Runnable> e = s.parked.pollFirstEntry();
      first = e.getKey();
      task = e.getValue();
      cancel(s, first);
      s.next = Math.max(s.next, first);
    }
    if (any) {
      runAndPass(name, first, task); // closing: here, in order
      return;
    }
    try {
      runner.execute(() -> runAndPass(name, first, task));
    } catch (RejectedExecutionException e) {
      runAndPass(name, first, task);
    }
  }

  private static void cancel(Stream s, long number) {
    java.util.concurrent.ScheduledFuture<?> f = s.timeouts.remove(number);
    if (f != null) {
      f.cancel(false);
    }
  }

  private Stream stream(String name) {
    Stream s = streams.get(name);
    if (s == null) {
      if (streams.size() >= MAX_STREAMS) {
        Iterator<Stream> it = streams.values().iterator();
        while (it.hasNext() && streams.size() >= MAX_STREAMS) {
          if (it.next().parked.isEmpty()) {
            it.remove();
          }
        }
      }
      s = new Stream();
      streams.put(name, s);
    }
    return s;
  }

  /** Streams known, for tests. */
  synchronized int streams() {
    return streams.size();
  }

  /**
   * Runs every parked task (out of order: their predecessors will not come) and stops the timer.
   */
  @Override
  public void close() {
    timer.shutdownNow();
    while (true) {
      String name;
      long number;
      synchronized (this) {
        Map.Entry<String, Stream> any = null;
        for (Map.Entry<String, Stream> e : streams.entrySet()) {
          if (!e.getValue().parked.isEmpty()) {
            any = e;
            break;
          }
        }
        if (any == null) {
          return;
        }
        name = any.getKey();
        number = any.getValue().parked.firstKey();
      }
      release(name, number, true);
    }
  }

  private static final class Stream {
    long next;
    final TreeMap<Long, Runnable> parked = new TreeMap<>();
    final Map<Long, java.util.concurrent.ScheduledFuture<?>> timeouts = new HashMap<>();
  }

  /** One numbered request of a stream; passes once, by its decision or its refusal. */
  final class Ticket {
    final String stream;
    final long number;
    final AtomicBoolean taken = new AtomicBoolean();

    Ticket(String stream, long number) {
      this.stream = stream;
      this.number = number;
    }

    /** Whether this ticket has passed or is being decided. */
    boolean passed() {
      return taken.get();
    }

    /** Passes this ticket if it has not passed (its request ends without a decision). */
    void pass() {
      DecisionOrder.this.pass(this);
    }

    @Override
    public String toString() {
      return stream + "/" + number;
    }
  }
}
