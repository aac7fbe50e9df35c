// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.BitSet;
import java.util.function.LongUnaryOperator;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.ArrayInput;
import org.neardup.internal.ArrayOutput;
import org.neardup.internal.Checks;

/**
 * One sorted segment of a {@link BlockPermutedIndex}, to keep in a file: a store writes one beside
 * a snapshot so that its next open reads the fingerprint index ({@link #read}, a bulk read of the
 * arrays) instead of sorting every fingerprint again (at 10M documents the sort was about a third
 * of the open's CPU). An image holds (fingerprint, position) pairs: position i is the i-th
 * fingerprint given to {@link #build}. {@link #renumber} turns positions into the ordinals an open
 * gave the documents it kept; {@link BlockPermutedIndex#addImage} then takes the segment as it is.
 *
 * <p>Not thread-safe; used once.
 */
public final class IndexImage {
  /*
   * File layout (ArrayOutput: little-endian, bulk):
   *   Image     --> Magic, Version, Blocks, Required, Prefix, Size, IdsWide, IdsBase,
   *                 Table0, Ids, Table(1) .. Table(T-1), Directory * T, Checksum
   *   Table0    --> hi int[Size], lo short[Size]                     (Segment's table 0)
   *   Ids       --> int[Size] offsets from IdsBase, or long[Size] when IdsWide != 0
   *   Table t   --> tag int[Size] when Prefix != 0, else hi int[Size], lo short[Size]
   *   Directory --> int[65537]
   *   Checksum  --> CRC32C of every byte before it
   * The arrays are exactly a Segment's, so reading is allocation plus copies. A read checks the
   * shape the searches rely on for memory safety (lengths, each directory's ends and order); the
   * checksum guards the rest, which the writer took from Segment.build.
   */
  private static final int MAGIC = 0x4E44_4958; // "NDIX"
  private static final int VERSION = 1;

  private final RecordLayout layout;
  private @Nullable Segment segment;
  private int ordinals;

  private IndexImage(RecordLayout layout, Segment segment) {
    this.layout = layout;
    this.segment = segment;
    this.ordinals = segment.size;
  }

  /**
   * The image of {@code fingerprints[0, n)}, entry i at position i: one sort, as {@link
   * BlockPermutedIndex#addAllOwned} does (two threads from 2^20 entries). When n is the array's
   * length the array is sorted in place (the caller's work space, not to be used after), else
   * copied. Transient heap: about 6 longs per entry while it sorts.
   */
  public static IndexImage build(BlockScheme scheme, long[] fingerprints, int n) {
    RecordLayout layout = new RecordLayout(scheme);
    long[] fps = workArray(fingerprints, n);
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    return new IndexImage(layout, Segment.build(layout, fps, ids));
  }

  /** The array itself when n is its length, else a copy of its first n: the sorts' input. */
  private static long[] workArray(long[] fingerprints, int n) {
    Checks.checkArgument(
        n >= 0 && n <= fingerprints.length && n <= Segment.MAX_SIZE,
        "n must be in [0, min(%s, %s)], got %s",
        (long) fingerprints.length,
        (long) Segment.MAX_SIZE,
        (long) n);
    return n == fingerprints.length ? fingerprints : java.util.Arrays.copyOf(fingerprints, n);
  }

  /**
   * Entries converted to records at a time while {@link #write(BlockScheme, long[], int,
   * WritableByteChannel)} streams a table out.
   */
  static final int WRITE_CHUNK = 1 << 16;

  /**
   * Writes the image of {@code fingerprints[0, n)} that {@link #build} and {@link
   * #write(WritableByteChannel)} would write, byte for byte, but one table at a time: each table is
   * sorted, streamed out and dropped before the next is sorted, so the heap it needs is 4 longs per
   * entry (the array, the positions and a sort's work space) where {@link #build} holds the whole
   * segment beside two threads' sorts. One thread; the CPU is the sorts' either way. When n is the
   * array's length the array is sorted in place (the caller's work space, not to be used after),
   * else copied. The caller closes {@code out}.
   *
   * @return the bytes written
   */
  public static long write(BlockScheme scheme, long[] fingerprints, int n, WritableByteChannel out)
      throws IOException {
    return write(scheme, fingerprints, n, out, WRITE_CHUNK);
  }

  static long write(
      BlockScheme scheme, long[] fingerprints, int n, WritableByteChannel out, int chunk)
      throws IOException {
    RecordLayout layout = new RecordLayout(scheme);
    long[] fps = workArray(fingerprints, n);
    ArrayOutput o = header(out, layout, n, false, 0); // positions: offsets from 0
    int tables = scheme.tables();
    int[][] dirs = new int[tables][];
    dirs[0] = writeTable0(o, fps, n, chunk);
    long[] permuted = new long[n];
    long[] work = new long[n];
    TableRecords records = TableRecords.create(layout, Math.min(n, chunk));
    for (int t = 1; t < tables; t++) {
      for (int i = 0; i < n; i++) {
        permuted[i] = layout.value(t, fps[i]);
      }
      RadixSort.sortUnsigned(permuted, n, work);
      dirs[t] = Segment.directory(permuted, n);
      writeRecords(o, permuted, n, -1L, records);
    }
    for (int[] dir : dirs) {
      o.writeInts(dir, 0, dir.length);
    }
    o.finish();
    return o.bytes();
  }

