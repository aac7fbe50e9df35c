// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import java.util.Arrays;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;
import org.neardup.internal.HashDirectory;
import org.neardup.internal.Mix;
import org.neardup.internal.PagedLongArray;

/**
 * A multimap from MinHash band keys to document ordinals, for finding candidates: every ordinal
 * stored under any of a query's band keys.
 *
 * <p>An entry keeps 39 bits of its band key: the key folded to 31 bits with the low bit set (so a
 * used slot is never 0), which places it, and a tag, the key's top 8 bits, which for keys that are
 * hashes do not depend on the fold's bits. A lookup reports only the entries whose fold and tag are
 * its key's, so an unrelated key meets a query key with probability 2^-39 (n / 2^39 false entries
 * per lookup at n entries: 0.0005 at 50M documents of 6 bands, where the fold alone met 0.14 per
 * key, each a sketch read at a random place of the sketch files). An index made by {@link
 * #of32BitKeys} keeps no tags: for keys below 2^32, whose top byte is 0.
 *
 * <p>Table entries are {@code long} slots, each {@code key31 << 32 | (ordinal + 1)}, with a byte of
 * tag beside each slot; duplicates of a key in separate slots of one probe run. Removal leaves a
 * tombstone (the key with ordinal part 0) until its sub-table is next rebuilt. Not thread-safe: the
 * caller serialises writers and readers.
 *
 * <p>New entries go to a hash table; every {@link #FREEZE_AT} of them are sorted into a frozen run
 * ({@link BandRun}, 7 bytes per entry, 6 without tags), and runs of similar size are merged up to
 * {@link #MAX_RUN} entries, so almost every entry of a large index costs 7 bytes instead of 11.7 to
 * 22 (at 6 bands per document: ~42 bytes per document instead of ~91). A lookup probes the table
 * and binary-searches each run (about n / 2^23 + 7 runs at n entries). Freezing sorts 2^16 entries
 * (a few ms, once per ~11,000 documents of 6 bands), a merge moves at most 2^23 (about 50 ms), both
 * under the caller's write lock.
 *
 * <p>A batch of ordinals above every stored one can skip the table ({@link #addAll}): its keys are
 * sorted straight into runs of up to {@link #MAX_RUN} entries by counting passes ({@link
 * BandRun#ofOrdered}), each entry moved four times instead of hashed, sorted and merged ~7 times (a
 * restore at a store's open, a compaction: the open's CPU per million documents fell from ~1 s to
 * ~0.2, docs/BENCHMARKS.md).
 *
 * <p>Cost of the table: the slots are split into sub-tables of at most 2^16 slots (512 KiB) by the
 * top bits of the key's hash, each growing or splitting alone, so no add moves more than 49,152
 * entries (about a millisecond), whatever the size; the single table this replaces rehashed every
 * entry, 1.5 s at 10M documents. A lookup reads a directory entry and a sub-table header (cached:
 * one per 2^16 slots) and then probes: one cache miss per key, as before. At most 3/4 full: 11.7 to
 * 22 bytes per (key, ordinal) entry.
 */
public final class BandIndex {
  /*
   * Extendible hashing (HashDirectory): sub-tables chosen by the top bits of hash(key31). Within a
   * sub-table, linear probing from the home slot (the hash's low bits). A sub-table that would pass
   * 3/4 used (live entries plus tombstones) is rebuilt: at the same size when tombstones made it
   * full, doubled below MAX_SLOTS, else split in two on hash bit 63 - d.
   *
   * Invariants (checkInvariants): the directory's; every entry sits in the sub-table its hash
   * (of the folded key only: a key's entries of every tag share a probe run) selects, reachable from its home slot without a 0 slot between; tableLive == sum of sub-table
   * live counts; used >= live in each sub-table; each run's own; live == tableLive + the runs'
   * live counts; runs hold ascending ordinal ranges, oldest first, that share at most their
   * boundary (a freeze between two keys of one document), and no run is at most half live; every
   * run has tags exactly when the index does, and without tags every table tag is 0.
   */
  static final int MAX_SLOTS = HashDirectory.MAX_SLOTS;

