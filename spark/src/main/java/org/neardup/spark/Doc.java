// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;
import org.jspecify.annotations.Nullable;

/**
 * One input document after analysis, as the job keeps it: its ordinal (position in the input, which
 * decides representatives), id, what the engine made of its text, and the record to copy to
 * unique/duplicates. A plain class with mutable fields so that Kryo serializes it.
 */
public final class Doc implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Position in the whole input, from 0, counted as {@code neardup dedup} counts. */
  public int ordinal;

  /** The id as JSON ({@code "abc"} or {@code 42}), or null when the input gave none. */
  public @Nullable String idJson;

  /** Where it came from, for errors.jsonl: {@code file:line} or a file path. */
  public String location = "";

  /** Why the document is left out, or null. */
  public @Nullable String error;

  public long fingerprint;
  public long[] bandKeys = new long[0];

  /** The encoded shingle sketch (empty without verification). */
  public byte[] sketch = new byte[0];

  /**
   * The bytes to write to unique.jsonl or duplicates.jsonl; for a JSONL or lines document, empty
   * until the write reads its line again ({@link SplitRecords}).
   */
  public byte[] record = new byte[0];

  /**
   * For a JSONL or lines document, a checksum of its line (0 for a line over the size limit), so
   * that the write's second read of the line can tell that the file changed.
   */
  public int lineCheck;

  /**
   * For a document of an earlier run (incremental mode): the ordinal of its representative, which
   * this run never changes; -1 for a document of this run.
   */
  public int earlierRep = -1;

  public Doc() {}

  boolean earlier() {
    return earlierRep >= 0;
  }

  boolean ok() {
    return error == null;
  }
}
