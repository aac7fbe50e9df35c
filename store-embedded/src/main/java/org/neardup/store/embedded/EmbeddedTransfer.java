// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoredDocument;
import org.neardup.store.StoredRecord;

/**
 * Export and import for the {@link EmbeddedStore}. Ordinals are DocIds.
 *
 * <p>Export writes a snapshot ({@link EmbeddedStore#checkpoint()}) unless nothing was logged since
 * the newest one (a store that was closed cleanly: the usual case), and reads the collection's
 * documents back from it, since the engine keeps sketches in its own form: each snapshot document
 * is an insert record with the encoded analysis, and the live generation gives its cluster's
 * representative. No compaction runs meanwhile.
 *
 * <p>Import creates the collection, then, for each record, builds the insert record a snapshot
 * would hold (its Cluster the record's root), appends it to the log and feeds it to a {@link
 * Restorer}, which builds a generation exactly as opening the store does; {@link Importer#finish()}
 * puts that generation in place and waits for the log. No compaction runs meanwhile (it would write
 * the half-filled collection into a snapshot without the records it has not seen). A cluster whose
 * root was removed before the export is represented after the import by its earliest imported
 * member, as the embedded store itself does after a restart.
 */
final class EmbeddedTransfer implements CollectionTransfer {
  /** Snapshot documents whose clusters are looked up at once (one hold of the read lock). */
  private static final int CHUNK = 256;

  private final EmbeddedStore store;

  EmbeddedTransfer(EmbeddedStore store) {
    this.store = store;
  }