  /**
   * Table entries sorted into a run at once: 2^16 (512 KiB of longs to sort, a few ms), so the
   * table (10.7 to 21 bytes per entry) never holds more than ~1.4 MB, and a run's 256 KiB of bucket
   * bounds cost at most 4 bytes per entry before merges halve it.
   */
  static final int FREEZE_AT = 1 << 16;

  /**
   * The largest run a merge makes: 2^23 entries (48 MiB), so no merge moves more; also the most
   * entries {@link #addAll} sorts into one run.
   */
  public static final int MAX_RUN = 1 << 23;

  private static final class Table extends HashDirectory.Table {
    final long[] slots;

    /** The tag of each slot's entry (0 in an index without tags). */
    final byte[] tags;

    final int mask;
    int used;
    int live;

    Table(int capacity, int depth) {
      super(depth);
      slots = new long[capacity];
      tags = new byte[capacity];
      mask = capacity - 1;
    }

    boolean full() {
      return (used + 1) * 4 > slots.length * 3;
    }
  }

  private final boolean tagged;
  private final int freezeAt;
  private final int maxRun;
  private HashDirectory<Table> directory;
  private int tableLive;
  private long slotCount;
  private BandRun[] runs = new BandRun[0];
  private int live;
  private int highestOrdinal = -1;

  /** An index of band keys (64-bit hashes), each entry with its key's tag. */
  public BandIndex(int expectedEntries) {
    this(expectedEntries, true, FREEZE_AT, MAX_RUN);
  }

  /**
   * An index of keys below 2^32 (32-bit hashes, such as a store's id table's), without tags: their
   * top byte is 0, so a tag would tell nothing and cost a byte per entry. Keys that fold alike (31
   * bits) meet.
   */
  public static BandIndex of32BitKeys(int expectedEntries) {
    return new BandIndex(expectedEntries, false, FREEZE_AT, MAX_RUN);
  }

  /** For tests: freezing and merging at other sizes. */
  BandIndex(int expectedEntries, int freezeAt, int maxRun) {
    this(expectedEntries, true, freezeAt, maxRun);
  }

  /** For tests: with or without tags, freezing and merging at other sizes. */
  BandIndex(int expectedEntries, boolean tagged, int freezeAt, int maxRun) {
    Checks.checkArgument(
        expectedEntries >= 0, "expectedEntries must be >= 0, got %s", expectedEntries);
    Checks.checkArgument(
        freezeAt > 0 && maxRun >= freezeAt,
        "need 0 < freezeAt <= maxRun, got %s and %s",
        freezeAt,
        maxRun);
    this.tagged = tagged;
    this.freezeAt = freezeAt;
    this.maxRun = maxRun;
    newTable(Math.min(expectedEntries, freezeAt));
  }

  private void newTable(int expectedEntries) {
    long want = Math.max(16, expectedEntries * 4L / 3 + 1);
    int capacity = HashDirectory.capacityFor(want, HashDirectory.depthFor(want, 32));
    directory = new HashDirectory<>(want, 32, d -> new Table(capacity, d));
    slotCount = (long) directory.tables() * capacity;
    tableLive = 0;
  }

  static int fold(long bandKey) {
    return (int) (bandKey ^ (bandKey >>> 31)) | 1;
  }

  /** A band key's tag: its top 8 bits. */
  static byte keyTag(long bandKey) {
    return (byte) (bandKey >>> 56);
  }

  /** The tag this index keeps for a key: its {@link #keyTag}, or 0 without tags. */
  private byte tag(long bandKey) {
    return tagged ? keyTag(bandKey) : 0;
  }

  /**
   * Murmur3's 64-bit finaliser of the folded key: the top bits pick the sub-table, the low bits the
   * home slot. (Home slots once came from 24 bits of a product, which piled every entry of a table
   * past 2^24 slots into its first 2^24: sub-tables are small now, but the low bits are all used.)
   */
  private static long hash(int key31) {
    return Mix.fmix64(key31 & 0xFFFFFFFFL);
  }

  private static int home(int key31, int mask) {
    return (int) hash(key31) & mask;
  }

