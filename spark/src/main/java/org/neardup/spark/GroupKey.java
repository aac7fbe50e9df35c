// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;
import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/**
 * A group of the candidate self-join: a fingerprint table's key or a MinHash band's key ({@code
 * kind}: table t, or tables + band b), and for a group split into blocks, the pair of blocks {@code
 * (a, b)}, {@code a <= b}, one task compares.
 */
public final class GroupKey implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Sorts a task's groups so that each is contiguous. */
  static final Comparator<GroupKey> ORDER = new Order();

  public int kind;
  public long value;
  public int a;
  public int b;

  public GroupKey() {}

  GroupKey(int kind, long value, int a, int b) {
    this.kind = kind;
    this.value = value;
    this.a = a;
    this.b = b;
  }

  /** A 64-bit mix of (kind, value) that names the whole group, before any split. */
  static long groupHash(int kind, long value) {
    long h = value * 0x9E3779B97F4A7C15L + kind;
    h ^= h >>> 32;
    h *= 0xD6E8FEB86659FD93L;
    h ^= h >>> 32;
    return h;
  }

  boolean sameAs(GroupKey o) {
    return kind == o.kind && value == o.value && a == o.a && b == o.b;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof GroupKey && sameAs((GroupKey) o);
  }

  @Override
  public int hashCode() {
    long h = groupHash(kind, value) + 31L * (a * 65599L + b);
    return (int) (h ^ (h >>> 32));
  }

  private static final class Order implements Comparator<GroupKey>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(GroupKey x, GroupKey y) {
      int c = Integer.compare(x.kind, y.kind);
      if (c == 0) {
        c = Long.compare(x.value, y.value);
      }
      if (c == 0) {
        c = Integer.compare(x.a, y.a);
      }
      if (c == 0) {
        c = Integer.compare(x.b, y.b);
      }
      return c;
    }
  }
}
