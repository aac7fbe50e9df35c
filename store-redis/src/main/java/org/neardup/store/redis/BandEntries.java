// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

/**
 * The entries of a band bucket: a Redis string of 8-byte entries, a 5-byte ordinal (big-endian)
 * then the low {@value #REST_BYTES} bytes of a MinHash band key, in ascending ordinal order. A
 * bucket holds the band keys whose top {@link Layout#bandBits} bits are its number; a probe keeps
 * the entries whose low bytes equal one of the query's keys in that bucket, and the decision
 * confirms each on the full band keys of the candidate's record ({@link DocRecord}), so a bucket's
 * partial keys never add a candidate the seeds' set per band key would not have. Immutable.
 */
final class BandEntries {
  /*
   * Why buckets of packed entries and not a set per band key (issue 15, memory): band keys are
   * 64-bit hashes, nearly all held by one or two documents, so a set per key costs a whole Redis
   * key (~88 B: dict entry, name, object, an intset) for ~1.3 members: 415.9 B per verified
   * document of 6 bands at 200k (MEMORY USAGE). An entry here is 8 bytes and a bucket key's fixed
   * cost (~90 B) is shared by 32-64 entries (Layout#ENTRIES_PER_BAND_KEY): 77.3 B per document
   * at 200k with 18 entries per bucket (32 aimed at), see docs/BENCHMARKS.md.
   * Why 3 bytes of the key: with 16 bucket bits an entry compares 40 bits of the key, so a probe
   * of 6 buckets of ~64 entries passes a foreign entry with probability ~384 / 2^24 = 2.3e-5: one
   * extra record fetched per ~44,000 checks, dropped by the exact comparison; a commit's conflict
   * check compares the same bytes, so a false match makes it retry, never store wrongly.
   * Entry bytes = the big-endian bytes of (ordinal << 24 | rest): ordinals stay below 2^40.
   */
  static final int REST_BYTES = 3;

  /** Bytes per entry. */
  static final int WIDTH = BlockEntries.ORDINAL_BYTES + REST_BYTES;

  private static final int REST_MASK = (1 << (8 * REST_BYTES)) - 1;

  final int bits;

  /** Entries in 2^{@code bits} buckets. */
  BandEntries(int bits) {
    assert bits >= Layout.MIN_BAND_BITS && bits <= Layout.MAX_BAND_BITS : "checked by Layout";
    this.bits = bits;
  }

  /** The bucket of a band key: its top {@link #bits} bits. */
  int bucket(long bandKey) {
    return (int) (bandKey >>> (64 - bits));
  }

  /** The part of a band key an entry keeps: its low {@value #REST_BYTES} bytes. */
  static int rest(long bandKey) {
    return (int) bandKey & REST_MASK;
  }

  /** The entry of {@code ordinal} for a band key with rest {@code rest}, as a long. */
  static long entry(long ordinal, int rest) {
    assert ordinal >= 0 && ordinal < 1L << 40 : "5-byte ordinals";
    return ordinal << (8 * REST_BYTES) | rest;
  }

  /** Writes an entry ({@link #entry}) as {@value #WIDTH} big-endian bytes at {@code off}. */
  static void put(long entry, byte[] out, int off) {
    for (int i = WIDTH - 1; i >= 0; i--) {
      out[off + i] = (byte) entry;
      entry >>>= 8;
    }
  }

  /** The rest of the entry at {@code off}. */
  static int rest(byte[] entries, int off) {
    int r = 0;
    for (int i = BlockEntries.ORDINAL_BYTES; i < WIDTH; i++) {
      r = r << 8 | (entries[off + i] & 0xff);
    }
    return r;
  }

  /**
   * A document's band keys grouped by bucket: the distinct buckets in the order their first key
   * comes, each with the distinct rests of its keys in key order. A document's entries in a bucket
   * are written in this order by the commit and by an import alike.
   */
  Grouped group(long[] bandKeys) {
    int n = bandKeys.length;
    int[] buckets = new int[n];
    int[] counts = new int[n];
    int[][] rests = new int[n][];
    int groups = 0;
    next:
    for (long key : bandKeys) {
      int b = bucket(key);
      int r = rest(key);
      int g = 0;
      while (g < groups && buckets[g] != b) {
        g++;
      }
      if (g == groups) {
        buckets[groups] = b;
        rests[groups++] = new int[n];
      }
      for (int j = 0; j < counts[g]; j++) {
        if (rests[g][j] == r) {
          continue next;
        }
      }
      rests[g][counts[g]++] = r;
    }
    int[] outBuckets = java.util.Arrays.copyOf(buckets, groups);
    int[][] outRests = new int[groups][];
    for (int g = 0; g < groups; g++) {
      outRests[g] = java.util.Arrays.copyOf(rests[g], counts[g]);
    }
    return new Grouped(outBuckets, outRests);
  }

  /**
   * A document's band keys by bucket ({@link #group}).
   *
   * @param buckets the distinct buckets
   * @param rests per bucket, the distinct rests of the document's keys in it
   */
  record Grouped(int[] buckets, int[][] rests) {
    static final Grouped NONE = new Grouped(new int[0], new int[0][]);

    /** The number of distinct rests in group {@code g}. */
    int restCount(int g) {
      return rests[g].length;
    }

    /**
     * The rests of every group, group by group, as {@value #REST_BYTES}-byte big-endian values,
     * concatenated (a commit's band rests, one script argument: see {@code commit.lua}).
     */
    byte[] allRestBytes() {
      int total = 0;
      for (int[] r : rests) {
        total += r.length;
      }
      byte[] out = new byte[total * REST_BYTES];
      int at = 0;
      for (int[] r : rests) {
        for (int rest : r) {
          for (int i = 0; i < REST_BYTES; i++) {
            out[at++] = (byte) (rest >>> (8 * (REST_BYTES - 1 - i)));
          }
        }
      }
      return out;
    }

    /** The entries of {@code ordinal} in group {@code g}, in the order the bucket keeps them. */
    byte[] entries(int g, long ordinal) {
      int[] r = rests[g];
      byte[] out = new byte[r.length * WIDTH];
      for (int j = 0; j < r.length; j++) {
        put(entry(ordinal, r[j]), out, j * WIDTH);
      }
      return out;
    }

    /** Whether group {@code g} holds rest {@code rest}. */
    boolean has(int g, int rest) {
      for (int r : rests[g]) {
        if (r == rest) {
          return true;
        }
      }
      return false;
    }
  }

  /** Whether two documents' band keys share one (what the seeds' set per band key finds). */
  static boolean share(long[] a, long[] b) {
    for (long x : a) {
      for (long y : b) {
        if (x == y) {
          return true;
        }
      }
    }
    return false;
  }
}