  /** Stores ordinal (>= 0) under each of the keys. */
  public void add(long[] bandKeys, int ordinal) {
    for (long k : bandKeys) {
      add(k, ordinal);
    }
  }

  public void add(long bandKey, int ordinal) {
    if (tableLive >= freezeAt) {
      freeze();
    }
    int key = fold(bandKey);
    long h = hash(key);
    Table t = directory.at(h);
    if (t.full()) {
      t = makeRoom(h);
    }
    long entry = ((long) key << 32) | ((ordinal + 1L) & 0xFFFFFFFFL);
    long[] slots = t.slots;
    int mask = t.mask;
    int s = (int) h & mask;
    while (slots[s] != 0) {
      s = (s + 1) & mask;
    }
    slots[s] = entry;
    t.tags[s] = tag(bandKey);
    t.used++;
    t.live++;
    tableLive++;
    live++;
    highestOrdinal = Math.max(highestOrdinal, ordinal);
  }

  /**
   * Stores ordinals {@code first, first + 1, ..., first + count - 1}, ordinal {@code first + i}
   * under the {@code perOrdinal} keys at {@code keys[from + i * perOrdinal, ...)}: the same entries
   * as {@link #add(long[], int)} for each in turn, but a batch of at least {@link #FREEZE_AT}
   * entries is sorted straight into runs of up to {@link #MAX_RUN} entries (counting passes per
   * run, see {@link BandRun#ofOrdered}), where adding one at a time would pass every entry through
   * the table, a comparison sort and about log2(MAX_RUN / FREEZE_AT) = 7 merges. For a restore:
   * this was ~60% of a store's open.
   *
   * @throws IllegalArgumentException if {@code first} is not above every ordinal stored, or the
   *     keys are not in {@code keys}
   */
  public void addAll(PagedLongArray keys, long from, int perOrdinal, int first, int count) {
    Checks.checkArgument(
        perOrdinal > 0 && count >= 0,
        "need perOrdinal > 0 and count >= 0, got %s, %s",
        perOrdinal,
        count);
    Checks.checkArgument(
        first > highestOrdinal,
        "ordinals must ascend: first %s, but %s is stored",
        first,
        highestOrdinal);
    long entries = (long) count * perOrdinal;
    Checks.checkArgument(
        from >= 0 && from + entries <= keys.size(),
        "keys [%s, %s) outside the array's %s",
        from,
        from + entries,
        keys.size());
    Checks.checkArgument(
        (long) first + count <= Integer.MAX_VALUE - 1, "ordinals past 2^31: %s + %s", first, count);
    if (count == 0) {
      return;
    }
    if (entries < freezeAt) {
      long[] buffer = new long[perOrdinal];
      for (int i = 0; i < count; i++) {
        keys.get(from + (long) i * perOrdinal, buffer, 0, perOrdinal);
        add(buffer, first + i);
      }
      return;
    }
    Carried carried = tableByOrdinal();
    int c = tableLive;
    newTable(freezeAt);
    int perRun = Math.max(1, maxRun / perOrdinal);
    int done = 0;
    while (done < count) {
      int docs = Math.min(count - done, Math.max(1, perRun - (c + perOrdinal - 1) / perOrdinal));
      pushRun(
          BandRun.ofOrdered(
              new KeysSource(
                  carried,
                  c,
                  keys,
                  from + (long) done * perOrdinal,
                  perOrdinal,
                  first + done,
                  docs),
              tagged));
      c = 0;
      done += docs;
    }
    live += (int) entries;
    highestOrdinal = first + count - 1;
  }

