// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

/**
 * The output lines, spelled byte for byte as {@code neardup dedup} spells them: fields in the same
 * order, ids as the input wrote them, doubles as {@link Double#toString} writes them.
 */
final class Lines {
  private Lines() {}

  static String cluster(
      String id,
      String cluster,
      boolean representative,
      boolean isNew,
      int size,
      int distance,
      double similarity,
      boolean verify) {
    StringBuilder b = new StringBuilder(id.length() + cluster.length() + 96);
    b.append("{\"id\":").append(id);
    b.append(",\"cluster\":").append(cluster);
    b.append(",\"representative\":").append(representative);
    b.append(",\"new\":").append(isNew);
    b.append(",\"size\":").append(size);
    b.append(",\"distance\":").append(distance);
    if (verify) {
      b.append(",\"similarity\":").append(Double.toString(round(similarity)));
    }
    return b.append('}').toString();
  }

  static String pair(String a, String b, int distance, double similarity, boolean verify) {
    StringBuilder s = new StringBuilder(a.length() + b.length() + 48);
    s.append("{\"a\":").append(a);
    s.append(",\"b\":").append(b);
    s.append(",\"distance\":").append(distance);
    if (verify) {
      s.append(",\"similarity\":").append(Double.toString(round(similarity)));
    }
    return s.append('}').toString();
  }

  static double round(double v) {
    return Math.round(v * 10000) / 10000.0;
  }
}
