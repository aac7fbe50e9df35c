// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.text.CharClass;
import org.neardup.text.TermHasher;

/**
 * Sketches are stored (spill files, snapshots, stores) and compared across versions, so a faster
 * Shingler must give the same hashes and band keys to the bit. The digests below were taken from
 * the Shingler as it was before its hashing was rewritten for speed (ring buffer and {@code %} per
 * token); seeded texts cover both modes, number folding, texts of fewer tokens than a shingle,
 * surrogate pairs and texts long enough for the bottom-k buffer to be compacted many times.
 */
class ShinglerGoldenTest {
  private static final String HAN = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可也你";
  private static final String LATIN = "abcdefghijklmnopqrstuvwxyz";

  /** A text of {@code len} chars: Han, Latin words, digits, punctuation and a few supplementary. */
  private static String text(SplittableRandom r, int len, int hanPercent) {
    StringBuilder b = new StringBuilder(len + 8);
    while (b.length() < len) {
      int k = r.nextInt(100);
      if (k < hanPercent) {
        b.append(HAN.charAt(r.nextInt(HAN.length())));
      } else if (k < hanPercent + (100 - hanPercent) * 6 / 10) {
        int w = 1 + r.nextInt(8);
        for (int i = 0; i < w; i++) {
          b.append(LATIN.charAt(r.nextInt(r.nextInt(4) == 0 ? LATIN.length() : 6)));
        }
        b.append(' ');
      } else if (k < 96) {
        int w = 1 + r.nextInt(4);
        for (int i = 0; i < w; i++) {
          b.append((char) ('0' + r.nextInt(10)));
        }
        b.append(r.nextBoolean() ? " " : ".");
      } else if (k < 99) {
        b.append(", ;!?".charAt(r.nextInt(5)));
      } else {
        b.appendCodePoint(0x20000 + r.nextInt(64)); // CJK Extension B: a surrogate pair
      }
    }
    return b.toString();
  }

  private static long digest(long h, Sketch s) {
    h = Shingler.mix(h ^ s.shingles().mode().ordinal() ^ (s.shingles().complete() ? 16 : 0));
    for (int x : s.shingles().hashesView()) {
      h = Shingler.mix(h + (x & 0xFFFFFFFFL));
    }
    for (long k : s.bandKeys()) {
      h = Shingler.mix(h ^ k);
    }
    return Shingler.mix(h + s.shingles().size());
  }

  /** Feeds the words of a text to a WordSession as the fingerprinter's tap would. */
  private static Sketch bySession(Shingler shingler, char[] c) {
    Shingler.WordSession session = shingler.words();
    TermHasher hasher = new TermHasher();
    int i = 0;
    while (i < c.length) {
      if (CharClass.at(c, i, c.length) == CharClass.SEPARATOR) {
        i += CharClass.width(c, i, c.length);
        continue;
      }
      int start = i;
      while (i < c.length && CharClass.at(c, i, c.length) != CharClass.SEPARATOR) {
        i += CharClass.width(c, i, c.length);
      }
      session.word(c, start, i, hasher.hash(c, start, i));
    }
    return session.finish();
  }

  private static long[] digests(Shingler shingler) {
    SplittableRandom r = new SplittableRandom(20261125);
    long chars = 0;
    long words = 0;
    long session = 0;
    for (int t = 0; t < 400; t++) {
      int len = t < 40 ? t % 12 : r.nextInt(t % 10 == 0 ? 12_000 : 1_500);
      String s = text(r, len, t % 3 == 0 ? 0 : t % 3 == 1 ? 90 : 15);
      char[] c = s.toCharArray();
      chars = digest(chars, shingler.sketch(c, 0, c.length, ShingleSketch.Mode.CHARS));
      words = digest(words, shingler.sketch(c, 0, c.length, ShingleSketch.Mode.WORDS));
      session = digest(session, bySession(shingler, c));
    }
    return new long[] {chars, words, session};
  }

  @Test
  void sketch_seededTexts_sameHashesAndBandKeysAsBefore() {
    long[] keep = digests(new Shingler(512, BandScheme.of(6, 2), false));
    long[] fold = digests(new Shingler(64, BandScheme.of(9, 3), true));
    assertThat(keep)
        .as("numbers kept")
        .containsExactly(-2311771047155615433L, 5940351248200101348L, -5026023692684258215L);
    assertThat(fold)
        .as("numbers folded")
        .containsExactly(-8301048036536106709L, -3262176994426128384L, 4744053526537208472L);
  }
}
