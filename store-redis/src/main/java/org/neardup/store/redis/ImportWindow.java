// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.neardup.store.redis.Scripts.bytes;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;

/**
 * The block key entries, band bucket entries and id index fields of an import's next documents (up
 * to {@link #capacity} documents, {@code 4 * capacity} band entries, or {@value #MAX_ID_BYTES}
 * bytes of ids), written grouped by key: one APPEND per touched block key and band bucket and one
 * HSET per touched id bucket per window, instead of one command per entry. Holds 20 bytes per
 * document plus its id's UTF-8 bytes, and 12 per band entry; primitive arrays only. Not
 * thread-safe: the import's writer thread owns it.
 */
final class ImportWindow {
  /*
   * Why (issue 15, import >= 200,000/s): an import chunk of 8,192 documents touches ~32,000 of the
   * 65,536 block keys of a 1M collection, nearly all once: 3.15 APPENDs and 0.77 HSETs of one id
   * field per document, ~5 commands per document that cost Redis ~1 us each before any work, and
   * the client a Jedis command object each. Gathered over a window of 2^19 documents (a heap of
   * 200 MB or more), a block key gets ~32 entries per APPEND and an id bucket ~64 fields per HSET:
   * ~0.15 commands per document at 1M (measured: redis-server CPU 7.06 -> 1.82 us per record).
   * Entries of a key keep ascending ordinals: windows ascend, and within a window a stable
   * counting sort by key value keeps the arrival (ordinal) order.
   */
  /** Documents per window at most: 2^19 (~8 MB of ordinals and fingerprints). */
  static final int MAX_CAPACITY = 1 << 19;

  /** Documents per window at least. */
  static final int MIN_CAPACITY = 4096;

  /**
   * The capacity for a JVM of this maximum heap: an eighth of it at ~48 bytes per document (the
   * window's 20 bytes and a short id, and the flush's 12), within [{@value #MIN_CAPACITY}, {@value
   * #MAX_CAPACITY}]: 2^19 from a 200 MB heap up, ~100,000 in a 40 MB heap.
   */
  static int capacityFor(long maxHeapBytes) {
    return (int) Math.max(MIN_CAPACITY, Math.min(MAX_CAPACITY, maxHeapBytes / 8 / 48));
  }

  /** Bytes of ids per window at most (long ids make smaller windows). */
  static final int MAX_ID_BYTES = 16 << 20;

  /** Commands per pipeline sync, so the pipeline's pending responses stay few. */
  private static final int SYNC_EVERY = 8192;

  private final Keys keys;
  private final BlockEntries entries;
  private final BandEntries bands;
  final int capacity;
  private final long[] ordinals;
  private final long[] fingerprints;
  private final int[] idEnds;
  private byte[] ids = new byte[1 << 16];
  private int idBytes;
  private int size;
  private int windows;

  /** Block keys written by a window before the current one. */
  private final BitSet written = new BitSet();

  /** Block keys APPENDed to by two windows or more: the import's end rewrites them. */
  private final BitSet appendedAgain = new BitSet();

  /** The band entries ({@link BandEntries#entry}) and their buckets, in arrival order. */
  private long[] bandEntries = new long[1024];

  private int[] bandBuckets = new int[1024];
  private int bandSize;
  private final int bandCapacity;

  /** Band buckets written by a window before the current one, and those APPENDed to again. */
  private final BitSet bandWritten = new BitSet();

  private final BitSet bandAppendedAgain = new BitSet();

