// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Serializable;
import org.jspecify.annotations.Nullable;
import org.neardup.verify.ShingleSketch;

/**
 * One document's lines: its clusters.jsonl line and its record for unique or duplicates, or its
 * errors.jsonl line.
 */
public final class Out implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The clusters line, or null for a document in error. */
  public @Nullable String cluster;

  public byte[] record = new byte[0];
  public boolean representative;
  public boolean isNew;
  public int size;

  /** The errors line, or null. */
  public @Nullable String error;

  /** "location: error", for the summary. */
  public @Nullable String errorBrief;

  public Out() {}

  /** The lines of a document of this run with what was decided about it. */
  static Out of(Doc d, Fact f, boolean verify) throws IOException {
    Out o = new Out();
    String error = d.error;
    if (error == null && f.repeatOf >= 0) {
      error = "repeated id " + d.idJson + " (first used by document #" + (f.repeatOf + 1) + ")";
    }
    if (error != null) {
      o.error = errorLine(d.location, d.idJson, error);
      o.errorBrief = d.location + ": " + error;
      return o;
    }
    o.record = d.record;
    o.isNew = f.isNew;
    o.size = f.size;
    o.representative = f.rep < 0;
    o.cluster =
        o.representative
            ? Lines.cluster(d.idJson, d.idJson, true, f.isNew, f.size, 0, 1.0, verify)
            : Lines.cluster(
                d.idJson,
                f.repId,
                false,
                f.isNew,
                f.size,
                Long.bitCount(d.fingerprint ^ f.repFingerprint),
                verify
                    ? ShingleSketch.jaccard(
                        ShingleSketch.decode(d.sketch, 0, d.sketch.length),
                        ShingleSketch.decode(f.repSketch, 0, f.repSketch.length))
                    : Double.NaN,
                verify);
    return o;
  }

  private static String errorLine(String location, @Nullable String id, String error)
      throws IOException {
    ObjectNode node = JSON.createObjectNode();
    node.put("location", location);
    if (id != null) {
      node.set("id", JSON.readTree(id));
    } else {
      node.putNull("id");
    }
    node.put("error", error);
    return JSON.writeValueAsString(node);
  }
}
