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
    Checks.checkArgument(
        n >= 0 && n <= fingerprints.length && n <= Segment.MAX_SIZE,
        "n must be in [0, min(%s, %s)], got %s",
        (long) fingerprints.length,
        (long) Segment.MAX_SIZE,
        (long) n);
    RecordLayout layout = new RecordLayout(scheme);
    long[] fps = n == fingerprints.length ? fingerprints : java.util.Arrays.copyOf(fingerprints, n);
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    return new IndexImage(layout, Segment.build(layout, fps, ids));
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

  /** Writes the image; the caller closes {@code out}. Returns the bytes written. */
  public long write(WritableByteChannel out) throws IOException {
    Segment s = segment();
    BlockScheme scheme = layout.scheme();
    ArrayOutput o = new ArrayOutput(out);
    o.writeInt(MAGIC);
    o.writeInt(VERSION);
    o.writeInt(scheme.blocks());
    o.writeInt(scheme.required());
    o.writeInt(layout.prefix() ? 1 : 0);
    o.writeInt(s.size);
    int[] offsets = s.ids.offsets();
    o.writeInt(offsets == null ? 1 : 0);
    o.writeLong(s.ids.base());
    o.writeInts(s.table0.hi, 0, s.size);
    o.writeShorts(s.table0.lo);
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
        o.writeShorts(w.lo);
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
