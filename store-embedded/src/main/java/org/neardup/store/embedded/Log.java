// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.DaemonThreads;

/**
 * The writing end of the log: appends records to an in-memory buffer and lets one thread write them
 * out and fsync them, so that one fsync commits every record that arrived while the previous one
 * ran (group commit).
 *
 * <p>The log thread writes when someone waits ({@link #await}, {@link #whenAcknowledged}) for a
 * position not yet acknowledged, or when the buffer passes {@value #FLUSH_AT} bytes; it does not
 * write on every append. A batch appends its records one by one and waits once, for its last:
 * writing on the first append would cut the batch into several fsyncs, each costing the kernel tens
 * of microseconds of CPU and the batch a wake-up of the log thread.
 *
 * <p>Thread-safe. {@link #append} is cheap (a copy and a CRC under a lock) and returns the record's
 * end position; {@link #await} blocks until that position is acknowledged: handed to the operating
 * system, and forced to the disk when the policy is {@link FsyncPolicy#ALWAYS}. Records reach the
 * file in append order, so a position acknowledged means every earlier record is too.
 *
 * <p>A failed write or fsync is final: every waiter and every later append gets an IOException (the
 * disk state after a failed fsync is unknown, as PostgreSQL learned in 2018), and the store must be
 * reopened.
 */
final class Log implements Closeable {
  /*
   * Locks: ioLock (the file: write, force, rotate) is always taken before lock (the buffer). The
   * flusher holds ioLock from the buffer swap to the end of its write and force, so a rotation
   * can never slip between a swap and its write and reorder records across segments.
   */
  private static final int INITIAL_BUFFER = 1 << 20;
  private static final int MAX_KEPT_BUFFER = 8 << 20;

  /** Buffered bytes at which the log thread writes them out (without fsync) unasked. */
  private static final int FLUSH_AT = 1 << 20;

  /** Zeros written ahead of the log at a time, and the least kept ahead (see Preallocator). */
  static final long PREALLOCATE = 16 << 20;

  static final long PREALLOCATE_LOW_WATER = 8 << 20;

  private final Path dir;
  private final FsyncPolicy policy;
  private final long intervalNanos;

  private final ReentrantLock ioLock = new ReentrantLock();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition hasData = lock.newCondition();
  private final ReentrantLock ackLock = new ReentrantLock();
  private final Condition acked = ackLock.newCondition();

  private byte[] active = new byte[INITIAL_BUFFER];
  private int activeLength;
  private byte[] spare = new byte[INITIAL_BUFFER];
  private long appended;

  /** The highest position anyone waits for; under lock. */
  private long wanted;

  private volatile long written;
  private volatile long durable;
  private volatile @Nullable IOException failure;
  private volatile boolean closing;
  private boolean closed;

  private FileChannel channel;
  private long segment;

  /** Where the records of the current segment end; under ioLock. */
  private long fileEnd;

  private final Preallocator preallocator;
  private final Thread preallocatorThread;

  private final Thread flusher;
  private final PriorityQueue<Waiter> waiters =
      new PriorityQueue<>(Comparator.comparingLong(Waiter::position));

  /** A future to complete once its position is acknowledged. */
  private record Waiter(long position, CompletableFuture<Object> future, Object value) {}

  final LongAdder records = new LongAdder();
  final LongAdder syncs = new LongAdder();
  final LongAdder syncNanos = new LongAdder();
  final LongAdder bytesWritten = new LongAdder();

  private Log(Path dir, long segment, FsyncPolicy policy, Duration interval) throws IOException {
    this.dir = dir;
    this.policy = policy;
    this.intervalNanos = interval.toNanos();
    this.segment = segment;
    this.preallocator = new Preallocator(PREALLOCATE, PREALLOCATE_LOW_WATER);
    this.channel = createSegment(segment);
    this.flusher = DaemonThreads.unstarted("neardup-log-" + dir.getFileName(), this::run);
    this.preallocatorThread =
        DaemonThreads.unstarted("neardup-log-zeros-" + dir.getFileName(), preallocator);
  }

  /** Creates segment file {@code segment} in {@code dir} and starts the log thread. */
  static Log create(Path dir, long segment, FsyncPolicy policy, Duration interval)
      throws IOException {
    Log log = new Log(dir, segment, policy, interval);
    log.flusher.start();
    log.preallocatorThread.start();
    return log;
  }