  ImportWindow(Keys keys, BlockEntries entries, BandEntries bands, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, got " + capacity);
    }
    this.keys = keys;
    this.entries = entries;
    this.bands = bands;
    this.capacity = capacity;
    this.bandCapacity = Math.max(4 * capacity, 2 * DocRecord.MAX_BANDS);
    ordinals = new long[capacity];
    fingerprints = new long[capacity];
    idEnds = new int[capacity];
  }

  /** Whether the window holds no more documents. */
  boolean full() {
    return size == capacity
        || idBytes >= MAX_ID_BYTES
        || bandSize > bandCapacity - DocRecord.MAX_BANDS;
  }

  /**
   * Adds Redis ordinal {@code ordinal} (ascending across calls) with its fingerprint, id and band
   * keys (none for a fingerprint-only collection; at most {@link DocRecord#MAX_BANDS}).
   */
  void add(long ordinal, long fingerprint, String id, long[] bandKeys) {
    assert !full() : "flush a full window first";
    assert size == 0 || ordinal > ordinals[size - 1] : "ordinals ascend";
    if (bandKeys.length > 0) {
      BandEntries.Grouped groups = bands.group(bandKeys);
      for (int g = 0; g < groups.buckets().length; g++) {
        for (int rest : groups.rests()[g]) {
          if (bandSize == bandEntries.length) {
            bandEntries = Arrays.copyOf(bandEntries, 2 * bandSize);
            bandBuckets = Arrays.copyOf(bandBuckets, 2 * bandSize);
          }
          bandEntries[bandSize] = BandEntries.entry(ordinal, rest);
          bandBuckets[bandSize++] = groups.buckets()[g];
        }
      }
    }
    byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
    if (idBytes + utf8.length > ids.length) {
      ids = Arrays.copyOf(ids, Math.max(2 * ids.length, idBytes + utf8.length));
    }
    System.arraycopy(utf8, 0, ids, idBytes, utf8.length);
    idBytes += utf8.length;
    ordinals[size] = ordinal;
    fingerprints[size] = fingerprint;
    idEnds[size] = idBytes;
    size++;
  }

  /** Writes the window's entries and ids through {@code p} (synced), then empties the window. */
  void flush(AbstractPipeline p) {
    if (size == 0) {
      return;
    }
    int commands = 0;
    // Block entries: per block, a stable counting sort of the documents by key value.
    int[] count = new int[(1 << Layout.MAX_BLOCK_BITS) + 1];
    int[] order = new int[size];
    for (int t = 0; t < entries.count(); t++) {
      Arrays.fill(count, 0);
      int base = t << 16;
      for (int i = 0; i < size; i++) {
        count[(entries.key(t, fingerprints[i]) & 0xffff) + 1]++;
      }
      for (int v = 1; v < count.length; v++) {
        count[v] += count[v - 1];
      }
      for (int i = 0; i < size; i++) {
        order[count[entries.key(t, fingerprints[i]) & 0xffff]++] = i;
      }
      // count[v] is now the end of value v's run.
      int from = 0;
      for (int v = 0; v < count.length - 1; v++) {
        int to = count[v];
        if (to == from) {
          continue;
        }
        byte[] value = new byte[(to - from) * entries.width];
        for (int j = from; j < to; j++) {
          int i = order[j];
          entries.putEntry(t, ordinals[i], fingerprints[i], value, (j - from) * entries.width);
        }
        int key = base | v;
        if (written.get(key)) {
          appendedAgain.set(key);
        } else {
          written.set(key);
        }
        p.append(keys.block(key), value);
        if (++commands % SYNC_EVERY == 0) {
          p.sync();
        }
        from = to;
      }
    }
    // Band entries: sorted by bucket, then arrival (ordinal, then the commit's order).
    long[] byBand = new long[bandSize];
    for (int i = 0; i < bandSize; i++) {
      byBand[i] = (long) bandBuckets[i] << 32 | i;
    }
    Arrays.sort(byBand);
    for (int j = 0; j < bandSize; ) {
      int bucket = (int) (byBand[j] >>> 32);
      int end = j;
      while (end < bandSize && (int) (byBand[end] >>> 32) == bucket) {
        end++;
      }
      byte[] value = new byte[(end - j) * BandEntries.WIDTH];
      for (int at = 0; j < end; j++, at += BandEntries.WIDTH) {
        BandEntries.put(bandEntries[(int) byBand[j]], value, at);
      }
      if (bandWritten.get(bucket)) {
        bandAppendedAgain.set(bucket);
      } else {
        bandWritten.set(bucket);
      }
      p.append(keys.band(bucket), value);
      if (++commands % SYNC_EVERY == 0) {
        p.sync();
      }
    }
    // Id fields: sorted by bucket, one HSET per bucket.
    long[] byBucket = new long[size];
    for (int i = 0; i < size; i++) {
      int start = i == 0 ? 0 : idEnds[i - 1];
      byBucket[i] = (long) keys.idBucket(ids, start, idEnds[i]) << 32 | i;
    }
    Arrays.sort(byBucket);
    for (int j = 0; j < size; ) {
      int bucket = (int) (byBucket[j] >>> 32);
      int end = j;
      while (end < size && (int) (byBucket[end] >>> 32) == bucket) {
        end++;
      }
      // Through hset(key, map), so a cluster pipeline sends it to the key's node.
      Map<byte[], byte[]> fields = new HashMap<>(2 * (end - j));
      for (; j < end; j++) {
        int i = (int) byBucket[j];
        int start = i == 0 ? 0 : idEnds[i - 1];
        fields.put(Arrays.copyOfRange(ids, start, idEnds[i]), bytes(ordinals[i]));
      }
      p.hset(keys.idBucketKey(bucket), fields);
      if (++commands % SYNC_EVERY == 0) {
        p.sync();
      }
    }
    p.sync();
    size = 0;
    idBytes = 0;
    bandSize = 0;
    windows++;
  }

  /** The block keys written by two windows or more (APPEND left them room to grow). */
  BitSet appendedAgain() {
    return appendedAgain;
  }

  /** The band buckets written by two windows or more. */
  BitSet bandAppendedAgain() {
    return bandAppendedAgain;
  }

  /** The windows flushed so far. */
  int windows() {
    return windows;
  }
}