  @Override
  public long export(String name, RecordSink sink) throws IOException {
    EmbeddedCollection c = (EmbeddedCollection) store.collection(name);
    if (c == null) {
      throw new IllegalArgumentException("no collection named '" + name + "'");
    }
    java.util.concurrent.locks.Lock hold = store.compactionHold();
    hold.lock();
    try {
      if (store.snapshotFile() == null || store.logBytesSinceSnapshot() > 0) {
        store.checkpoint(); // else the newest snapshot holds every stored document already
      }
      Path file = store.snapshotFile();
      if (file == null) {
        return 0L;
      }
      Chunk chunk = new Chunk(c, sink, store.clock().millis());
      try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(file)) {
        while (r.next()) {
          if (Bytes.getInt(r.body(), LogFormat.COLLECTION) == c.number) {
            chunk.add(r.body(), r.length());
          }
        }
      }
      chunk.flush();
      return chunk.exported;
    } finally {
      hold.unlock();
    }
  }

  /** Snapshot documents of one collection, looked up and exported {@value #CHUNK} at a time. */
  private static final class Chunk {
    private final EmbeddedCollection c;
    private final RecordSink sink;
    private final long now;
    private final byte[][] bodies = new byte[CHUNK][];
    private final int[] lengths = new int[CHUNK];
    private final long[] docIds = new long[CHUNK];
    private final long[] roots = new long[CHUNK];
    private int n;
    long exported;

    Chunk(EmbeddedCollection c, RecordSink sink, long now) {
      this.c = c;
      this.sink = sink;
      this.now = now;
    }

    void add(byte[] body, int length) throws IOException {
      bodies[n] = Arrays.copyOf(body, length);
      lengths[n] = length;
      docIds[n] = Bytes.getLong(body, LogFormat.DOC_ID);
      if (++n == CHUNK) {
        flush();
      }
    }

    void flush() throws IOException {
      c.snapshotClusters(docIds, n, now, roots);
      for (int i = 0; i < n; i++) {
        if (roots[i] >= 0) {
          sink.accept(record(bodies[i], lengths[i], docIds[i], roots[i]));
          exported++;
        }
      }
      n = 0;
    }

    private StoredRecord record(byte[] body, int length, long docId, long root) {
      int idLength = LogFormat.idLength(body);
      String id = new String(body, LogFormat.ID, idLength, StandardCharsets.UTF_8);
      int at = LogFormat.analysisOffset(body, length);
      long fingerprint = Bytes.getLong(body, at);
      int[] pos = {at + 8};
      varint(body, pos); // letters: the other stores do not keep it
      int bands = (int) varint(body, pos);
      long[] keys = new long[bands];
      for (int b = 0; b < bands; b++) {
        keys[b] = Bytes.getLong(body, pos[0]);
        pos[0] += 8;
      }
      byte[] sketch = Arrays.copyOfRange(body, pos[0], length);
      String cluster = id;
      if (root != docId) {
        Optional<StoredDocument> d = c.get(id);
        cluster = d.isPresent() ? d.get().cluster() : "#" + root;
      }
      return new StoredRecord(
          docId,
          id,
          fingerprint,
          Bytes.getLong(body, LogFormat.TIMESTAMP),
          Bytes.getLong(body, LogFormat.EXPIRES_AT),
          root,
          cluster,
          keys,
          sketch);
    }
  }

  static long varint(byte[] b, int[] pos) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte x = b[pos[0]++];
      v |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("corrupt analysis: varint too long");
  }

  @Override
  public Importer importer(String name, CollectionSettings settings, String analyzerId)
      throws IOException {
    FingerprintStore.checkName(name);
    Objects.requireNonNull(settings, "settings");
    String here = settings.deduplicator().analyzer().id();
    if (!here.equals(analyzerId)) {
      throw new IllegalArgumentException(
          "the dump was analysed with '"
              + analyzerId
              + "', this build analyses these settings with '"
              + here
              + "': its sketches would not match new texts (import it with the build that exported"
              + " it)");
    }
    if (store.collection(name) != null) {
      throw new IllegalArgumentException("collection '" + name + "' exists");
    }
    return new Loader(name, settings);
  }

  /** Fills a new collection; holds compactions off from creation to finish or close. */
  private final class Loader implements Importer {
    private final String name;
    private final CollectionSettings settings;
    private final java.util.concurrent.locks.Lock hold;
    private final EmbeddedCollection c;
    private final Restorer restorer;
    private final long now;
    private long last = -1;
    private long position;
    private long added;
    private boolean done;

    Loader(String name, CollectionSettings settings) throws IOException {
      this.name = name;
      this.settings = settings;
      this.hold = store.compactionHold();
      hold.lock();
      try {
        this.c = (EmbeddedCollection) store.create(name, settings);
      } catch (IOException | RuntimeException e) {
        hold.unlock();
        throw e;
      }
      this.restorer =
          new Restorer(settings, c.analyzer(), 1 << 16, true, false, store.sketchFiles(c.number));
      this.now = store.clock().millis();
    }

    @Override
    public void add(StoredRecord r) throws IOException {
      if (done) {
        throw new IllegalStateException("the import finished");
      }
      // The restorer checks the analysis (band count, sketch) before anything is logged.
      byte[] id = Importer.checkNext(r, last, -1);
      byte[] body = LogFormat.insert(c.number, r.timestamp(), r.expiresAt(), id, analysis(r));
      Bytes.putLong(body, LogFormat.DOC_ID, r.ordinal());
      Bytes.putLong(body, LogFormat.CLUSTER, r.root());
      restorer.restore(body, body.length, now);
      position = store.log().append(body);
      last = r.ordinal();
      added++;
    }

    private byte[] analysis(StoredRecord r) {
      long[] keys = settings.verify() ? r.bandKeys() : new long[0];
      byte[] sketch = settings.verify() ? r.sketch() : new byte[0];
      byte[] out = new byte[8 + 1 + 2 + keys.length * 8 + sketch.length];
      Bytes.putLong(out, 0, r.fingerprint());
      int p = 8;
      out[p++] = 1; // letters: not empty (the other stores do not keep the count)
      int n = keys.length;
      while ((n & ~0x7F) != 0) {
        out[p++] = (byte) ((n & 0x7F) | 0x80);
        n >>>= 7;
      }
      out[p++] = (byte) n;
      for (long k : keys) {
        Bytes.putLong(out, p, k);
        p += 8;
      }
      System.arraycopy(sketch, 0, out, p, sketch.length);
      return Arrays.copyOf(out, p + sketch.length);
    }

    @Override
    public long finish() throws IOException {
      if (done) {
        return added;
      }
      Generation g = restorer.finish(last + 1);
      c.load(g, last + 1);
      if (position > 0) {
        store.log().await(position);
      }
      done = true;
      hold.unlock();
      return added;
    }

    @Override
    public void close() throws IOException {
      if (done) {
        return;
      }
      done = true;
      try {
        store.drop(name);
      } finally {
        hold.unlock();
      }
    }
  }

  /** Registered under {@code META-INF/services}. */
  public static final class Provider implements CollectionTransfer.Provider {
    @Override
    public String kind() {
      return "embedded";
    }

    @Override
    public CollectionTransfer open(FingerprintStore store) {
      return new EmbeddedTransfer((EmbeddedStore) store);
    }
  }
}
