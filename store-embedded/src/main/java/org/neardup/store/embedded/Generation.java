// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import org.jspecify.annotations.Nullable;
import org.neardup.Analyzer;
import org.neardup.Deduplicator;
import org.neardup.store.CollectionSettings;

/**
 * One collection's in-memory state between two rebuilds: the engine, the documents' facts and the
 * id table. A rebuild replaces the whole generation, which is how the memory of removed documents
 * comes back (the engine keeps a little of every document it ever held).
 *
 * <p>Not thread-safe: the owning collection's lock guards it, or, while a rebuild builds it, the
 * rebuilding thread alone.
 */
final class Generation {
  final Deduplicator engine;
  final DocTable docs;
  final IdTable ids;

  /** The files holding the engine's sketches, or null when they are on the heap. */
  private final SketchFiles.@Nullable Owner sketchFiles;

  /**
   * @param sketchFiles where the engine keeps sketches and band keys, or null for the heap
   */
  Generation(
      CollectionSettings settings,
      Analyzer analyzer,
      long base,
      int expected,
      SketchFiles.@Nullable Owner sketchFiles) {
    Deduplicator.Builder b = settings.deduplicator().expectedSize(expected);
    if (sketchFiles != null) {
      b.sketchStores(sketchFiles);
    }
    this.sketchFiles = sketchFiles;
    this.engine = b.build(analyzer);
    this.docs = new DocTable(base);
    this.ids = new IdTable(docs, expected);
  }

  /** The slot of a live document with this id, or -1. */
  int find(byte[] id, int hash) {
    return ids.find(id, hash);
  }

  long docId(int slot) {
    return docs.base + slot;
  }

  /** The fingerprint of a live slot (the engine's; the document table keeps no copy). */
  long fingerprint(int slot) {
    return engine.fingerprintOf(docId(slot));
  }

  /** Records a document the engine has just stored. */
  void add(long docId, byte[] id, int hash, long timestamp, long expiresAt) {
    add(docId, id, hash, timestamp, expiresAt, false);
  }

  /**
   * As {@link #add(long, byte[], int, long, long)}; with {@code unique}, the caller knows the id is
   * not held, and the id table files it in bulk later ({@link IdTable#putDeferred}).
   */
  void add(long docId, byte[] id, int hash, long timestamp, long expiresAt, boolean unique) {
    int slot = docs.add(docId, id, 0, id.length, timestamp, expiresAt);
    if (unique) {
      ids.putDeferred(hash, slot);
    } else {
      ids.put(hash, slot);
    }
  }

  /** Removes a live document from the engine and the id table. */
  void remove(int slot) {
    long docId = docId(slot);
    boolean removed = engine.remove(docId);
    assert removed : "engine did not hold docId " + docId;
    boolean filed = ids.remove(docs.idHash(slot), slot);
    assert filed : "id table did not hold slot " + slot;
    docs.remove(slot);
  }

  /** The id of a document this generation held (live or removed), or a placeholder. */
  String idOf(long docId) {
    int slot = docs.slot(docId);
    if (slot < 0 || !docs.isUsed(slot)) {
      assert false : "docId " + docId + " is not in this generation (base " + docs.base + ")";
      return "#" + docId;
    }
    return docs.id(slot);
  }

  /** Bytes of the sketch files (0 with sketches on the heap). */
  long sketchFileBytes() {
    return sketchFiles == null ? 0 : sketchFiles.diskBytes();
  }

  /**
   * Frees the sketch files, once the generation is replaced or its collection dropped: a probe
   * still running on it reads empty sketches, and is redone by its decision.
   */
  void close() {
    if (sketchFiles != null) {
      sketchFiles.close();
    }
  }

  long ramBytesUsed() {
    return engine.ramBytesUsed() + docs.ramBytesUsed() + ids.ramBytesUsed();
  }
}
