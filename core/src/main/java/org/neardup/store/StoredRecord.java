// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.util.Arrays;
import java.util.Objects;

/**
 * Everything a store keeps of one stored document, so that another store can hold the same document
 * with nothing recomputed: what {@link CollectionTransfer} reads and writes and {@link
 * CollectionDump} carries.
 *
 * <p>Ordinals number a collection's documents in insertion order from 0 (a store that counts from 1
 * subtracts 1 when it exports and adds it back when it imports); a document that was removed leaves
 * a gap. A cluster is named by its root: the ordinal of its earliest member, which may be a removed
 * document, and the id the store answers as the cluster's representative.
 *
 * @param ordinal the document's place in insertion order, from 0
 * @param id the caller's id
 * @param fingerprint its fingerprint
 * @param timestamp its timestamp, epoch milliseconds
 * @param expiresAt when it leaves the retention window; {@link Long#MAX_VALUE} for never
 * @param root the ordinal of its cluster's root, {@code <= ordinal}; equal when it represents
 *     itself
 * @param cluster the id of its cluster's representative (its own id when {@code root == ordinal})
 * @param bandKeys its MinHash band keys; empty without verification
 * @param sketch its encoded shingle sketch ({@link org.neardup.verify.ShingleSketch#encode()});
 *     empty without verification
 */
public record StoredRecord(
    long ordinal,
    String id,
    long fingerprint,
    long timestamp,
    long expiresAt,
    long root,
    String cluster,
    long[] bandKeys,
    byte[] sketch) {

  public StoredRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(bandKeys, "bandKeys");
    Objects.requireNonNull(sketch, "sketch");
    if (ordinal < 0 || root < 0 || root > ordinal) {
      throw new IllegalArgumentException(
          "need 0 <= root <= ordinal, got root " + root + ", ordinal " + ordinal);
    }
  }

  /** Whether the document represents its own cluster. */
  public boolean isRoot() {
    return root == ordinal;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredRecord r
        && ordinal == r.ordinal
        && fingerprint == r.fingerprint
        && timestamp == r.timestamp
        && expiresAt == r.expiresAt
        && root == r.root
        && id.equals(r.id)
        && cluster.equals(r.cluster)
        && Arrays.equals(bandKeys, r.bandKeys)
        && Arrays.equals(sketch, r.sketch);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ordinal, id, fingerprint, root, cluster)
        + 31 * Arrays.hashCode(bandKeys)
        + 961 * Arrays.hashCode(sketch);
  }

  @Override
  public String toString() {
    return "StoredRecord[ordinal="
        + ordinal
        + ", id="
        + id
        + ", fingerprint="
        + Long.toHexString(fingerprint)
        + ", timestamp="
        + timestamp
        + ", expiresAt="
        + expiresAt
        + ", root="
        + root
        + ", cluster="
        + cluster
        + ", bands="
        + bandKeys.length
        + ", sketch="
        + sketch.length
        + " bytes]";
  }
}
