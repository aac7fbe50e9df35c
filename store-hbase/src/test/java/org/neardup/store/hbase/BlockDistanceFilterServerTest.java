// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter.RowRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The distance filter in a real region server, in the probe's shape (after a {@code
 * MultiRowRangeFilter} in a {@code FilterList}): a scan returns the block rows within k bits of an
 * asker of their prefix and the band rows, and nothing between the ranges.
 */
@ExtendWith(MiniHBase.class)
class BlockDistanceFilterServerTest {
  private static final byte[] FAMILY = {'f'};

  private static byte[] row(byte[] prefix, long fp) {
    return ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong(fp).array();
  }

  private static byte[] prefix(int b) {
    byte[] p = new byte[Rows.PREFIX_BYTES];
    p[0] = (byte) b;
    return p;
  }

  @Test
  void scan_withFilter_returnsNearBlockRowsAndBandRowsOnly() throws Exception {
    TableName name = TableName.valueOf("distance_filter");
    long asker = 0x0123456789ABCDEFL;
    byte[] a = prefix(0x10);
    byte[] between = prefix(0x20);
    byte[] b = prefix(0x30);
    byte[] band = row(prefix(0x40), 77L);
    band[Rows.KEY_BYTES] = Rows.BAND_FLAG;
    List<byte[]> expected = new ArrayList<>();
    try (Connection c = ConnectionFactory.createConnection(MiniHBase.conf());
        Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(name)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
              .build());
      try (Table t = c.getTable(name)) {
        List<Put> puts = new ArrayList<>();
        for (int bits = 0; bits <= 6; bits++) {
          long fp = asker ^ ((1L << bits) - 1); // `bits` bits from the asker
          for (byte[] p : List.of(a, between, b)) {
            puts.add(new Put(row(p, fp)).addColumn(FAMILY, Bytes.toBytes(1L), new byte[0]));
            if (p != between && bits <= 3) {
              expected.add(row(p, fp));
            }
          }
        }
        puts.add(new Put(band).addColumn(FAMILY, Bytes.toBytes(2L), new byte[0]));
        expected.add(band);
        t.put(puts);
        admin.flush(name); // half of the rows from a store file, half from the memstore
        t.put(new Put(row(b, asker ^ 1L << 40)).addColumn(FAMILY, Bytes.toBytes(3L), new byte[0]));
        t.put(new Put(row(b, ~asker)).addColumn(FAMILY, Bytes.toBytes(4L), new byte[0]));
        expected.add(row(b, asker ^ 1L << 40));

        byte[] prefixes = new byte[2 * Rows.PREFIX_BYTES];
        System.arraycopy(a, 0, prefixes, 0, Rows.PREFIX_BYTES);
        System.arraycopy(b, 0, prefixes, Rows.PREFIX_BYTES, Rows.PREFIX_BYTES);
        // Prefix a asked by the asker alone, b by a far fingerprint and the asker.
        BlockDistanceFilter distance =
            new BlockDistanceFilter(
                3, Rows.PREFIX_BYTES, prefixes, new int[] {0, 1, 3}, new long[] {asker, 0L, asker});
        List<RowRange> ranges =
            new ArrayList<>(
                List.of(
                    new RowRange(a, true, Rows.after(a), false),
                    new RowRange(b, true, Rows.after(b), false),
                    new RowRange(band, true, band, true)));
        Scan scan =
            new Scan()
                .withStartRow(a)
                .withStopRow(band, true)
                .setFilter(
                    new FilterList(
                        FilterList.Operator.MUST_PASS_ALL,
                        new MultiRowRangeFilter(ranges),
                        distance));
        List<byte[]> got = new ArrayList<>();
        try (ResultScanner rs = t.getScanner(scan)) {
          for (Result r : rs) {
            got.add(r.getRow());
          }
        }
        expected.sort(Bytes.BYTES_COMPARATOR);
        assertThat(got).containsExactlyElementsOf(expected);
      }
    }
  }
}
