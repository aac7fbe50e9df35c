// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bounds the work the server holds: requests admitted and not yet answered, and the bytes of their
 * bodies. A request that does not fit is refused at once (503 with Retry-After) instead of being
 * queued, so memory does not grow with the load. Thread-safe, lock-free.
 */
final class Admission {
  private final int maxRequests;
  private final long maxBytes;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  final LongAdder rejected = new LongAdder();

  Admission(int maxRequests, long maxBytes) {
    this.maxRequests = maxRequests;
    this.maxBytes = maxBytes;
  }

  /** Admits a request reserving {@code reserve} body bytes, or returns false. */
  boolean tryAcquire(long reserve) {
    if (requests.incrementAndGet() > maxRequests) {
      requests.decrementAndGet();
      rejected.increment();
      return false;
    }
    if (bytes.addAndGet(reserve) > maxBytes && reserve > 0) {
      bytes.addAndGet(-reserve);
      requests.decrementAndGet();
      rejected.increment();
      return false;
    }
    return true;
  }

  /**
   * Counts {@code n} more body bytes of an admitted request, or returns false (and counts nothing)
   * when they would pass the budget.
   */
  boolean tryAddBytes(long n) {
    if (bytes.addAndGet(n) > maxBytes) {
      bytes.addAndGet(-n);
      rejected.increment();
      return false;
    }
    return true;
  }

  void release(long reserve) {
    bytes.addAndGet(-reserve);
    requests.decrementAndGet();
  }

  /** Requests admitted and not yet answered: the queue depth. */
  int inFlight() {
    return requests.get();
  }

  long inFlightBytes() {
    return bytes.get();
  }
}
