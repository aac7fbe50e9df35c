// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LayoutTest {
  @Test
  void forDocuments_keepsKeysAndBucketsWithinTheirTargets() {
    assertThat(Layout.forDocuments(1_000_000)).isEqualTo(new Layout(14, 14));
    assertThat(Layout.forDocuments(10_000_000)).isEqualTo(new Layout(17, 16));
    assertThat(Layout.forDocuments(1)).isEqualTo(new Layout(8, 8));
    assertThat(Layout.forDocuments(Long.MAX_VALUE / 2)).isEqualTo(new Layout(24, 16));
    for (long n = 1_000; n <= 100_000_000; n = n * 3 / 2) {
      Layout l = Layout.forDocuments(n);
      if (l.blockBits() > Layout.MIN_BLOCK_BITS && l.blockBits() < Layout.MAX_BLOCK_BITS) {
        double perKey = (double) n / (1 << l.blockBits());
        assertThat(perKey).as("n=%s", n).isBetween(32.0, 64.0);
      }
      if (l.idBits() > Keys.MIN_ID_BITS && l.idBits() < Keys.MAX_ID_BITS) {
        double perBucket = (double) n / (1 << l.idBits());
        assertThat(perBucket).as("n=%s", n).isBetween(48.0, 96.0);
      }
    }
  }

  @Test
  void metaLine_roundTrips_version2OnlyWithFullBlockKeys() {
    for (Layout l : new Layout[] {Layout.DEFAULT, new Layout(17, 16), new Layout(14, 14)}) {
      assertThat(Layout.parse(l.metaLine())).isEqualTo(l);
    }
    assertThat(new Layout(14, 16).metaLine()).isEqualTo("neardup-redis-layout 2 id-bucket-bits=14");
    assertThat(new Layout(14, 12).metaLine()).startsWith("neardup-redis-layout 3 ");
    // What the builds before block-key-bits wrote, and what they refuse.
    assertThat(Layout.parse("neardup-redis-layout 2 id-bucket-bits=17"))
        .isEqualTo(new Layout(17, 16));
    assertThat(Layout.parse("neardup-redis-layout 2 id-bucket-bits=17 block-key-bits=12")).isNull();
    assertThat(Layout.parse("k=3 lexicon=none")).isNull();
    assertThat(Layout.parse("neardup-redis-layout 3 id-bucket-bits=x")).isNull();
  }

  @Test
  void constructor_outOfRange_namesTheOption() {
    assertThatThrownBy(() -> new Layout(16, 17))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("block-key-bits must be in [8, 16]");
    assertThatThrownBy(() -> new Layout(7, 16))
        .hasMessageContaining("id-bucket-bits must be in [8, 24]");
    assertThatThrownBy(() -> Layout.forDocuments(0))
        .hasMessageContaining("expected-documents must be");
  }
}