  /**
   * Stores each {@code packed} entry {@code [from, from + count)}, {@code key << 32 | ordinal} for
   * a 32-bit key, as {@link #add(long, int)} of {@code (key & 0xFFFFFFFFL, ordinal)} would, in bulk
   * as {@link #addAll(PagedLongArray, long, int, int, int)} does: for keys that are 32-bit hashes
   * and ordinals that ascend with gaps (a store's id table at open).
   *
   * @throws IllegalArgumentException if the ordinals do not ascend above every ordinal stored
   */
  public void addAllPacked(PagedLongArray packed, long from, int count) {
    Checks.checkArgument(
        count >= 0 && from >= 0 && from + count <= packed.size(),
        "entries [%s, %s) outside the array's %s",
        from,
        from + count,
        packed.size());
    int previous = highestOrdinal;
    for (long i = from; i < from + count; i++) {
      int o = (int) packed.get(i);
      Checks.checkArgument(o > previous, "ordinals must ascend: %s after %s", o, previous);
      previous = o;
    }
    if (count < freezeAt) {
      for (long i = from; i < from + count; i++) {
        long e = packed.get(i);
        add(e >>> 32, (int) e);
      }
      return;
    }
    Carried carried = tableByOrdinal();
    int c = tableLive;
    newTable(freezeAt);
    int done = 0;
    while (done < count) {
      int n = Math.min(count - done, Math.max(1, maxRun - c));
      pushRun(BandRun.ofOrdered(new PackedSource(carried, c, packed, from + done, n), tagged));
      c = 0;
      done += n;
    }
    live += count;
    highestOrdinal = previous;
  }

  /**
   * Takes the runs of {@code image} (renumbered to this index's ordinals, see {@link
   * BandImage#renumber}) as they are: the same lookups as {@link #addAll} of the documents' keys
   * would give, without sorting them. The image is used up.
   *
   * @throws IllegalStateException if the index is not empty or has no tags
   */
  public void addImage(BandImage image) {
    Checks.checkState(
        live == 0 && runs.length == 0 && highestOrdinal < 0,
        "an image goes into an empty band index, this one holds %s entries",
        live);
    Checks.checkState(tagged, "an image's runs have tags, this index keeps none");
    for (BandRun run : image.take()) {
      pushRun(run);
      live += run.live;
      highestOrdinal = Math.max(highestOrdinal, run.maxOrdinal);
    }
  }

  /** The table's live entries in ascending ordinal order: slot form, and their tags. */
  private static final class Carried {
    final long[] slots;
    final byte[] tags;

    Carried(long[] slots, byte[] tags) {
      this.slots = slots;
      this.tags = tags;
    }
  }

  /**
   * The table's carried entries (slot form, ascending ordinals), then a batch's own: the part
   * {@link KeysSource} and {@link PackedSource} share, and alone a freeze's source. A common base
   * costs nothing in the bulk open's hot loop since {@link BandRun#ofOrdered} takes 4,096 entries
   * per call, not one.
   */
  private static class CarriedSource implements BandRun.Source {
    private final Carried carried;
    private final int c;
    private final int n;

    CarriedSource(Carried carried, int c, int own) {
      this.carried = carried;
      this.c = c;
      this.n = c + own;
    }

    @Override
    public final int size() {
      return n;
    }

    @Override
    public final void entries(int from, long[] out, byte @Nullable [] tags, int off, int count) {
      int k = 0;
      if (from < c) {
        k = Math.min(count, c - from);
        System.arraycopy(carried.slots, from, out, off, k);
        if (tags != null) {
          System.arraycopy(carried.tags, from, tags, off, k);
        }
      }
      if (k < count) {
        own(from + k - c, out, tags, off + k, count - k);
      }
    }

    /**
     * The batch's own entries {@code [from, from + count)} into {@code out[off, ...)}, their tags
     * into {@code tags[off, ...)} unless null; a source of carried entries alone has none.
     */
    void own(int from, long[] out, byte @Nullable [] tags, int off, int count) {
      throw new IllegalStateException("no entries of its own: " + from + ", " + count);
    }
  }

  /** The table's carried entries, then documents' band keys with consecutive ordinals. */
  private static final class KeysSource extends CarriedSource {
    private final PagedLongArray keys;
    private final long from;
    private final int perOrdinal;
    private final int first;

    KeysSource(
        Carried carried,
        int c,
        PagedLongArray keys,
        long from,
        int perOrdinal,
        int first,
        int docs) {
      super(carried, c, docs * perOrdinal);
      this.keys = keys;
      this.from = from;
      this.perOrdinal = perOrdinal;
      this.first = first;
    }

