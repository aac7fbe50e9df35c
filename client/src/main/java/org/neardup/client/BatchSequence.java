// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Batches that the service decides in the order they were sent, however many are in flight: each
 * request carries this sequence's name and its number (the {@value #HEADER} header), and the
 * service holds a batch whose predecessors have not been decided yet. So a client keeps two or more
 * batches in flight, the service analyses the next while it stores and answers the one before, and
 * of two copies in different batches the one sent first is the one that is {@code new}.
 *
 * <p>A batch the service refuses passes its turn; sending it again takes a new number, after the
 * batches sent meanwhile. A number that never reaches the service (a lost connection) holds the
 * later ones for the service's request timeout at most. Services that do not know the header decide
 * in arrival order. Thread-safe.
 */
public final class BatchSequence {
  /** The request header: {@code <sequence name>/<number from 0>}. */
  public static final String HEADER = "Neardup-Sequence";

  private final NeardupClient client;
  private final String name;
  private long next;

  BatchSequence(NeardupClient client, String name) {
    this.client = client;
    this.name = name;
  }

  /** Sends a batch as the next of this sequence; see {@link NeardupClient#batch}. */
  public CompletableFuture<List<Result>> send(String collection, List<Doc> docs) {
    long n;
    synchronized (this) {
      n = next++;
    }
    return client.batchAsync(collection, docs, name + "/" + n);
  }

  /** The sequence's name, unique per instance. */
  public String name() {
    return name;
  }
}
