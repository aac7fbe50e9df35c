// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

/** The low 48 bits of the values of one table t >= 1, in one of {@link RecordLayout}'s forms. */
abstract class TableRecords {
  static TableRecords create(RecordLayout layout, int n) {
    return layout.prefix() ? new PrefixRecords(n) : new WideRecords(n);
  }

  abstract int size();

  /** The low 48 bits of entry i's value. */
  abstract long get(int i);

  /** Stores the low 48 bits of value v at i. */
  abstract void set(int i, long v);

  abstract void copyTo(int from, TableRecords dst, int to, int n);

  abstract long ramBytesUsed();
}
