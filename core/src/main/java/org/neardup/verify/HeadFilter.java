// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import org.neardup.internal.Checks;

/**
 * A quick test that rejects a candidate pair before its full similarity is computed, from the
 * {@link #HEAD} smallest hashes of each sketch alone.
 *
 * <p>Hashes order shingles at random, so the {@code m} smallest hashes of the union of two sketches
 * are a random sample of the union (or of the bottom-k sample {@link ShingleSketch#jaccard} walks),
 * and each of them is shared by both sketches with probability equal to their similarity J. The
 * number shared is hypergeometric, whose lower tail is below that of Binomial(m, J). A pair is
 * rejected when fewer than {@code need(m)} of the m are shared, where {@code need(m)} is chosen so
 * that a pair at the threshold is rejected with probability at most {@link #MISS}: a pair that
 * would verify is lost about once in a million, while an unrelated pair (J near 0) shares none and
 * costs a few dozen nanoseconds instead of a full decode and merge of up to 512 hashes.
 *
 * <p>Where it matters: texts whose fingerprints crowd together (short texts from one template, or a
 * vocabulary the IDF table does not know) make many candidates that share a fingerprint block but
 * not their words. Without this test their cost grows with the square of the crowd.
 *
 * <p>Both {@link org.neardup.Deduplicator} and {@link org.neardup.CorpusDedup} apply it to every
 * candidate, so the two give the same answers. Immutable and thread-safe.
 */
public final class HeadFilter {
  /** The number of smallest hashes compared. */
  public static final int HEAD = 16;

  /** The largest probability that a pair exactly at the threshold is rejected. */
  public static final double MISS = 1e-6;

  private final double threshold;
  private final int[] need = new int[HEAD + 1];

  /**
   * @param threshold the similarity a pair must reach, in (0, 1]
   */
  public HeadFilter(double threshold) {
    Checks.checkArgument(
        threshold > 0 && threshold <= 1, "threshold must be in (0, 1], got %s", threshold);
    this.threshold = threshold;
    for (int m = 0; m <= HEAD; m++) {
      need[m] = need(m, threshold);
    }
  }

  public double threshold() {
    return threshold;
  }

  /**
   * The smallest number of shared hashes among m sampled such that a pair at the threshold shares
   * fewer with probability at most {@link #MISS}: the least c with P(Binomial(m, t) <= c) > MISS.
   */
  static int need(int m, double t) {
    double cdf = 0;
    for (int c = 0; c <= m; c++) {
      cdf += binomial(m, c) * Math.pow(t, c) * Math.pow(1 - t, m - c);
      if (cdf > MISS) {
        return c;
      }
    }
    return m;
  }

  private static double binomial(int n, int k) {
    double b = 1;
    for (int i = 1; i <= k; i++) {
      b = b * (n - k + i) / i;
    }
    return b;
  }

  /** How many shared hashes among the m smallest of the union let a pair through. */
  public int need(int m) {
    return need[m];
  }

  /**
   * Writes the head of a sketch, its {@code min(HEAD, size)} smallest hashes, to {@code out[off,
   * off + HEAD)} and returns a code for {@link #mayReach(int[], int, int, int, int, int)}: the mode
   * and the number of hashes held.
   */
  public static int head(ShingleSketch s, int[] out, int off) {
    int[] h = s.hashesView();
    int n = Math.min(HEAD, h.length);
    System.arraycopy(h, 0, out, off, n);
    return (s.mode().ordinal() << 24) | Math.min(h.length, 0xFFFFFF);
  }

  /** Whether two sketches may reach the threshold, from their heads as {@link #head} wrote them. */
  public boolean mayReach(int[] heads, int aOff, int aCode, int bOff, int bCode) {
    if ((aCode >>> 24) != (bCode >>> 24) || (aCode >>> 24) == ShingleSketch.Mode.NONE.ordinal()) {
      return false;
    }
    int m = Math.min(HEAD, Math.min(aCode & 0xFFFFFF, bCode & 0xFFFFFF));
    return sharesEnough(heads, aOff, heads, bOff, m);
  }

  /**
   * Whether two sketches may reach the threshold: the same answer as {@link #mayReach(int[], int,
   * int, int, int)} on the heads {@link #head} writes of them, read from the sketches themselves (a
   * head is the sketch's first {@link #HEAD} hashes), for a caller that holds both.
   */
  public boolean mayReach(ShingleSketch a, ShingleSketch b) {
    if (a.mode() != b.mode() || a.mode() == ShingleSketch.Mode.NONE) {
      return false;
    }
    int[] x = a.hashesView();
    int[] y = b.hashesView();
    int m = Math.min(HEAD, Math.min(x.length, y.length));
    return sharesEnough(x, 0, y, 0, m);
  }

  /**
   * Whether, of the m smallest hashes of the union of the sorted runs at {@code x[xOff...]} and
   * {@code y[yOff...]} (each at least m long), at least the need of m are in both.
   */
  private boolean sharesEnough(int[] x, int xOff, int[] y, int yOff, int m) {
    // The merge without a branch per step: which side moves is random for unrelated heads, and
    // the mispredicted branches cost more than the arithmetic (46.8M candidates in the 1M realistic
    // dedup pass through here). lt and gt are the signs of the two differences of the unsigned
    // values as longs; a step moves i unless gt, j unless lt, and counts a shared hash when both
    // are 0.
    // The answer is settled as soon as the count reaches the need or can no longer reach it (each
    // step adds at most one): copies of one text reach the need of 4 (of 16, at 0.8) in about 6
    // steps, so the merge stops there instead of running all 16. The exit test is off the merge's
    // chain of dependent loads, which is what each step waits for.
    int need = this.need[m];
    int i = xOff;
    int j = yOff;
    int shared = 0;
    for (int taken = 0; taken < m; taken++) {
      if (shared >= need || shared + (m - taken) < need) {
        break;
      }
      long xv = x[i] & 0xFFFFFFFFL;
      long yv = y[j] & 0xFFFFFFFFL;
      int lt = (int) ((xv - yv) >>> 63);
      int gt = (int) ((yv - xv) >>> 63);
      i += 1 - gt;
      j += 1 - lt;
      shared += 1 - lt - gt;
    }
    return shared >= need;
  }

  /**
   * Whether a sketch and an encoded one ({@link ShingleSketch#encode}'s form, already validated)
   * may reach the threshold. Decodes only the head of the encoded sketch; allocates nothing.
   */
  public boolean mayReach(ShingleSketch mine, byte[] in, int off, int len) {
    int end = off + len;
    int p = off;
    long header = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in[p++];
      header |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    int mode = (int) (header >> 1);
    if (mode != mine.mode().ordinal() || mode == ShingleSketch.Mode.NONE.ordinal()) {
      return false;
    }
    long count = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in[p++];
      count |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    int[] x = mine.hashesView();
    int m = (int) Math.min(HEAD, Math.min(x.length, count));
    int i = 0;
    long y = -1; // their current hash (unsigned), -1 before the first
    long prev = 0;
    int shared = 0;
    for (int taken = 0; taken < m; taken++) {
      if (y < 0) {
        long v = 0;
        for (int shift = 0; p < end; shift += 7) {
          byte b = in[p++];
          v |= (long) (b & 0x7F) << shift;
          if (b >= 0) {
            break;
          }
        }
        y = prev + v;
        prev = y;
      }
      long xi = x[i] & 0xFFFFFFFFL;
      if (xi == y) {
        shared++;
        i++;
        y = -1;
      } else if (xi < y) {
        i++;
      } else {
        y = -1;
      }
    }
    return shared >= need[m];
  }
}
