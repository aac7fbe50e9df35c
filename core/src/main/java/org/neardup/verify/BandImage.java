// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.neardup.internal.ArrayInput;
import org.neardup.internal.ArrayOutput;
import org.neardup.internal.Checks;

/**
 * The frozen runs of a {@link BandIndex} of a sequence of documents, to keep in a file: a store
 * writes one beside a snapshot so that its next open reads the band index ({@link #read}, bulk
 * reads of the runs' arrays) instead of sorting every document's band keys into runs again (at 50M
 * documents that sort was about half of the open's CPU). Position i is the i-th document given to
 * the {@link Writer}; {@link #renumber} turns positions into the ordinals an open gave the
 * documents it kept, and {@link BandIndex#addImage} takes the runs as they are.
 *
 * <pre>
 * Image  --> Magic, Version, BandCount, Run*, End, Positions, Checksum  (ArrayOutput: little-endian)
 * Run    --> Entries (int, 1 .. 2^23), MinOrdinal, MaxOrdinal, Starts int[65537], Lows char[Entries],
 *            Ords int[Entries] (ordinal + 1), Tags byte[Entries]     (a BandRun's arrays)
 * End    --> int -1
 * Checksum --> CRC32C of every byte before it
 * </pre>
 *
 * A run holds the entries of {@code BandIndex.MAX_RUN / BandCount} consecutive documents (the last
 * fewer), as {@link BandIndex#addAll} would have made them: 7 bytes per entry and 256 KiB per run,
 * about 42 bytes per document of 6 bands on disk and the same on the heap once read.
 *
 * <p>Not thread-safe; used once.
 */
public final class BandImage {
  private static final int MAGIC = 0x4E44_4244; // "NDBD"
  private static final int VERSION = 1;
  private static final int END = -1;

  private final int bandCount;
  private List<BandRun> runs;
  private final int positions;
  private int ordinals;

  private BandImage(int bandCount, List<BandRun> runs, int positions) {
    this.bandCount = bandCount;
    this.runs = runs;
    this.positions = positions;
    this.ordinals = positions;
  }

  /** The documents the image was written from, each a position. */
  public int positions() {
    return positions;
  }

  /** The ordinals its entries name: positions less those {@link #renumber} left out. */
  public int ordinals() {
    return ordinals;
  }

  /** Band keys per document. */
  public int bandCount() {
    return bandCount;
  }

  /**
   * Turns positions into ordinals when the positions in {@code skipped} got none: position p
   * becomes p minus the skipped positions below it, and a skipped position's entries are left out.
   * O(entries); once.
   */
  public void renumber(BitSet skipped) {
    Checks.checkState(ordinals == positions, "the image is renumbered already");
    if (skipped.isEmpty()) {
      return;
    }
    long[] words = skipped.toLongArray();
    int[] below = new int[words.length + 1];
    for (int w = 0; w < words.length; w++) {
      below[w + 1] = below[w] + Long.bitCount(words[w]);
    }
    List<BandRun> kept = new ArrayList<>(runs.size());
    for (BandRun run : runs) {
      BandRun r = run.renumbered(words, below);
      if (r != null) {
        kept.add(r);
      }
    }
    runs = kept;
    ordinals = positions - skipped.get(0, positions).cardinality();
  }

  /** The runs, oldest first, which the caller now owns: the image is used up. */
  List<BandRun> take() {
    List<BandRun> r = runs;
    Checks.checkState(r != null, "the image was taken already");
    runs = null;
    return r;
  }

  /**
   * Reads an image a {@link Writer} wrote for documents of {@code bandCount} band keys.
   *
   * @throws IOException if it is not one, is of another band count, torn or corrupt (its checksum
   *     or a run's shape is wrong)
   */
  public static BandImage read(ReadableByteChannel in, int bandCount) throws IOException {
    return read(in, bandCount, bandCount);
  }

  /**
   * Reads an image a {@link Writer} wrote, of whatever band count it has ({@link #bandCount()}):
   * for a reader that learns the count it needs later.
   *
   * @throws IOException if it is not one, torn or corrupt
   */
  public static BandImage read(ReadableByteChannel in) throws IOException {
    return read(in, 1, 64);
  }

  private static BandImage read(ReadableByteChannel in, int minBands, int maxBands)
      throws IOException {
    ArrayInput r = new ArrayInput(in);
    if (r.readInt() != MAGIC) {
      throw new IOException("not a band image");
    }
    r.readInt(VERSION, VERSION, "band image version");
    int bandCount = r.readInt(minBands, maxBands, "band count");
    List<BandRun> runs = new ArrayList<>();
    int previous = -1;
    // Positions come at the end: each run's ordinals are checked against the largest possible and
    // the runs' order, then against Positions once it is read.
    for (int n = r.readInt(END, BandIndex.MAX_RUN, "run entries");
        n != END;
        n = r.readInt(END, BandIndex.MAX_RUN, "run entries")) {
      if (n == 0) {
        throw new IOException("an empty run");
      }
      BandRun run = BandRun.read(r, n, Integer.MAX_VALUE - 8);
      if (run.minOrdinal <= previous) {
        throw new IOException("runs out of order at ordinal " + run.minOrdinal);
      }
      previous = run.maxOrdinal;
      runs.add(run);
    }
    int positions = r.readInt(previous + 1, Integer.MAX_VALUE - 8, "positions");
    r.finish();
    return new BandImage(bandCount, runs, positions);
  }

