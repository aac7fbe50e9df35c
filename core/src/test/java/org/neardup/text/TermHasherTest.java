// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

class TermHasherTest {
  private static final LongHashFunction REFERENCE = LongHashFunction.xx();

  @Test
  void hash_randomStrings_equalXxh64OfUtf8() {
    SplittableRandom r = new SplittableRandom(2000);
    for (int i = 0; i < 2000; i++) {
      StringBuilder b = new StringBuilder();
      for (int len = r.nextInt(80); len > 0; len--) {
        b.appendCodePoint(r.nextInt(4) == 0 ? r.nextInt(0x10000, 0x30000) : r.nextInt(0xD800));
      }
      String s = b.toString();
      assertThat(TermHasher.hash(s))
          .as(s)
          .isEqualTo(REFERENCE.hashBytes(s.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Test
  void hash_everyLengthUpTo100_matchesReferenceAcrossStripeBoundaries() {
    SplittableRandom random = new SplittableRandom(42);
    TermHasher hasher = new TermHasher();
    for (int len = 0; len <= 100; len++) {
      char[] chars = new char[len];
      for (int i = 0; i < len; i++) {
        // Mix 1-, 2- and 3-byte UTF-8 characters.
        int kind = random.nextInt(3);
        chars[i] =
            (char)
                (kind == 0
                    ? 'a' + random.nextInt(26)
                    : kind == 1 ? 0x400 + random.nextInt(200) : 0x4E00 + random.nextInt(20000));
      }
      byte[] utf8 = new String(chars).getBytes(StandardCharsets.UTF_8);
      assertThat(hasher.hash(chars, 0, len))
          .as("length %s", len)
          .isEqualTo(REFERENCE.hashBytes(utf8));
    }
  }

  @Test
  void hash_surrogatePair_isTheCodePointsUtf8() {
    String s = "\uD840\uDC00"; // U+20000, CJK Extension B
    assertThat(TermHasher.hash(s))
        .isEqualTo(REFERENCE.hashBytes(s.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void hash_loneSurrogate_isHashedAsReplacementCharacter() {
    assertThat(TermHasher.hash("a\uD800b")).isEqualTo(TermHasher.hash("a\uFFFDb"));
  }

  @Test
  void hash_knownValues_areStable() {
    // Golden values: the hash is part of the fingerprint format and must never change.
    assertThat(TermHasher.hash("")).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(TermHasher.hash("abc")).isEqualTo(0x44BC2CF5AD770999L);
  }
}
