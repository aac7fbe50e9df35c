// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LayoutTest {
  @Test
  void forDocuments_keepsKeysAndBucketsWithinTheirTargets() {
    assertThat(Layout.forDocuments(1_000_000)).isEqualTo(new Layout(14, 14, 17));
    assertThat(Layout.forDocuments(10_000_000)).isEqualTo(new Layout(17, 16, 20));
    assertThat(Layout.forDocuments(1)).isEqualTo(new Layout(8, 8, 8));
    assertThat(Layout.forDocuments(Long.MAX_VALUE / 2)).isEqualTo(new Layout(24, 16, 22));
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
      if (l.bandBits() > Layout.MIN_BAND_BITS && l.bandBits() < Layout.MAX_BAND_BITS) {
        double perBucket = 6.0 * n / (1 << l.bandBits());
        assertThat(perBucket).as("n=%s", n).isBetween(32.0, 64.0);
      }
    }
  }

  @Test
  void metaLine_roundTrips_earlierLayoutsRefused() {
    for (Layout l : new Layout[] {Layout.DEFAULT, new Layout(17, 16, 21), new Layout(14, 14, 18)}) {
      assertThat(Layout.parse(l.metaLine())).isEqualTo(l);
    }
    assertThat(new Layout(14, 12, 18).metaLine())
        .isEqualTo("neardup-redis-layout 4 id-bucket-bits=14 block-key-bits=12 band-key-bits=18");
    // Layouts 2 and 3 kept a set per band key: refused, and recognised as such.
    for (String old :
        new String[] {
          "neardup-redis-layout 2 id-bucket-bits=17",
          "neardup-redis-layout 3 id-bucket-bits=14 block-key-bits=12"
        }) {
      assertThat(Layout.parse(old)).isNull();
      assertThat(Layout.isSetsLayout(old)).isTrue();
    }
    assertThat(Layout.isSetsLayout(Layout.DEFAULT.metaLine())).isFalse();
    assertThat(Layout.parse("neardup-redis-layout 4 id-bucket-bits=14 block-key-bits=12")).isNull();
    assertThat(Layout.parse("k=3 lexicon=none")).isNull();
    assertThat(Layout.parse("neardup-redis-layout 4 id-bucket-bits=x")).isNull();
  }

  @Test
  void constructor_outOfRange_namesTheOption() {
    assertThatThrownBy(() -> new Layout(16, 17, 16))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("block-key-bits must be in [8, 16]");
    assertThatThrownBy(() -> new Layout(7, 16, 16))
        .hasMessageContaining("id-bucket-bits must be in [8, 24]");
    assertThatThrownBy(() -> new Layout(16, 16, 23))
        .hasMessageContaining("band-key-bits must be in [8, 22]");
    assertThatThrownBy(() -> Layout.forDocuments(0))
        .hasMessageContaining("expected-documents must be");
  }
}
