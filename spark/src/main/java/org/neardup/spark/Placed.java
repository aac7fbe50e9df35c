// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;

/**
 * A document on its way to the output, keyed by its representative: the representative's own record
 * (the "header", sorted first, with the cluster's size) or a member's.
 */
public final class Placed implements Serializable {
  private static final long serialVersionUID = 1L;
  public int ordinal;
  public String idJson = "";
  public long fingerprint;
  public byte[] sketch = new byte[0];
  public byte[] record = new byte[0];
  public int size;
  public boolean isNew;

  /** A document of an earlier run: only a header for this run's members, never written. */
  public boolean earlier;

  public Placed() {}
}
