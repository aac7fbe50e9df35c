// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to, for testing retention without sleeping. Thread-safe. */
public final class ManualClock implements InstantSource {
  private final AtomicLong millis;

  public ManualClock(long epochMillis) {
    this.millis = new AtomicLong(epochMillis);
  }

  /** A clock at 2025-01-01T00:00:00Z. */
  public ManualClock() {
    this(1_735_689_600_000L);
  }

  public void advance(Duration d) {
    millis.addAndGet(d.toMillis());
  }

  public void set(long epochMillis) {
    millis.set(epochMillis);
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }
}