  /**
   * Writes the image of documents given one at a time, position by position: their band keys are
   * gathered until a run's worth and then sorted into a run ({@link BandRun#ofSlots}) and written,
   * so the writer holds at most one run's entries however many documents it takes (about 24 bytes
   * per entry of 2^23 while it sorts, ~200 MB). Not thread-safe.
   */
  public static final class Writer {
    private final ArrayOutput out;
    private final int bandCount;
    private final int perRun;
    // Grown by doubling up to a run's entries: a small collection's writer stays small.
    private long[] slots;
    private byte[] tags;
    private int gathered; // entries in slots
    private int positions;
    private boolean finished;

    /** A writer to {@code out} of documents of {@code bandCount} (at least 1) band keys each. */
    public Writer(WritableByteChannel out, int bandCount) throws IOException {
      this(out, bandCount, Math.max(1, BandIndex.MAX_RUN / Math.max(1, bandCount)));
    }

    /** For tests: runs of {@code documentsPerRun} documents. */
    Writer(WritableByteChannel out, int bandCount, int documentsPerRun) throws IOException {
      Checks.checkArgument(
          bandCount > 0 && bandCount <= 64, "bandCount must be in [1, 64], got %s", bandCount);
      Checks.checkArgument(
          documentsPerRun > 0 && (long) documentsPerRun * bandCount <= BandIndex.MAX_RUN,
          "runs of %s documents of %s keys pass the most a run holds",
          documentsPerRun,
          bandCount);
      this.out = new ArrayOutput(out);
      this.bandCount = bandCount;
      this.perRun = documentsPerRun * bandCount;
      this.slots = new long[Math.min(perRun, FIRST_BUFFER)];
      this.tags = new byte[slots.length];
      this.out.writeInt(MAGIC);
      this.out.writeInt(VERSION);
      this.out.writeInt(bandCount);
    }

    /** Adds the next document, its band keys {@code keys[0, bandCount)}. */
    public void add(long[] keys) throws IOException {
      Checks.checkArgument(
          keys.length >= bandCount, "%s band keys, need %s", keys.length, bandCount);
      for (int b = 0; b < bandCount; b++) {
        put(keys[b]);
      }
      next();
    }

    /**
     * Adds the next document, its band keys big-endian at {@code bytes[off, off + 8 * bandCount)}.
     */
    public void add(byte[] bytes, int off) throws IOException {
      Checks.checkArgument(
          off >= 0 && off + 8L * bandCount <= bytes.length,
          "band keys at %s past the %s bytes",
          off,
          bytes.length);
      for (int b = 0; b < bandCount; b++) {
        put(bigEndianLong(bytes, off + 8 * b));
      }
      next();
    }

    private void put(long key) {
      if (gathered == slots.length) {
        int grown = (int) Math.min(perRun, 2L * slots.length);
        slots = java.util.Arrays.copyOf(slots, grown);
        tags = java.util.Arrays.copyOf(tags, grown);
      }
      tags[gathered] = BandIndex.keyTag(key);
      slots[gathered++] = (long) BandIndex.fold(key) << 32 | (positions + 1L);
    }

    private void next() throws IOException {
      Checks.checkState(!finished, "the image is written already");
      Checks.checkState(positions < Integer.MAX_VALUE - 9, "too many documents for an image");
      positions++;
      if (gathered == perRun) {
        writeRun();
      }
    }

    private void writeRun() throws IOException {
      if (gathered > 0) {
        BandRun.ofSlots(slots, tags, gathered).write(out);
        gathered = 0;
      }
    }

    /** Band keys per document. */
    public int bandCount() {
      return bandCount;
    }

    /** Entries a writer's buffers hold at first (512 KiB of longs). */
    private static final int FIRST_BUFFER = 1 << 16;

    /** Documents added. */
    public int positions() {
      return positions;
    }

    /** Writes the last run and the end; returns the bytes written. */
    public long finish() throws IOException {
      Checks.checkState(!finished, "the image is written already");
      writeRun();
      finished = true;
      out.writeInt(END);
      out.writeInt(positions);
      out.finish();
      return out.bytes();
    }

    private static long bigEndianLong(byte[] b, int at) {
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = v << 8 | (b[at + i] & 0xFF);
      }
      return v;
    }
  }
}
