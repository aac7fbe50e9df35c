// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;

/**
 * What the candidate self-join needs of a document: its ordinal, fingerprint and band keys, and for
 * a member of a split group, the block of the group it was put in.
 */
public final class Member implements Serializable {
  private static final long serialVersionUID = 1L;
  public int ordinal;
  public long fingerprint;
  public long[] bandKeys = new long[0];
  public int block;

  public Member() {}

  Member(int ordinal, long fingerprint, long[] bandKeys, int block) {
    this.ordinal = ordinal;
    this.fingerprint = fingerprint;
    this.bandKeys = bandKeys;
    this.block = block;
  }
}
