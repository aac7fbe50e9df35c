// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;
import org.neardup.text.IdfTable;

/**
 * jieba's segmenter and IDF table as built, written at package time to the resources {@value
 * #SEGMENTER} and {@value #IDF}, so that a process loads them with one read and a few array copies
 * instead of parsing the text files ({@code dict.txt.gz}, {@code hmm.txt.gz}, {@code idf.txt.gz})
 * again: measured in docs/BENCHMARKS.md (fingerprinting as a user runs it).
 *
 * <p>The images hold exactly what {@link JiebaSegmenter#load()} and {@link JiebaLexicon#loadIdf()}
 * build from the text files, ids included; {@code JiebaImageTest} checks that the arrays agree. The
 * build writes them with {@link #main} (exec-maven-plugin, phase process-classes, segment-jieba's
 * pom), from the classes of the same build, so they cannot describe other code. A missing image
 * (classes run from an IDE without that step) falls back to the text files.
 *
 * <p>Public only for the build to run {@link #main}; not an API.
 *
 * <p>Format, big-endian ({@link DataOutputStream}), arrays as a count then the values:
 *
 * <pre>
 * Image     --&gt; Magic, Version, Kind, Body, Crc
 *   Magic: the 8 bytes "NDJIEBA\n"; Version: int 2; Kind: UTF "segmenter" | "idf"
 *   Crc: long, the CRC-32C of every byte before it
 * Segmenter --&gt; Id, LogTotal, Nodes, Cells, Weights, Start, Trans, Emit, RootCells, EdgeFilter
 *   Id: UTF; LogTotal: double; Nodes: int; Cells: long[]; Weights, Start: double[];
 *   Trans: double[16], row-major [from][to]; Emit: double[]; RootCells, EdgeFilter: long[], the
 *   trie's arrays derived from its cells (version 2: read instead of derived at each start)
 * Idf       --&gt; Id, DefaultIdf, Hashes, Idfs, MaxIdf, Slots, Filter
 *   Id: UTF; DefaultIdf: float; Hashes: long[]; Idfs: float[], as many as Hashes;
 *   MaxIdf: float; Slots, Filter: long[], the table's hash slots and absent-word filter as built
 *   (version 2: read as they are instead of hashing every entry again at each start)
 * </pre>
 */
public final class JiebaImage {
  static final String SEGMENTER = "jieba-segmenter.image";
  static final String IDF = "jieba-idf.image";

  private static final byte[] MAGIC = "NDJIEBA\n".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 2;

  private JiebaImage() {}

  /** Writes both images into the directory {@code args[0]}: the build's resource directory. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    Files.createDirectories(dir);
    write(dir.resolve(SEGMENTER), segmenter(JiebaSegmenter.loadFromText()));
    write(dir.resolve(IDF), idf(JiebaLexicon.loadIdfFromText()));
  }

  private static void write(Path file, byte[] image) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.write(tmp, image);
    Files.move(
        tmp,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** The image of a segmenter. */
  static byte[] segmenter(JiebaSegmenter s) throws IOException {
    WordTrie trie = s.trie();
    HmmModel hmm = s.hmm();
    Out out = new Out("segmenter");
    DataOutputStream d = out.data;
    d.writeUTF(s.id());
    d.writeDouble(s.logTotal());
    d.writeInt(trie.nodeCount());
    long[] cells = trie.cells();
    d.writeInt(cells.length);
    for (long c : cells) {
      d.writeLong(c);
    }
    doubles(d, trie.weights());
    doubles(d, hmm.start());
    double[][] trans = hmm.trans();
    double[] flat = new double[16];
    for (int i = 0; i < 4; i++) {
      System.arraycopy(trans[i], 0, flat, i * 4, 4);
    }
    doubles(d, flat);
    doubles(d, hmm.emit());
    longs(d, trie.rootCells());
    longs(d, trie.edgeFilter());
    return out.finish();
  }

  /** The image of an IDF table. */
  static byte[] idf(IdfTable t) throws IOException {
    Out out = new Out("idf");
    DataOutputStream d = out.data;
    d.writeUTF(t.id());
    d.writeFloat(t.defaultIdf());
    long[] hashes = t.entryHashes();
    float[] idfs = t.entryIdfs();
    d.writeInt(hashes.length);
    for (long h : hashes) {
      d.writeLong(h);
    }
    d.writeInt(idfs.length);
    for (float f : idfs) {
      d.writeFloat(f);
    }
    d.writeFloat(t.maxIdf());
    longs(d, t.slotsCopy());
    longs(d, t.filterCopy());
    return out.finish();
  }

