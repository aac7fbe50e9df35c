// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Moves collections in and out of one {@link FingerprintStore} as {@link StoredRecord}s: every
 * stored document with its fingerprint, band keys, sketch, cluster, timestamp and ordinal, so that
 * another store can hold the same documents with nothing recomputed and give the same answers. What
 * {@code neardup store export} and {@code import} run on, through {@link CollectionDump}.
 *
 * <p>A store offers it with a {@link Provider} under {@code
 * META-INF/services/org.neardup.store.CollectionTransfer$Provider}. Export reads a consistent view
 * only while nothing writes to the collection (stop the services that use it, or accept that
 * documents inserted meanwhile may or may not be in the dump). Import writes into a collection it
 * creates and that nobody else sees until {@link Importer#finish()} (or, for a store that cannot
 * hide it, that nobody else writes to meanwhile); until then, {@link Importer#close()} removes
 * everything it wrote.
 *
 * <p>Memory: both directions hold a bounded batch of records, not the collection (an embedded store
 * holds its collections in memory anyway).
 */
public interface CollectionTransfer {

  /** Receives exported records. */
  @FunctionalInterface
  interface RecordSink {
    void accept(StoredRecord record) throws IOException;
  }

  /**
   * Calls {@code sink} once per document stored in the collection, in increasing ordinal order.
   *
   * @return the number of records
   * @throws IllegalArgumentException if there is no such collection
   */
  long export(String collection, RecordSink sink) throws IOException;

  /**
   * Starts importing into a new collection.
   *
   * @param analyzerId the {@link org.neardup.Analyzer#id()} the records were analysed with; it must
   *     be this build's analyzer for those settings, or the stored sketches would not match new
   *     texts
   * @throws IllegalArgumentException if the collection exists, the name or settings are invalid, or
   *     the analyzer differs
   */
  Importer importer(String name, CollectionSettings settings, String analyzerId) throws IOException;

  /** Writes records into the new collection, in increasing ordinal order. Not thread-safe. */
  interface Importer extends Closeable {
    /**
     * Adds one record.
     *
     * @throws IllegalArgumentException if its ordinal does not increase, its root is not an earlier
     *     ordinal, or its band keys or sketch do not fit the collection's settings
     */
    void add(StoredRecord record) throws IOException;

    /** Makes the collection complete, visible and durable; returns the records added. */
    long finish() throws IOException;

    /** Removes everything written unless {@link #finish()} returned. Idempotent. */
    @Override
    void close() throws IOException;

    /**
     * The checks every importer makes on a record before it writes anything of it: its ordinal
     * comes after {@code last}; with {@code bands} not negative, it carries that many band keys and
     * a sketch; its id has 1 to {@link Collection#MAX_ID_BYTES} bytes.
     *
     * @param bands the band keys a document of the collection has, or -1 where another check (or no
     *     verification) covers the analysis
     * @return the id's UTF-8 bytes
     * @throws IllegalArgumentException naming what does not fit
     */
    static byte[] checkNext(StoredRecord r, long last, int bands) {
      if (r.ordinal() <= last) {
        throw new IllegalArgumentException(
            "ordinals must increase: " + r.ordinal() + " after " + last);
      }
      if (bands >= 0 && (r.bandKeys().length != bands || r.sketch().length == 0)) {
        throw new IllegalArgumentException(
            "document '"
                + r.id()
                + "' has "
                + r.bandKeys().length
                + " band keys and a sketch of "
                + r.sketch().length
                + " bytes; this collection verifies with "
                + bands
                + " band keys: it was exported with other settings");
      }
      byte[] id = r.id().getBytes(StandardCharsets.UTF_8);
      if (id.length < 1 || id.length > Collection.MAX_ID_BYTES) {
        throw new IllegalArgumentException("document " + r.ordinal() + ": bad id length");
      }
      return id;
    }

    /** The band keys every document analysed by {@code analyzer} has (its verification's). */
    static int bandCount(org.neardup.Analyzer analyzer) {
      return analyzer.analyze("neardup band count").sketch().bandKeys().length;
    }
  }

  /** Offers transfers for stores of one kind; found with {@link ServiceLoader}. */
  interface Provider {
    /** The {@link FingerprintStore#kind()} it serves. */
    String kind();

    CollectionTransfer open(FingerprintStore store);
  }

  /**
   * The transfer of an open store, from the class path.
   *
   * @throws IllegalArgumentException naming the kinds that have one when none matches
   */
  static CollectionTransfer of(FingerprintStore store) {
    List<String> seen = new ArrayList<>();
    for (Provider p : ServiceLoader.load(Provider.class)) {
      if (p.kind().equals(store.kind())) {
        return p.open(store);
      }
      seen.add(p.kind());
    }
    throw new IllegalArgumentException(
        "store '"
            + store.kind()
            + "' cannot export or import collections (those that can: "
            + seen
            + ")");
  }
}
