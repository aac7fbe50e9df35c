// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;

/** One document's lines: its clusters.jsonl line and its record for unique or duplicates. */
public final class Out implements Serializable {
  private static final long serialVersionUID = 1L;
  public String cluster = "";
  public byte[] record = new byte[0];
  public boolean representative;
  public boolean isNew;
  public int size;

  public Out() {}
}
