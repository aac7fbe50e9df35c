// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

/**
 * A lock shared by every process on the same HBase, held in one cell: taken with {@code
 * checkAndMutate} (put if the cell is absent, or if it still holds the expired lease that was
 * read), released with {@code checkAndMutate} (delete if it still holds our lease). A lease lasts
 * {@link #LEASE_MS}, so a node that dies holding it blocks the others for that long at most; a
 * holder renews it while it works ({@link Held#renewIfDue}). Lease times are the nodes' wall
 * clocks, which are assumed to agree within seconds. Thread-safe.
 */
final class LeaseLock {
  static final long LEASE_MS = 30_000;
  private static final long WAIT_MS = 120_000;

  /** Leases are told apart by a random token (uniqueness, not reproducibility, is wanted). */
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Table table;
  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;

  private final java.util.concurrent.atomic.LongAdder waits;

  LeaseLock(
      Table table,
      byte[] row,
      byte[] family,
      byte[] qualifier,
      java.util.concurrent.atomic.LongAdder waits) {
    this.waits = waits;
    this.table = table;
    this.row = row;
    this.family = family;
    this.qualifier = qualifier;
  }

  /** A lease held: 8 random bytes and its expiry. */
  final class Held implements AutoCloseable {
    private byte[] value;
    private long acquiredAt;

    private Held(byte[] value, long acquiredAt) {
      this.value = value;
      this.acquiredAt = acquiredAt;
    }

    /** Renews the lease once a third of it has passed. */
    void renewIfDue() throws IOException {
      long now = System.currentTimeMillis();
      if (now - acquiredAt < LEASE_MS / 3) {
        return;
      }
      byte[] next = lease(now);
      boolean ok =
          table
              .checkAndMutate(
                  CheckAndMutate.newBuilder(row)
                      .ifEquals(family, qualifier, value)
                      .build(new Put(row).addColumn(family, qualifier, next)))
              .isSuccess();
      if (!ok) {
        throw new IOException("lost the lease on the collection's lock (a pause above 30 s?)");
      }
      value = next;
      acquiredAt = now;
    }

    @Override
    public void close() throws IOException {
      table.checkAndMutate(
          CheckAndMutate.newBuilder(row)
              .ifEquals(family, qualifier, value)
              .build(new Delete(row).addColumns(family, qualifier)));
    }
  }

  private static byte[] lease(long now) {
    return ByteBuffer.allocate(16).putLong(RANDOM.nextLong()).putLong(now + LEASE_MS).array();
  }

  /**
   * Takes the lock, waiting up to two minutes. The first try assumes the lock is free (one round
   * trip when it is); later ones read the lease first, to take it over once it has expired.
   */
  Held acquire() throws IOException {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    int sleep = 1;
    boolean first = true;
    while (true) {
      long now = System.currentTimeMillis();
      byte[] mine = lease(now);
      byte @Nullable [] held = null;
      if (!first) {
        held = table.get(new Get(row).addColumn(family, qualifier)).getValue(family, qualifier);
      }
      CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
      boolean tryIt;
      if (held == null) {
        b.ifNotExists(family, qualifier);
        tryIt = true;
      } else {
        b.ifEquals(family, qualifier, held);
        tryIt = held.length != 16 || ByteBuffer.wrap(held).getLong(8) < now;
      }
      if (tryIt
          && table
              .checkAndMutate(b.build(new Put(row).addColumn(family, qualifier, mine)))
              .isSuccess()) {
        return new Held(Arrays.copyOf(mine, 16), now);
      }
      if (first) {
        first = false;
        continue; // taken: read whose lease it is, and whether it has expired
      }
      waits.increment();
      if (now > deadline) {
        throw new IOException("could not take the collection's lock in " + WAIT_MS + " ms");
      }
      try {
        Thread.sleep(RANDOM.nextInt(sleep) + 1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the collection's lock");
      }
      sleep = Math.min(sleep * 2, 16);
    }
  }
}
