// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * DocTable keeps a timestamp in 4 bytes (its distance from the first) and an expiry in 4 bytes (its
 * distance from the timestamp) when it can: every (timestamp, expiry) pair must still read back
 * exactly, the usual ones and the extremes, whichever comes first.
 */
class DocTableTest {
  private static final byte[] ID = "a".getBytes(StandardCharsets.UTF_8);

  @Test
  public void expiresAt_anyTimestampAndExpiry_readsBackExactly() {
    // The first timestamp is the table's epoch: an ordinary one, then an extreme one.
    check(20261124, 1_764_000_000_000L);
    check(5, Long.MIN_VALUE + 3);
  }

  /** The ids' arrays are counted exactly: 1 MiB chunks, and an id never split across two. */
  @Test
  public void idArrayBytes_countsTheChunksAndIdLengthsTheIds() {
    DocTable docs = new DocTable(0);
    assertThat(docs.idArrayBytes()).isZero();
    SplittableRandom r = new SplittableRandom(18);
    long lengths = 0;
    int n = 60_000; // about 2.5 MiB of ids: three chunks
    for (int i = 0; i < n; i++) {
      byte[] id = new byte[1 + r.nextInt(80)];
      r.nextBytes(id);
      lengths += id.length;
      docs.add(i, id, 0, id.length, 1, 2);
    }
    assertThat(docs.idLengths()).isEqualTo(lengths);
    long chunks = docs.idArrayBytes() / ((1 << 20) + 16);
    assertThat(docs.idArrayBytes()).isEqualTo(chunks * ((1 << 20) + 16));
    // Each chunk but the last is full up to less than one id.
    assertThat(chunks).isBetween((lengths + (1 << 20) - 1) >> 20, (lengths >> 20) + 2);
  }

  private static void check(long seed, long first) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] edges = {
      Long.MIN_VALUE,
      Long.MIN_VALUE + 1,
      -1,
      0,
      1,
      Integer.MIN_VALUE,
      Integer.MIN_VALUE + 1L,
      Integer.MIN_VALUE + 2L,
      Integer.MAX_VALUE,
      Integer.MAX_VALUE + 1L,
      Long.MAX_VALUE - 1,
      Long.MAX_VALUE
    };
    int n = 100_000; // several pages of slots
    long[] ts = new long[n];
    long[] exp = new long[n];
    DocTable docs = new DocTable(7);
    for (int i = 0; i < n; i++) {
      if (i == 0) {
        ts[0] = first;
        exp[0] = first + 172_800_000L;
        assertThat(docs.add(7, ID, 0, ID.length, ts[0], exp[0])).isZero();
        continue;
      }
      long now = 1_764_000_000_000L + r.nextLong(1L << 36);
      switch (r.nextInt(5)) {
        case 0 -> { // two days from the timestamp: the seeds' window
          ts[i] = now;
          exp[i] = now + 172_800_000L;
        }
        case 1 -> { // no retention
          ts[i] = now;
          exp[i] = Long.MAX_VALUE;
        }
        case 2 -> { // an old timestamp, retention from arrival: more than 24 days apart
          ts[i] = now - r.nextLong(1L << 42);
          exp[i] = now + 172_800_000L;
        }
        case 3 -> { // extremes against each other
          ts[i] = edges[r.nextInt(edges.length)];
          exp[i] = edges[r.nextInt(edges.length)];
        }
        default -> {
          ts[i] = r.nextLong();
          exp[i] = r.nextLong();
        }
      }
      assertThat(docs.add(7 + i, ID, 0, ID.length, ts[i], exp[i])).isEqualTo(i);
    }
    for (int i = 0; i < n; i++) {
      assertThat(docs.timestamp(i)).as("seed %s slot %s", seed, i).isEqualTo(ts[i]);
      assertThat(docs.expiresAt(i)).as("seed %s slot %s ts %s", seed, i, ts[i]).isEqualTo(exp[i]);
    }
  }
}
