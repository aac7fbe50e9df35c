// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A record decodes to what was encoded, with each kind of expiry, and stays short. */
class DocRecordTest {
  private static final long DAY = 86_400_000L;

  private static void roundTrip(DocRecord r, long retention, int expectedLength) {
    byte[] b = r.encode(retention);
    assertThat(b).hasSize(expectedLength);
    DocRecord back = DocRecord.decode(b, retention);
    assertThat(back.fingerprint()).isEqualTo(r.fingerprint());
    assertThat(back.timestamp()).isEqualTo(r.timestamp());
    assertThat(back.expiresAt()).isEqualTo(r.expiresAt());
    assertThat(back.bandKeys()).isEqualTo(r.bandKeys());
    assertThat(back.id()).isEqualTo(r.id());
    assertThat(DocRecord.id(b)).isEqualTo(r.id());
    assertThat(DocRecord.fingerprint(b)).isEqualTo(r.fingerprint());
  }

  @Test
  void encode_expiryByRetention_keepsNoExpiryBytes() {
    long ts = 1_700_000_000_000L;
    roundTrip(new DocRecord(-5L, ts, ts + 2 * DAY, new long[0], "d123456"), 2 * DAY, 17 + 7);
  }

  @Test
  void encode_neverExpires_keepsNoExpiryBytes() {
    roundTrip(new DocRecord(7L, 42L, Long.MAX_VALUE, new long[0], "a"), 0, 18);
    roundTrip(new DocRecord(7L, 42L, Long.MAX_VALUE, new long[0], "a"), DAY, 18);
  }

  @Test
  void encode_otherExpiry_keepsItExplicitly() {
    long ts = 1_700_000_000_000L;
    // Basis arrival, or a timestamp from the future: expiry is not timestamp + retention.
    roundTrip(new DocRecord(7L, ts, ts + DAY - 1, new long[] {1, -2}, "ü"), DAY, 17 + 8 + 16 + 2);
    // A retention of 0 with an expiry (an import from a collection that had one).
    roundTrip(new DocRecord(7L, ts, ts + DAY, new long[0], "x"), 0, 17 + 8 + 1);
    // Near overflow: timestamp + retention would not fit a long.
    roundTrip(new DocRecord(7L, Long.MAX_VALUE - 1, Long.MAX_VALUE - 2, new long[0], "x"), DAY, 26);
  }

  @Test
  void encode_randomRecords_roundTrip() {
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 2_000; i++) {
      long ts = r.nextLong(-DAY, 4_000_000_000_000L);
      long retention = r.nextBoolean() ? 0 : r.nextLong(1, 100 * DAY);
      long exp =
          switch (r.nextInt(3)) {
            case 0 -> Long.MAX_VALUE;
            case 1 -> retention == 0 ? ts : ts + retention;
            default -> r.nextLong();
          };
      long[] bands = new long[r.nextInt(DocRecord.MAX_BANDS + 1)];
      for (int j = 0; j < bands.length; j++) {
        bands[j] = r.nextLong();
      }
      DocRecord d = new DocRecord(r.nextLong(), ts, exp, bands, "id-" + r.nextInt());
      byte[] b = d.encode(retention);
      assertThat(DocRecord.decode(b, retention)).usingRecursiveComparison().isEqualTo(d);
      assertThat(DocRecord.id(b)).isEqualTo(d.id());
    }
  }
}