    @Override
    void own(int j, long[] out, byte @Nullable [] tags, int off, int count) {
      keys.get(from + j, out, off, count);
      int ordinal = first + j / perOrdinal;
      int band = j % perOrdinal;
      for (int k = off; k < off + count; k++) {
        if (tags != null) {
          tags[k] = keyTag(out[k]);
        }
        out[k] = (long) fold(out[k]) << 32 | (ordinal + 1L);
        if (++band == perOrdinal) {
          band = 0;
          ordinal++;
        }
      }
    }
  }

  /** The table's carried entries, then packed (32-bit key, ordinal) entries. */
  private static final class PackedSource extends CarriedSource {
    private final PagedLongArray packed;
    private final long from;

    PackedSource(Carried carried, int c, PagedLongArray packed, long from, int count) {
      super(carried, c, count);
      this.packed = packed;
      this.from = from;
    }

    @Override
    void own(int j, long[] out, byte @Nullable [] tags, int off, int count) {
      packed.get(from + j, out, off, count);
      for (int k = off; k < off + count; k++) {
        long e = out[k];
        if (tags != null) {
          tags[k] = keyTag(e >>> 32); // 0: the key is below 2^32
        }
        out[k] = (long) fold(e >>> 32) << 32 | ((int) e + 1L);
      }
    }
  }

  /** The table's live entries in ascending ordinal order, tableLive of them. */
  private Carried tableByOrdinal() {
    int n = tableLive;
    long[] slots = new long[n];
    byte[] tags = new byte[n];
    int j = 0;
    Table previous = null;
    for (int d = 0; d < directory.length(); d++) {
      Table t = directory.get(d);
      if (t == previous) {
        continue;
      }
      previous = t;
      for (int s = 0; s < t.slots.length; s++) {
        long e = t.slots[s];
        if (e != 0 && (int) e != 0) {
          slots[j] = e;
          tags[j++] = t.tags[s];
        }
      }
    }
    assert j == n : j + " != " + n;
    // Ordinal + 1 on top (positive), the entry's position below: sorts by ordinal.
    long[] order = new long[n];
    for (int i = 0; i < n; i++) {
      order[i] = (slots[i] & 0xFFFFFFFFL) << 32 | i;
    }
    Arrays.sort(order);
    long[] sortedSlots = new long[n];
    byte[] sortedTags = new byte[n];
    for (int i = 0; i < n; i++) {
      int at = (int) order[i];
      sortedSlots[i] = slots[at];
      sortedTags[i] = tags[at];
    }
    return new Carried(sortedSlots, sortedTags);
  }

  /**
   * Sorts the table's live entries into a new run (by ordinal, then by counting passes, as a bulk
   * add's), starts an empty table of the same size, and merges the newest runs while the newer is
   * at least half the older and the merge fits {@link #maxRun} (a binary counter: each entry is
   * merged about log2(maxRun / freezeAt) times).
   */
  private void freeze() {
    Carried carried = tableByOrdinal();
    int n = tableLive;
    newTable(freezeAt);
    pushRun(BandRun.ofOrdered(new CarriedSource(carried, n, 0), tagged));
  }

  /** Appends a run of ordinals above every run's, then merges as {@link #freeze} says. */
  private void pushRun(BandRun run) {
    int r = runs.length;
    runs = java.util.Arrays.copyOf(runs, r + 1);
    runs[r] = run;
    while (r > 0
        && runs[r].live * 2L >= runs[r - 1].live
        && runs[r].live + runs[r - 1].live <= maxRun) {
      runs[r - 1] = BandRun.merge(runs[r - 1], runs[r]);
      runs = java.util.Arrays.copyOf(runs, r);
      r--;
    }
  }

  /** Removes one entry (bandKey, ordinal) for each key; returns how many were found. */
  public int remove(long[] bandKeys, int ordinal) {
    return remove(bandKeys, 0, bandKeys.length, ordinal);
  }