  /** The segmenter of this package's image, or null if the image is not on the class path. */
  static @Nullable JiebaSegmenter readSegmenter() throws IOException {
    ByteBuffer b = open(SEGMENTER, "segmenter");
    if (b == null) {
      return null;
    }
    try {
      String id = utf(b);
      double logTotal = b.getDouble();
      int nodes = b.getInt();
      long[] cells = new long[count(b, 8)];
      b.asLongBuffer().get(cells);
      b.position(b.position() + cells.length * 8);
      double[] weights = doubles(b);
      double[] start = doubles(b);
      double[] flat = doubles(b);
      double[] emit = doubles(b);
      long[] rootCells = longs(b);
      long[] edgeFilter = longs(b);
      if (b.hasRemaining()) {
        throw new IllegalArgumentException(b.remaining() + " bytes after the edge filter");
      }
      if (flat.length != 16) {
        throw new IllegalArgumentException("expected 16 transitions, got " + flat.length);
      }
      double[][] trans = new double[4][4];
      for (int i = 0; i < 4; i++) {
        System.arraycopy(flat, i * 4, trans[i], 0, 4);
      }
      return new JiebaSegmenter(
          WordTrie.of(cells, weights, nodes, rootCells, edgeFilter),
          new HmmModel(start, trans, emit),
          logTotal,
          id);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw corrupt(SEGMENTER, e);
    }
  }

  /** The IDF table of this package's image, or null if the image is not on the class path. */
  static @Nullable IdfTable readIdf() throws IOException {
    ByteBuffer b = open(IDF, "idf");
    if (b == null) {
      return null;
    }
    try {
      String id = utf(b);
      float defaultIdf = b.getFloat();
      long[] hashes = new long[count(b, 8)];
      b.asLongBuffer().get(hashes);
      b.position(b.position() + hashes.length * 8);
      float[] idfs = new float[count(b, 4)];
      b.asFloatBuffer().get(idfs);
      b.position(b.position() + idfs.length * 4);
      float maxIdf = b.getFloat();
      long[] slots = longs(b);
      long[] filter = longs(b);
      if (b.hasRemaining()) {
        throw new IllegalArgumentException(b.remaining() + " bytes after the filter");
      }
      return IdfTable.ofImage(hashes, idfs, defaultIdf, maxIdf, id, slots, filter);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw corrupt(IDF, e);
    }
  }

  /** The body of a resource image after its header, checked; null if there is no such resource. */
  private static @Nullable ByteBuffer open(String name, String kind) throws IOException {
    byte[] bytes;
    try (InputStream in = JiebaImage.class.getResourceAsStream(name)) {
      if (in == null) {
        return null;
      }
      bytes = in.readAllBytes();
    }
    if (bytes.length < MAGIC.length + 4 + 8) {
      throw corrupt(name, new IllegalArgumentException(bytes.length + " bytes"));
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 8);
    long expected = b.getLong(bytes.length - 8);
    if (crc.getValue() != expected) {
      throw corrupt(
          name,
          new IllegalArgumentException(
              "checksum " + Long.toHexString(crc.getValue()) + ", expected " + expected));
    }
    b.limit(bytes.length - 8);
    byte[] magic = new byte[MAGIC.length];
    b.get(magic);
    int version = b.getInt();
    String k = utf(b);
    if (!java.util.Arrays.equals(magic, MAGIC) || version != VERSION || !k.equals(kind)) {
      throw corrupt(
          name,
          new IllegalArgumentException(
              "expected a version " + VERSION + " " + kind + " image, got version " + version));
    }
    return b;
  }

  private static IOException corrupt(String name, Exception e) {
    return new IOException(
        "resource org/neardup/segment/jieba/"
            + name
            + " is damaged ("
            + e.getMessage()
            + "); the neardup-segment-jieba jar is incomplete",
        e);
  }

  private static int count(ByteBuffer b, int width) {
    int n = b.getInt();
    if (n < 0 || (long) n * width > b.remaining()) {
      throw new IllegalArgumentException(
          "array of " + n + " with " + b.remaining() + " bytes left");
    }
    return n;
  }

  private static String utf(ByteBuffer b) {
    int n = b.getShort() & 0xFFFF;
    byte[] s = new byte[n];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8); // ids are ASCII: modified UTF-8 is UTF-8 there
  }

  private static long[] longs(ByteBuffer b) {
    long[] a = new long[count(b, 8)];
    b.asLongBuffer().get(a);
    b.position(b.position() + a.length * 8);
    return a;
  }

  private static void longs(DataOutputStream d, long[] a) throws IOException {
    d.writeInt(a.length);
    for (long v : a) {
      d.writeLong(v);
    }
  }

  private static double[] doubles(ByteBuffer b) {
    double[] a = new double[count(b, 8)];
    b.asDoubleBuffer().get(a);
    b.position(b.position() + a.length * 8);
    return a;
  }

  private static void doubles(DataOutputStream d, double[] a) throws IOException {
    d.writeInt(a.length);
    for (double v : a) {
      d.writeDouble(v);
    }
  }

  /** An image being written: header first, checksum last. */
  private static final class Out {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 20);
    final DataOutputStream data = new DataOutputStream(bytes);

    Out(String kind) throws IOException {
      data.write(MAGIC);
      data.writeInt(VERSION);
      data.writeUTF(kind);
    }

    byte[] finish() throws IOException {
      data.flush();
      CRC32C crc = new CRC32C();
      byte[] body = bytes.toByteArray();
      crc.update(body, 0, body.length);
      data.writeLong(crc.getValue());
      data.flush();
      return bytes.toByteArray();
    }
  }
}
