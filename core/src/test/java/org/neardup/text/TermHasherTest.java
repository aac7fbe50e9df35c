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
  void shortHash_everyKindOfChar_equalsXxh64OfTheUtf8Bytes() {
    // Words of up to SHORT_CHARS chars skip the byte array: every UTF-8 length (1-4 bytes, lone
    // surrogates as U+FFFD) at every offset in the four lanes, against the array path.
    SplittableRandom r = new SplittableRandom(17);
    byte[] utf8 = new byte[3 * TermHasher.SHORT_CHARS];
    for (int i = 0; i < 200_000; i++) {
      char[] chars = new char[r.nextInt(TermHasher.SHORT_CHARS + 1)];
      for (int k = 0; k < chars.length; k++) {
        chars[k] = randomChar(r);
      }
      int n = TermHasher.utf8(chars, 0, chars.length, utf8);
      assertThat(TermHasher.shortHash(chars, 0, chars.length))
          .as("%s", new String(chars))
          .isEqualTo(TermHasher.xxh64(utf8, 0, n));
    }
  }

  /** ASCII, 2-byte, 3-byte, a high or a low surrogate (pairs form by chance), U+FFFF. */
  private static char randomChar(SplittableRandom r) {
    switch (r.nextInt(6)) {
      case 0:
        return (char) r.nextInt(0x80);
      case 1:
        return (char) r.nextInt(0x80, 0x800);
      case 2:
        return (char) r.nextInt(0x800, 0x10000);
      case 3:
        return (char) r.nextInt(0xD800, 0xDC00);
      case 4:
        return (char) r.nextInt(0xDC00, 0xE000);
      default:
        return r.nextBoolean() ? '\uFFFF' : (char) (0x4E00 + r.nextInt(20000));
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
