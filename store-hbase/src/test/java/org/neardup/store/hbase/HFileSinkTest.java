// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** HFileSink's region boundary test agrees with HBase's own row order, seeded. */
class HFileSinkTest {

  private static byte[] random(SplittableRandom r, int maxLength) {
    byte[] b = new byte[r.nextInt(maxLength + 1)];
    for (int i = 0; i < b.length; i++) {
      // Few byte values, so that rows and starts share prefixes and are often equal.
      b[i] = (byte) (r.nextInt(3) * 127);
    }
    return b;
  }

  @Test
  void atOrAfter_randomRowsAndStarts_agreesWithBytesCompareTo() {
    SplittableRandom r = new SplittableRandom(19);
    for (int i = 0; i < 100_000; i++) {
      byte[] start = random(r, 4);
      byte[] row = random(r, 6);
      // The row sits inside a larger array, as in a KeyValue's bytes.
      int off = r.nextInt(4);
      byte[] cell = new byte[off + row.length + r.nextInt(4)];
      System.arraycopy(row, 0, cell, off, row.length);
      boolean want = Bytes.compareTo(row, start) >= 0;
      assertThat(HFileSink.atOrAfter(cell, off, row.length, start))
          .as("row %s, start %s", Bytes.toStringBinary(row), Bytes.toStringBinary(start))
          .isEqualTo(want);
    }
  }
}