  /** As {@link #remove(long[], int)} for the keys {@code bandKeys[off, off + len)}. */
  public int remove(long[] bandKeys, int off, int len, int ordinal) {
    int removed = 0;
    for (int i = off; i < off + len; i++) {
      int key = fold(bandKeys[i]);
      byte tag = tag(bandKeys[i]);
      long h = hash(key);
      Table t = directory.at(h);
      long[] slots = t.slots;
      int mask = t.mask;
      long entry = ((long) key << 32) | ((ordinal + 1L) & 0xFFFFFFFFL);
      boolean found = false;
      for (int s = (int) h & mask; slots[s] != 0; s = (s + 1) & mask) {
        if (slots[s] == entry && t.tags[s] == tag) {
          slots[s] = (long) key << 32; // tombstone: keeps the probe run intact
          t.live--;
          tableLive--;
          live--;
          removed++;
          found = true;
          break;
        }
      }
      for (int r = runs.length - 1; r >= 0 && !found; r--) {
        BandRun run = runs[r];
        if (run.remove(key, tag, ordinal)) {
          live--;
          removed++;
          found = true;
          if (run.live * 2 <= run.size()) {
            shrink(r);
          }
        }
      }
    }
    return removed;
  }

  /** Drops run r when nothing in it is live, else rewrites it without its removed entries. */
  private void shrink(int r) {
    if (runs[r].live > 0) {
      runs[r] = runs[r].compacted();
      return;
    }
    BandRun[] fewer = new BandRun[runs.length - 1];
    System.arraycopy(runs, 0, fewer, 0, r);
    System.arraycopy(runs, r + 1, fewer, r, runs.length - r - 1);
    runs = fewer;
  }

  /**
   * Calls {@code out} with every ordinal stored under any of the keys; an ordinal under several of
   * them is reported once per key it shares.
   */
  public void forEach(long[] bandKeys, IntConsumer out) {
    forEach(bandKeys, out, new Lookup(), 0);
  }

  /**
   * {@link #forEach(long[], IntConsumer)} with buffers the caller keeps ({@code lookup}, one per
   * thread): the runs' lookups of all the keys interleaved ({@link BandRun#forEachAll}), the
   * ordinals reported in no particular order. Allocates nothing once the buffers have grown.
   *
   * <p>Ordinals below {@code from} may be left out (some are reported): the runs that hold only
   * such ordinals are not searched. An insert looks for what was stored since its probe this way:
   * in the table and the runs frozen since, not again in the runs of the whole index.
   */
  public void forEach(long[] bandKeys, IntConsumer out, Lookup lookup, int from) {
    int n = bandKeys.length;
    lookup.ensure(n);
    for (int j = 0; j < n; j++) {
      long k = bandKeys[j];
      lookup.keys[j] = fold(k);
      lookup.tags[j] = tag(k);
      forEachInTable(lookup.keys[j], lookup.tags[j], out);
    }
    // Runs hold ascending ordinal ranges, oldest first: those wholly below from are a prefix.
    int first = 0;
    while (first < runs.length && runs[first].maxOrdinal < from) {
      first++;
    }
    BandRun.forEachAll(runs, first, lookup.keys, lookup.tags, n, out, lookup.runs);
  }

  /** Reused buffers of {@link #forEach(long[], IntConsumer, Lookup)}: one per thread. */
  public static final class Lookup {
    int[] keys = new int[0];
    byte[] tags = new byte[0];
    final BandRun.Lookup runs = new BandRun.Lookup();

    void ensure(int n) {
      if (keys.length < n) {
        keys = new int[n];
        tags = new byte[n];
      }
    }
  }

  /**
   * Calls {@code out} with every ordinal stored under the key as this index keeps it (39 bits, 31
   * without tags: an unrelated key that agrees in them is met too, see the class note).
   */
  public void forEach(long bandKey, IntConsumer out) {
    int key = fold(bandKey);
    byte tag = tag(bandKey);
    forEachInTable(key, tag, out);
    for (BandRun run : runs) {
      run.forEach(key, tag, out);
    }
  }

  /** The table's part of a lookup: the unfrozen entries under the folded key and tag. */
  private void forEachInTable(int key, byte tag, IntConsumer out) {
    long h = hash(key);
    Table t = directory.at(h);
    long[] slots = t.slots;
    byte[] tags = t.tags;
    int mask = t.mask;
    for (int s = (int) h & mask; slots[s] != 0; s = (s + 1) & mask) {
      long e = slots[s];
      if ((int) (e >>> 32) == key && (int) e != 0 && tags[s] == tag) {
        out.accept((int) e - 1);
      }
    }
  }

