// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.neardup.CorpusDedup;
import org.neardup.internal.Checks;
import org.neardup.internal.Sorts;

/**
 * Every near-duplicate pair of a {@code neardup dedup} run, with bounded heap however many there
 * are: pairs collect in a chunk of primitive arrays, and a full chunk is sorted and written to a
 * run file; {@link #cursor()} then merges the runs into (first, second) order. A corpus with fewer
 * pairs than one chunk never touches the disk.
 *
 * <p>Heap: about 21 bytes per pair of the chunk (key 8, order 4, similarity 8, distance 1), so the
 * default chunk of {@link #chunkFor(long) 1/400 of the heap} peaks near 5% of it. Disk: 3 to 7
 * bytes per pair, plus 8 with similarities.
 *
 * <p>Thread safety: {@link #accept} may be called from several threads at once (as {@link
 * CorpusDedup#findPairs} does); {@link #size} from any thread. {@link #finish} once every accept
 * has returned, then {@link #cursor()} from one thread at a time.
 */
final class PairSpill implements CorpusDedup.PairSink, Closeable {
  /*
   * Run file grammar, pairs in increasing key order, key = first << 32 | second:
   *   Run --> Pair*
   *   Pair --> KeyDelta (unsigned LEB128 varint: key minus the previous key, the first from 0),
   *            Distance (1 byte), Similarity (8-byte double, only when similarities are kept)
   * Every pair is reported once (CorpusDedup's promise), so keys within and across runs are
   * distinct and the merge needs no tie rule.
   */
  private final Path dir;
  private final boolean similarities;
  private final int chunk;
  private long[] keys;
  private byte[] distances;
  private double[] sims;
  private int n;
  private final AtomicLong total = new AtomicLong();
  private final List<Path> runs = new ArrayList<>();
  private boolean finished;

  /**
   * @param dir where run files go (created if missing); the caller deletes it, or {@link #close}
   *     deletes the runs
   * @param similarities whether pairs carry a similarity (verification on)
   * @param chunk pairs held in memory before a run is written
   */
  PairSpill(Path dir, boolean similarities, int chunk) {
    Checks.checkArgument(chunk >= 1, "chunk must be >= 1, got %s", chunk);
    this.dir = dir;
    this.similarities = similarities;
    this.chunk = chunk;
    int initial = Math.min(chunk, 1 << 12);
    keys = new long[initial];
    distances = new byte[initial];
    sims = similarities ? new double[initial] : new double[0];
  }

  /** The default chunk for a heap of {@code maxHeap} bytes: 1/400 of it, in [2^16, 2^24] pairs. */
  static int chunkFor(long maxHeap) {
    return (int) Math.max(1 << 16, Math.min(1 << 24, maxHeap / 400));
  }

  @Override
  public synchronized void accept(int i, int j, int distance, double similarity) {
    Checks.checkState(!finished, "pairs after finish()");
    if (n == keys.length) {
      if (n == chunk) {
        try {
          spill();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException("cannot write pairs to " + dir, e);
        }
      } else {
        grow(Math.min(chunk, n * 2));
      }
    }
    int a = Math.min(i, j);
    int b = Math.max(i, j);
    keys[n] = ((long) a << 32) | b;
    distances[n] = (byte) distance;
    if (similarities) {
      sims[n] = similarity;
    }
    n++;
    total.incrementAndGet();
  }

  private void grow(int capacity) {
    keys = java.util.Arrays.copyOf(keys, capacity);
    distances = java.util.Arrays.copyOf(distances, capacity);
    if (similarities) {
      sims = java.util.Arrays.copyOf(sims, capacity);
    }
  }

  /** Sorts the chunk in place (keys with a permutation, then the payloads by it). */
  private void sortChunk() {
    int[] order = new int[n];
    for (int k = 0; k < n; k++) {
      order[k] = k;
    }
    Sorts.sortByKey(keys, order, n);
    byte[] d = new byte[n];
    for (int k = 0; k < n; k++) {
      d[k] = distances[order[k]];
    }
    System.arraycopy(d, 0, distances, 0, n);
    if (similarities) {
      double[] s = new double[n];
      for (int k = 0; k < n; k++) {
        s[k] = sims[order[k]];
      }
      System.arraycopy(s, 0, sims, 0, n);
    }
  }

