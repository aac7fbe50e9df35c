// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.neardup.store.hbase.HBaseStore.DOC_FAMILY;
import static org.neardup.store.hbase.HBaseStore.META_FAMILY;
import static org.neardup.store.hbase.HBaseStore.bytes;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * Deletes every row of a dropped collection (or of an import that failed): the documents table's
 * rows under the collection's uid are read in one scan and deleted in slices of {@link #SLICE_ROWS}
 * rows, each slice's index cells first and its rows after them, so that no document row goes before
 * its index cells (a document row is what leads a later purge to its index cells).
 *
 * <p>Up to {@code inFlight} slices' deletes are under way while the scan reads on ({@link
 * #IN_FLIGHT} by default; one slice at a time, as before this class, waits for each slice's deletes
 * before it reads on). Progress: the store's {@code hbase_purged_documents} counts the documents
 * whose rows are gone, and a line is logged every 10 seconds (a 10M collection takes minutes).
 */
final class Purge {
  private static final System.Logger LOG = System.getLogger(Purge.class.getName());

  /** Rows of the documents table per slice (a slice of documents carries ~10 index cells each). */
  static final int SLICE_ROWS = 1000;

  /**
   * Slices under way at once in a store's purges unless a benchmark sets another. Four: drops of
   * 50,000 verified documents on the 2-core mini-cluster ran at 1.42x the documents/s of one slice
   * at a time with 1.15x the JVM's CPU per document at load 3-6 (median of 5 interleaved rounds,
   * each drop after a flush; faster in every round); at load 11-15, with the cores taken by others,
   * at 0.75x with 1.28x the CPU. A purge is mostly waiting on the region servers, which apply one
   * slice while the scan reads the next (HBaseStoreBench's PURGE phase compares them).
   */
  static final int IN_FLIGHT = 4;

  private static final long REPORT_NANOS = 10_000_000_000L;

  private final HBaseStore store;
  private final HBaseCollection c;
  private final int inFlight;
  private final AsyncTable<?> index;
  private final AsyncTable<?> docs;
  private final ArrayDeque<CompletableFuture<Void>> pending = new ArrayDeque<>();
  private final java.util.concurrent.atomic.LongAdder deleted =
      new java.util.concurrent.atomic.LongAdder();
  private long total;
  private long started;
  private long reported;

  Purge(HBaseStore store, HBaseCollection c, int inFlight) {
    if (inFlight < 1) {
      throw new IllegalArgumentException("slices in flight must be at least 1, got " + inFlight);
    }
    this.store = store;
    this.c = c;
    this.inFlight = inFlight;
    this.index = store.async().getTable(store.index);
    this.docs = store.async().getTable(store.docs);
  }

  void run() throws IOException {
    started = System.nanoTime();
    reported = started;
    byte[] statsRow = HBaseStore.uidRow('s', c.uid);
    try (Table meta = store.connection().getTable(store.meta)) {
      byte[] n = meta.get(new Get(statsRow)).getValue(META_FAMILY, bytes("documents"));
      total = n == null ? 0 : Rows.toLong(n);
    }
    try (Table docsTable = store.connection().getTable(store.docs);
        ResultScanner rs =
            docsTable.getScanner(new Scan().setStartStopRowForPrefixScan(Rows.uidPrefix(c.uid)))) {
      List<Delete> rows = new ArrayList<>();
      List<Delete> cells = new ArrayList<>();
      long documents = 0;
      for (Result r : rs) {
        byte[] row = r.getRow();
        if (row[4] == Rows.DOC) {
          byte[] rec = r.getValue(DOC_FAMILY, HBaseCollection.REC);
          if (rec != null) {
            c.indexDeletes(Rows.toLong(row, 5), DocRecord.decode(rec), cells);
            documents++;
          }
        }
        rows.add(new Delete(row));
        if (rows.size() >= SLICE_ROWS) {
          send(cells, rows, documents);
          rows = new ArrayList<>();
          cells = new ArrayList<>();
          documents = 0;
        }
      }
      send(cells, rows, documents);
      while (!pending.isEmpty()) {
        join(pending.poll());
      }
    }
    try (Table meta = store.connection().getTable(store.meta)) {
      meta.delete(
          new ArrayList<>(
              List.of(
                  new Delete(HBaseStore.uidRow('q', c.uid)),
                  new Delete(statsRow),
                  new Delete(HBaseStore.uidRow('l', c.uid)))));
    }
    if (deleted.sum() > 0) {
      log("done");
    }
  }

  /** Sends a slice's deletes, then waits while more than {@code inFlight - 1} are under way. */
  private void send(List<Delete> cells, List<Delete> rows, long documents) throws IOException {
    if (cells.isEmpty() && rows.isEmpty()) {
      return;
    }
    CompletableFuture<Void> first =
        cells.isEmpty() ? CompletableFuture.completedFuture(null) : index.deleteAll(cells);
    pending.add(
        first
            .thenCompose(
                v ->
                    rows.isEmpty() ? CompletableFuture.completedFuture(null) : docs.deleteAll(rows))
            .thenRun(
                () -> {
                  deleted.add(documents);
                  store.purged.add(documents);
                }));
    while (pending.size() >= inFlight) {
      join(pending.poll());
    }
    long now = System.nanoTime();
    if (now - reported >= REPORT_NANOS) {
      reported = now;
      log("under way");
    }
  }

  private void log(String state) {
    double seconds = (System.nanoTime() - started) / 1e9;
    LOG.log(
        Level.INFO,
        () ->
            String.format(
                Locale.ROOT,
                "dropping collection %s: %,d of %,d documents deleted in %.0f s (%.0f/s), %s",
                c.name(),
                deleted.sum(),
                total,
                seconds,
                deleted.sum() / Math.max(seconds, 1e-3),
                state));
  }

  private static void join(CompletableFuture<Void> f) throws IOException {
    try {
      f.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }
}