  /** The number of (key, ordinal) entries. */
  public int size() {
    return live;
  }

  public long ramBytesUsed() {
    long bytes = 48 + directory.ramBytesUsed() + directory.tables() * (40L + 32) + slotCount * 9;
    bytes += 16 + 4L * runs.length;
    for (BandRun run : runs) {
      bytes += run.ramBytesUsed();
    }
    return bytes;
  }

  /** Rebuilds, grows or splits h's sub-table until it has room for one more entry; returns it. */
  private Table makeRoom(long h) {
    while (true) {
      int j = directory.index(h);
      Table t = directory.get(j);
      if (!t.full()) {
        return t;
      }
      int capacity = t.slots.length;
      if (t.live * 2 + 1 <= capacity * 3 / 8) {
        Table purged = new Table(capacity, t.depth); // mostly tombstones: same size
        moveAll(t, purged, null, 0);
        directory.replace(j, t, purged, purged);
      } else if (capacity < MAX_SLOTS) {
        Table grown = new Table(capacity * 2, t.depth);
        moveAll(t, grown, null, 0);
        directory.replace(j, t, grown, grown);
        slotCount += capacity;
      } else {
        j = directory.prepareSplit(j, t);
        Table low = new Table(capacity, t.depth + 1);
        Table high = new Table(capacity, t.depth + 1);
        moveAll(t, low, high, 63 - t.depth);
        directory.replace(j, t, low, high);
        slotCount += capacity;
      }
    }
  }

  /**
   * Moves the live entries of {@code from} into {@code a}, or {@code b} when the hash bit is set.
   */
  private static void moveAll(Table from, Table a, Table b, int bit) {
    for (int i = 0; i < from.slots.length; i++) {
      long e = from.slots[i];
      if (e == 0 || (int) e == 0) {
        continue;
      }
      long h = hash((int) (e >>> 32));
      Table to = b != null && ((h >>> bit) & 1) != 0 ? b : a;
      int s = (int) h & to.mask;
      while (to.slots[s] != 0) {
        s = (s + 1) & to.mask;
      }
      to.slots[s] = e;
      to.tags[s] = from.tags[i];
      to.used++;
      to.live++;
    }
  }

  /** Checks the design note's invariants; for tests. */
  void checkInvariants() {
    long[] total = {0};
    directory.checkInvariants(
        t -> {
          int used = 0;
          int alive = 0;
          for (int s = 0; s < t.slots.length; s++) {
            long e = t.slots[s];
            if (e == 0) {
              continue;
            }
            used++;
            alive += (int) e != 0 ? 1 : 0;
            Checks.checkState(tagged || t.tags[s] == 0, "entry %s tagged in an untagged index", e);
            long h = hash((int) (e >>> 32));
            Checks.checkState(directory.at(h) == t, "entry %s in the wrong table", e);
            for (int p = (int) h & t.mask; p != s; p = (p + 1) & t.mask) {
              Checks.checkState(t.slots[p] != 0, "entry %s cut off from its home", e);
            }
          }
          Checks.checkState(used == t.used && alive == t.live, "table counts are off");
          total[0] += alive;
        });
    Checks.checkState(total[0] == tableLive, "table live %s, counted %s", tableLive, total[0]);
    long inRuns = 0;
    for (int r = 0; r < runs.length; r++) {
      BandRun run = runs[r];
      run.checkInvariants();
      Checks.checkState(run.tagged() == tagged, "run %s: tags do not match the index's", r);
      Checks.checkState(run.live * 2 > run.size(), "run %s is at most half live", r);
      Checks.checkState(
          r == 0 || runs[r - 1].maxOrdinal <= run.minOrdinal, "runs %s and %s overlap", r - 1, r);
      inRuns += run.live;
    }
    Checks.checkState(tableLive + inRuns == live, "live %s, counted %s", live, tableLive + inRuns);
  }

  @Override
  public String toString() {
    return "BandIndex{entries="
        + live
        + ", runs="
        + runs.length
        + ", slots="
        + slotCount
        + ", tables="
        + directory.tables()
        + "}";
  }
}