  private void spill() throws IOException {
    sortChunk();
    Files.createDirectories(dir);
    Path run = dir.resolve("pairs-" + runs.size());
    try (DataOutputStream out =
        new DataOutputStream(
            new BufferedOutputStream(
                Files.newOutputStream(run, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                1 << 16))) {
      long previous = 0;
      for (int k = 0; k < n; k++) {
        writeVarLong(out, keys[k] - previous);
        previous = keys[k];
        out.writeByte(distances[k]);
        if (similarities) {
          out.writeDouble(sims[k]);
        }
      }
    }
    runs.add(run);
    n = 0;
  }

  /** The number of pairs accepted so far. */
  long size() {
    return total.get();
  }

  /** How many run files were written (0 when every pair fit in one chunk). */
  int runCount() {
    return runs.size();
  }

  /** Ends the accept phase: sorts what is in memory. */
  synchronized void finish() {
    Checks.checkState(!finished, "finish() called twice");
    finished = true;
    sortChunk();
  }

  /** A fresh pass over every pair in (first, second) order. */
  Cursor cursor() throws IOException {
    Checks.checkState(finished, "cursor() before finish()");
    List<Source> sources = new ArrayList<>(runs.size() + 1);
    for (Path run : runs) {
      sources.add(new FileSource(run, similarities));
    }
    sources.add(new MemorySource());
    return new Cursor(sources);
  }

  @Override
  public void close() throws IOException {
    for (Path run : runs) {
      Files.deleteIfExists(run);
    }
    runs.clear();
    keys = new long[0];
    distances = new byte[0];
    sims = new double[0];
    n = 0;
  }

  private static void writeVarLong(DataOutputStream out, long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  /** One sorted source of pairs: a run file or the in-memory chunk. */
  private abstract static class Source implements Closeable {
    long key;
    int distance;
    double similarity = Double.NaN;

    /** Moves to the next pair; false at the end. */
    abstract boolean advance() throws IOException;

    @Override
    public void close() throws IOException {}
  }

  private final class MemorySource extends Source {
    private int next;

    @Override
    boolean advance() {
      if (next == n) {
        return false;
      }
      key = keys[next];
      distance = distances[next];
      if (similarities) {
        similarity = sims[next];
      }
      next++;
      return true;
    }
  }

  private static final class FileSource extends Source {
    private final DataInputStream in;
    private final boolean similarities;
    private final Path path;

    FileSource(Path path, boolean similarities) throws IOException {
      this.path = path;
      this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16));
      this.similarities = similarities;
    }

    @Override
    boolean advance() throws IOException {
      int b = in.read();
      if (b < 0) {
        return false;
      }
      long delta = 0;
      int shift = 0;
      while (true) {
        delta |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
        shift += 7;
        b = in.read();
        if (b < 0 || shift > 63) {
          throw new EOFException("pair run " + path + " ends inside a pair");
        }
      }
      key += delta;
      distance = in.readUnsignedByte();
      if (similarities) {
        similarity = in.readDouble();
      }
      return true;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /**
   * The pairs of every source merged in key order: a binary min-heap of sources on their current
   * key (a few dozen runs at most for billions of pairs, so log2 of it per pair).
   */
  static final class Cursor implements Closeable {
    private final List<Source> all;
    private final Source[] heap;
    private int size;
    private Source current;

    private Cursor(List<Source> sources) throws IOException {
      this.all = sources;
      this.heap = new Source[sources.size()];
      for (Source s : sources) {
        if (s.advance()) {
          heap[size++] = s;
          up(size - 1);
        }
      }
    }

    /** Moves to the next pair; false when every pair has been seen. */
    boolean next() throws IOException {
      if (current != null) {
        if (current.advance()) {
          heap[0] = current;
          down(0);
        } else {
          heap[0] = heap[--size];
          heap[size] = null;
          if (size > 0) {
            down(0);
          }
        }
        current = null;
      }
      if (size == 0) {
        return false;
      }
      current = heap[0];
      return true;
    }

    /** The smaller document ordinal of the current pair. */
    int first() {
      return (int) (current.key >>> 32);
    }

    /** The larger document ordinal of the current pair. */
    int second() {
      return (int) current.key;
    }

    int distance() {
      return current.distance;
    }

    /** The verified similarity of the current pair, NaN without verification. */
    double similarity() {
      return current.similarity;
    }

    private void up(int i) {
      while (i > 0) {
        int p = (i - 1) >>> 1;
        if (heap[p].key <= heap[i].key) {
          return;
        }
        swap(i, p);
        i = p;
      }
    }

    private void down(int i) {
      while (true) {
        int l = 2 * i + 1;
        if (l >= size) {
          return;
        }
        int m = l + 1 < size && heap[l + 1].key < heap[l].key ? l + 1 : l;
        if (heap[i].key <= heap[m].key) {
          return;
        }
        swap(i, m);
        i = m;
      }
    }

    private void swap(int a, int b) {
      Source t = heap[a];
      heap[a] = heap[b];
      heap[b] = t;
    }

    @Override
    public void close() throws IOException {
      IOException first = null;
      for (Source s : all) {
        try {
          s.close();
        } catch (IOException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }
}