  /**
   * Sorts {@code fps[0, n)} with their positions as {@link Segment#build} sorts table 0, streams
   * table 0's records and the positions (offsets from base 0, as {@code DocIds.of} stores them) and
   * returns table 0's directory. The positions and the sort's work space (3 longs per entry) are
   * garbage when it returns.
   */
  private static int[] writeTable0(ArrayOutput o, long[] fps, int n, int chunk) throws IOException {
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    RadixSort.sortUnsigned(fps, ids, n, new long[n], new long[n]);
    Segment.sortIdsWithinEqualFingerprints(fps, ids, n);
    writeRecords(o, fps, n, Segment.MASK48, new WideRecords(Math.min(n, chunk)));
    int[] offsets = new int[Math.min(n, chunk)];
    for (int from = 0; from < n; from += offsets.length) {
      int m = Math.min(offsets.length, n - from);
      for (int i = 0; i < m; i++) {
        offsets[i] = (int) ids[from + i];
      }
      o.writeInts(offsets, 0, m);
    }
    return Segment.directory(fps, n);
  }

  /**
   * Streams {@code values[0, n)} (masked) as {@code records}' arrays of n entries would be written:
   * the prefix layout's ints; the wide layout's ints, then its shorts. {@code records} is the
   * chunk.
   */
  private static void writeRecords(
      ArrayOutput o, long[] values, int n, long mask, TableRecords records) throws IOException {
    int chunk = records.size();
    for (int pass = 0; pass < (records instanceof WideRecords ? 2 : 1); pass++) {
      for (int from = 0; from < n; from += chunk) {
        int m = Math.min(chunk, n - from);
        for (int i = 0; i < m; i++) {
          records.set(i, values[from + i] & mask);
        }
        if (records instanceof PrefixRecords p) {
          o.writeInts(p.data, 0, m);
        } else if (pass == 0) {
          o.writeInts(((WideRecords) records).hi, 0, m);
        } else {
          o.writeShorts(((WideRecords) records).lo, 0, m);
        }
      }
    }
  }

  public BlockScheme scheme() {
    return layout.scheme();
  }

  /** Entries, dead ones included. */
  public int size() {
    return segment().size;
  }

  /**
   * The ordinals the live entries cover, {@code [0, ordinals())}: {@link #size} until {@link
   * #renumber} left positions out.
   */
  public int ordinals() {
    return ordinals;
  }

  private Segment segment() {
    Segment s = segment;
    if (s == null) {
      throw new IllegalStateException("the image was added to an index already");
    }
    return s;
  }

  /** The segment, which the caller now owns; the image is used up. */
  Segment take() {
    Segment s = segment();
    segment = null;
    return s;
  }

  /**
   * Turns positions into ordinals when the positions in {@code skipped} got none: position p
   * becomes p minus the skipped positions below it, and a skipped position's entry is marked dead
   * (its id the next kept position's ordinal, so table 0 stays sorted by (fingerprint, id)).
   * O(size).
   *
   * @throws IllegalStateException if the ids are not positions (renumbered already)
   */
  public void renumber(BitSet skipped) {
    Segment s = segment();
    if (skipped.isEmpty()) {
      return;
    }
    int[] ids = s.ids.offsets();
    if (ids == null || s.ids.base() != 0 || ordinals != s.size || s.deadCount != 0) {
      throw new IllegalStateException("the image's ids are not positions");
    }
    long[] words = skipped.toLongArray();
    int[] below = new int[words.length + 1]; // skipped positions below each word
    for (int w = 0; w < words.length; w++) {
      below[w + 1] = below[w] + Long.bitCount(words[w]);
    }
    for (int i = 0; i < s.size; i++) {
      int p = ids[i];
      int w = p >>> 6;
      int skippedBelow;
      boolean dead;
      if (w < words.length) {
        skippedBelow = below[w] + Long.bitCount(words[w] & ((1L << p) - 1));
        dead = (words[w] & (1L << p)) != 0;
      } else {
        skippedBelow = below[words.length];
        dead = false;
      }
      ids[i] = p - skippedBelow;
      if (dead) {
        s.markDead(i);
      }
    }
    ordinals = s.size - s.deadCount;
  }

  /**
   * Whether {@code samples} live entries spread over table 0 hold the fingerprints {@code
   * fingerprintOf} gives their ids: a check that the image was made from the same documents in the
   * same order, beside the caller's own (a checksum of the fingerprints it wrote and read).
   */
  public boolean agrees(LongUnaryOperator fingerprintOf, int samples) {
    Segment s = segment();
    if (s.size == 0) {
      return true;
    }
    long step = Math.max(1, s.size / Math.max(1, samples));
    for (long i = 0; i < s.size; i += step) {
      int at = (int) i;
      if (!s.isDead(at) && fingerprintOf.applyAsLong(s.ids.get(at)) != s.fp(at)) {
        return false;
      }
    }
    return true;
  }