  private FileChannel createSegment(long number) throws IOException {
    Path file = dir.resolve(LogFormat.fileName(number));
    FileChannel ch = Files2.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      ByteBuffer h = ByteBuffer.wrap(LogFormat.header(number));
      while (h.hasRemaining()) {
        ch.write(h);
      }
      ch.force(true);
      Files2.syncDirectory(dir);
    } catch (IOException e) {
      ch.close();
      throw e;
    }
    fileEnd = LogFormat.HEADER_SIZE;
    preallocator.attach(ch, fileEnd);
    return ch;
  }

  /** The number of the segment being appended to. */
  long segment() {
    ioLock.lock();
    try {
      return segment;
    } finally {
      ioLock.unlock();
    }
  }

  /** Bytes appended since the log was created (frames included). */
  long appended() {
    lock.lock();
    try {
      return appended;
    } finally {
      lock.unlock();
    }
  }

  FsyncPolicy policy() {
    return policy;
  }

  /** Throws the failure that stopped the log, if any. */
  void checkHealthy() throws IOException {
    IOException f = failure;
    if (f != null) {
      throw new IOException("the log failed earlier; reopen the store: " + f.getMessage(), f);
    }
    if (closing) {
      throw new IOException("the log is closed");
    }
  }

  boolean isHealthy() {
    return failure == null && !closing;
  }

  /**
   * Appends one record; returns its end position, to pass to {@link #await}.
   *
   * @throws IOException if the log has failed or is closed
   */
  long append(byte[] body) throws IOException {
    int len = body.length;
    if (len < 1 || len > LogFormat.MAX_BODY) {
      throw new IllegalArgumentException(
          "record length " + len + " is outside [1, " + LogFormat.MAX_BODY + "]");
    }
    lock.lock();
    try {
      checkHealthy();
      int need = activeLength + LogFormat.FRAME_SIZE + len;
      if (need > active.length) {
        active = java.util.Arrays.copyOf(active, Math.max(need, active.length * 2));
      }
      int frame = activeLength;
      Bytes.putInt(active, frame, len);
      System.arraycopy(body, 0, active, frame + LogFormat.FRAME_SIZE, len);
      Bytes.putInt(active, frame + 4, LogFormat.frameCrc(active, frame, body, 0, len));
      activeLength = need;
      appended += LogFormat.FRAME_SIZE + len;
      records.increment();
      if (frame < FLUSH_AT && need >= FLUSH_AT) {
        hasData.signal();
      }
      return appended;
    } finally {
      lock.unlock();
    }
  }

  private long acknowledged() {
    return policy == FsyncPolicy.ALWAYS ? durable : written;
  }

  /** Asks the log thread to acknowledge up to {@code position}. */
  private void want(long position) {
    lock.lock();
    try {
      if (position > wanted) {
        wanted = position;
        hasData.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the log thread has been asked for a position it has not acknowledged; under lock. */
  private boolean demanded() {
    return wanted > acknowledged();
  }

  /** Blocks until the record ending at {@code position} is acknowledged (see the class doc). */
  void await(long position) throws IOException {
    if (acknowledged() >= position) {
      return;
    }
    want(position);
    ackLock.lock();
    try {
      while (acknowledged() < position) {
        checkHealthy();
        acked.awaitUninterruptibly();
      }
    } finally {
      ackLock.unlock();
    }
  }

  /**
   * A future that completes with {@code value} once the record ending at {@code position} is
   * acknowledged, on the log's thread (or at once if it already is); exceptionally if the log fails
   * first.
   */
  @SuppressWarnings("unchecked")
  <T> CompletableFuture<T> whenAcknowledged(long position, T value) {
    CompletableFuture<Object> f = new CompletableFuture<>();
    if (acknowledged() < position) {
      boolean waiting = false;
      synchronized (waiters) {
        // Checked again under the lock: signalAcks() publishes progress before taking it.
        if (acknowledged() < position && failure == null) {
          waiters.add(new Waiter(position, f, value));
          waiting = true;
        }
      }
      if (waiting) {
        want(position);
        return (CompletableFuture<T>) (CompletableFuture<?>) f;
      }
    }
    IOException fail = failure;
    if (fail != null && acknowledged() < position) {
      f.completeExceptionally(new IOException("the log failed: " + fail.getMessage(), fail));
    } else {
      f.complete(value);
    }
    return (CompletableFuture<T>) (CompletableFuture<?>) f;
  }

  /** Forces everything appended so far to the disk, whatever the policy. */
  void sync() throws IOException {
    ioLock.lock();
    try {
      checkHealthy();
      writeOutLocked();
      forceLocked();
    } finally {
      ioLock.unlock();
    }
    signalAcks();
  }

  /**
   * Forces and closes the current segment and starts the next one; returns the number of the closed
   * segment. Callers that need a clean cut hold every writer out meanwhile.
   */
  long rotate() throws IOException {
    ioLock.lock();
    try {
      checkHealthy();
      writeOutLocked();
      forceLocked();
      closeSegmentLocked();
      long closedSegment = segment;
      try {
        channel = createSegment(segment + 1);
      } catch (IOException e) {
        failure = e;
        throw e;
      }
      segment++;
      return closedSegment;
    } finally {
      ioLock.unlock();
      signalAcks();
    }
  }

  /** Writes the active buffer; caller holds ioLock. */
  private void writeOutLocked() throws IOException {
    lock.lock();
    try {
      if (activeLength > 0) {
        try {
          writeFully(active, activeLength);
        } catch (IOException e) {
          failure = e;
          throw e;
        }
        activeLength = 0;
      }
      written = appended;
    } finally {
      lock.unlock();
    }
  }

  private void forceLocked() throws IOException {
    long target = written;
    long t0 = System.nanoTime();
    try {
      channel.force(false);
    } catch (IOException e) {
      failure = e;
      throw e;
    }
    syncNanos.add(System.nanoTime() - t0);
    syncs.increment();
    durable = target;
  }

  private void writeFully(byte[] buf, int len) throws IOException {
    preallocator.beforeWrite(fileEnd + len);
    ByteBuffer b = ByteBuffer.wrap(buf, 0, len);
    while (b.hasRemaining()) {
      channel.write(b);
    }
    fileEnd += len;
    bytesWritten.add(len);
  }

  /**
   * Cuts the zeros written ahead off the current segment, forces it and closes it; caller holds
   * ioLock and has forced every record. A closed segment ends at its last record.
   */
  private void closeSegmentLocked() throws IOException {
    preallocator.detach();
    try {
      channel.truncate(fileEnd);
      channel.force(true);
      channel.close();
    } catch (IOException e) {
      failure = e;
      throw e;
    }
  }

  private void signalAcks() {
    ackLock.lock();
    try {
      acked.signalAll();
    } finally {
      ackLock.unlock();
    }
    long done = acknowledged();
    IOException fail = failure;
    List<Waiter> ready = null;
    synchronized (waiters) {
      while (!waiters.isEmpty() && (waiters.peek().position <= done || fail != null)) {
        if (ready == null) {
          ready = new ArrayList<>();
        }
        ready.add(waiters.poll());
      }
    }
    if (ready != null) {
      for (Waiter w : ready) {
        if (w.position <= done) {
          w.future.complete(w.value);
        } else {
          w.future.completeExceptionally(
              new IOException("the log failed: " + fail.getMessage(), fail));
        }
      }
    }
  }

  private void run() {
    long lastSync = System.nanoTime();
    boolean unsynced = false;
    try {
      while (true) {
        boolean demand;
        lock.lock();
        try {
          while (!closing && !demanded() && activeLength < FLUSH_AT) {
            if (unsynced && policy == FsyncPolicy.INTERVAL) {
              long wait = intervalNanos - (System.nanoTime() - lastSync);
              if (wait <= 0) {
                break;
              }
              hasData.awaitNanos(wait);
            } else {
              hasData.await();
            }
          }
          if (activeLength == 0 && closing) {
            return;
          }
          demand = demanded();
        } finally {
          lock.unlock();
        }
        ioLock.lock();
        try {
          byte[] buf;
          int len;
          long end;
          lock.lock();
          try {
            buf = active;
            len = activeLength;
            end = appended;
            active = spare;
            activeLength = 0;
          } finally {
            lock.unlock();
          }
          if (len > 0) {
            try {
              writeFully(buf, len);
            } catch (IOException e) {
              failure = e;
              throw e;
            }
            written = end;
            unsynced = policy != FsyncPolicy.NEVER;
          }
          spare = buf.length > MAX_KEPT_BUFFER ? new byte[INITIAL_BUFFER] : buf;
          long now = System.nanoTime();
          if (unsynced
              && ((policy == FsyncPolicy.ALWAYS && demand)
                  || (policy == FsyncPolicy.INTERVAL && now - lastSync >= intervalNanos)
                  || closing)) {
            forceLocked();
            lastSync = now;
            unsynced = false;
          }
        } finally {
          ioLock.unlock();
        }
        signalAcks();
      }
    } catch (IOException | RuntimeException e) {
      // Unchecked too: a log thread that died without a failure would leave every writer waiting
      // for an acknowledgement forever.
      failure = e instanceof IOException io ? io : new IOException("the log thread failed", e);
      System.getLogger(Log.class.getName())
          .log(
              System.Logger.Level.ERROR,
              "log write failed in " + dir + "; the store stops taking writes",
              e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      signalAcks();
    }
  }

  /** Writes and forces what is left, stops the log thread and closes the segment. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    lock.lock();
    try {
      closing = true;
      hasData.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      flusher.join(TimeUnit.SECONDS.toMillis(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ioLock.lock();
    try {
      preallocator.stop();
      if (failure == null) {
        writeOutLocked();
        forceLocked();
        closeSegmentLocked();
      } else {
        preallocator.detach();
        channel.close();
      }
    } finally {
      ioLock.unlock();
      signalAcks();
    }
  }
}
