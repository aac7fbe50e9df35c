// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;

/**
 * What other documents need of a document: its id, fingerprint and sketch (to verify a pair, to
 * write a pair's line, to say a member's distance and similarity to its representative). Not its
 * record, which never leaves the partition it was read into.
 */
public final class Ref implements Serializable {
  private static final long serialVersionUID = 1L;
  public String idJson = "";
  public long fingerprint;
  public byte[] sketch = new byte[0];

  public Ref() {}

  static Ref of(Doc d) {
    Ref r = new Ref();
    r.idJson = d.idJson;
    r.fingerprint = d.fingerprint;
    r.sketch = d.sketch;
    return r;
  }
}
