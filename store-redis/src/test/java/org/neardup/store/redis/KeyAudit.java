// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Audits a collection's block keys and band buckets against its stored records: every stored
 * document has exactly its entries (one per block key, one per distinct band key rest in each of
 * its band buckets) and nothing else is there, each key's entries ascending by ordinal. A commit
 * that appended and then took its entries back (a conflict found after APPEND, see {@code
 * commit.lua}) must leave no trace.
 */
final class KeyAudit {
  private KeyAudit() {}

  static void assertEntriesMatchRecords(RedisStore store, RedisCollection c) {
    HexFormat hex = HexFormat.of();
    Map<String, List<String>> expected = new TreeMap<>();
    for (String name : scan(store, c.keys.base + "d*")) {
      long bucket = Long.parseLong(name.substring(c.keys.base.length() + 1));
      Map<byte[], byte[]> fields = store.redis().hgetAll(name.getBytes(StandardCharsets.UTF_8));
      for (Map.Entry<byte[], byte[]> f : fields.entrySet()) {
        long ordinal =
            bucket * Keys.BUCKET
                + Long.parseLong(new String(f.getKey(), StandardCharsets.US_ASCII));
        DocRecord r = DocRecord.decode(f.getValue(), c.retention);
        int[] blockKeys = c.entries.keys(r.fingerprint());
        for (int t = 0; t < blockKeys.length; t++) {
          byte[] e = new byte[c.entries.width];
          c.entries.putEntry(t, ordinal, r.fingerprint(), e, 0);
          expected
              .computeIfAbsent(name(c.keys.block(blockKeys[t])), k -> new ArrayList<>())
              .add(hex.formatHex(e));
        }
        Map<String, java.util.Set<String>> bands = new TreeMap<>();
        for (long bandKey : r.bandKeys()) {
          byte[] e = new byte[BandEntries.WIDTH];
          BandEntries.put(BandEntries.entry(ordinal, BandEntries.rest(bandKey)), e, 0);
          bands
              .computeIfAbsent(
                  name(c.keys.band(c.bands.bucket(bandKey))), k -> new java.util.TreeSet<>())
              .add(hex.formatHex(e));
        }
        bands.forEach((k, v) -> expected.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
      }
    }
    Map<String, List<String>> actual = new TreeMap<>();
    for (String prefix : List.of("b", "k")) {
      int width = prefix.equals("b") ? c.entries.width : BandEntries.WIDTH;
      for (String name : scan(store, c.keys.base + prefix + "*")) {
        byte[] v = store.redis().get(name.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(v.length % width).as("whole entries in %s", name).isZero();
        List<String> entries = new ArrayList<>();
        long last = -1;
        for (int off = 0; off < v.length; off += width) {
          long o = BlockEntries.ordinal(v, off);
          assertThat(o).as("entries ascend by ordinal in %s", name).isGreaterThanOrEqualTo(last);
          last = o;
          entries.add(hex.formatHex(v, off, off + width));
        }
        actual.put(name, entries);
      }
    }
    actual.values().forEach(l -> l.sort(null));
    expected.values().forEach(l -> l.sort(null));
    assertThat(actual).isEqualTo(expected);
  }

  /**
   * A key's name as SCAN gives it: its bytes as ISO-8859-1 (block and band keys end in raw bytes).
   */
  private static String name(byte[] key) {
    return new String(key, StandardCharsets.ISO_8859_1);
  }

  private static List<String> scan(RedisStore store, String pattern) {
    List<String> out = new ArrayList<>();
    ScanParams params = new ScanParams().match(pattern).count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<byte[]> page =
          store.redis().scan(cursor.getBytes(StandardCharsets.US_ASCII), params);
      for (byte[] k : page.getResult()) {
        out.add(name(k));
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return out;
  }
}