  /** An output to {@code out} that has written the image's fields up to its tables. */
  private static ArrayOutput header(
      WritableByteChannel out, RecordLayout layout, int size, boolean wideIds, long idsBase)
      throws IOException {
    BlockScheme scheme = layout.scheme();
    ArrayOutput o = new ArrayOutput(out);
    o.writeInt(MAGIC);
    o.writeInt(VERSION);
    o.writeInt(scheme.blocks());
    o.writeInt(scheme.required());
    o.writeInt(layout.prefix() ? 1 : 0);
    o.writeInt(size);
    o.writeInt(wideIds ? 1 : 0);
    o.writeLong(idsBase);
    return o;
  }

  /** Writes the image; the caller closes {@code out}. Returns the bytes written. */
  public long write(WritableByteChannel out) throws IOException {
    Segment s = segment();
    int[] offsets = s.ids.offsets();
    ArrayOutput o = header(out, layout, s.size, offsets == null, s.ids.base());
    o.writeInts(s.table0.hi, 0, s.size);
    o.writeShorts(s.table0.lo, 0, s.size);
    if (offsets != null) {
      o.writeInts(offsets, 0, s.size);
    } else {
      o.writeLongs(s.ids.wide());
    }
    for (int t = 1; t < s.records.length; t++) {
      if (s.records[t] instanceof PrefixRecords p) {
        o.writeInts(p.data, 0, s.size);
      } else {
        WideRecords w = (WideRecords) s.records[t];
        o.writeInts(w.hi, 0, s.size);
        o.writeShorts(w.lo, 0, s.size);
      }
    }
    for (int[] dir : s.dirs) {
      o.writeInts(dir, 0, dir.length);
    }
    o.finish();
    return o.bytes();
  }

  /**
   * Reads an image {@link #write} wrote.
   *
   * @throws IOException if it is not one, is torn or corrupt (its checksum or shape is wrong)
   */
  public static IndexImage read(ReadableByteChannel in) throws IOException {
    ArrayInput r = new ArrayInput(in);
    if (r.readInt() != MAGIC) {
      throw new IOException("not an index image");
    }
    r.readInt(VERSION, VERSION, "image version");
    int blocks = r.readInt(1, 64, "blocks");
    int required = r.readInt(1, blocks, "required blocks");
    BlockScheme scheme;
    try {
      scheme = BlockScheme.of(blocks, required);
    } catch (IllegalArgumentException e) {
      throw new IOException("the image's scheme: " + e.getMessage(), e);
    }
    RecordLayout layout = new RecordLayout(scheme);
    int prefix = r.readInt(0, 1, "prefix flag");
    if ((prefix == 1) != layout.prefix()) {
      throw new IOException("the image's record layout is not its scheme's");
    }
    int size = r.readInt(0, Segment.MAX_SIZE, "size");
    int idsWide = r.readInt(0, 1, "ids flag");
    long base = r.readLong();
    WideRecords table0 = new WideRecords(size);
    r.readInts(table0.hi);
    r.readShorts(table0.lo);
    DocIds ids;
    if (idsWide == 0) {
      int[] offsets = new int[size];
      r.readInts(offsets);
      ids = DocIds.ofOffsets(base, offsets);
    } else {
      long[] wide = new long[size];
      r.readLongs(wide);
      ids = DocIds.ofWide(wide);
    }
    int tables = scheme.tables();
    TableRecords[] records = new TableRecords[tables];
    for (int t = 1; t < tables; t++) {
      TableRecords rec = TableRecords.create(layout, size);
      if (rec instanceof PrefixRecords p) {
        r.readInts(p.data);
      } else {
        WideRecords w = (WideRecords) rec;
        r.readInts(w.hi);
        r.readShorts(w.lo);
      }
      records[t] = rec;
    }
    int[][] dirs = new int[tables][];
    for (int t = 0; t < tables; t++) {
      int[] dir = new int[Segment.BUCKETS + 1];
      r.readInts(dir);
      checkDirectory(dir, size, t);
      dirs[t] = dir;
    }
    r.finish();
    return new IndexImage(layout, new Segment(layout, size, table0, ids, records, dirs));
  }

  private static void checkDirectory(int[] dir, int size, int t) throws IOException {
    if (dir[0] != 0 || dir[Segment.BUCKETS] != size) {
      throw new IOException("table " + t + "'s directory does not span the entries");
    }
    for (int b = 0; b < Segment.BUCKETS; b++) {
      if (dir[b] > dir[b + 1]) {
        throw new IOException("table " + t + "'s directory decreases at bucket " + b);
      }
    }
  }

  /** Checks the segment's invariants (tests). */
  void checkInvariants() {
    segment().checkInvariants(layout);
  }
}
