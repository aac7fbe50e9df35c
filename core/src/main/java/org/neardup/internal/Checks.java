// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.util.Locale;

/**
 * Argument and state checks for public boundaries.
 *
 * <p>Primitive overloads keep passing checks free of boxing and formatting; the message is only
 * built when the check fails.
 */
public final class Checks {
  private Checks() {}

  public static void checkArgument(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  public static void checkArgument(boolean ok, String template, long a) {
    if (!ok) {
      throw new IllegalArgumentException(format(template, a));
    }
  }

  public static void checkArgument(boolean ok, String template, long a, long b) {
    if (!ok) {
      throw new IllegalArgumentException(format(template, a, b));
    }
  }

  public static void checkArgument(boolean ok, String template, long a, long b, long c) {
    if (!ok) {
      throw new IllegalArgumentException(format(template, a, b, c));
    }
  }

  public static void checkArgument(boolean ok, String template, Object... args) {
    if (!ok) {
      throw new IllegalArgumentException(format(template, args));
    }
  }

  public static void checkState(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }

  public static void checkState(boolean ok, String template, Object... args) {
    if (!ok) {
      throw new IllegalStateException(format(template, args));
    }
  }

  /**
   * Checks {@code 0 <= k <= max}, the range every search method accepts.
   *
   * @throws IllegalArgumentException naming the parameter, the range and the value
   */
  public static int checkMaxDistance(int k, int max) {
    if (k < 0 || k > max) {
      throw new IllegalArgumentException(format("maxDistance must be in [0, %s], got %s", max, k));
    }
    return k;
  }

  /** {@link String#format} in the root locale, so messages never depend on the default locale. */
  public static String format(String template, Object... args) {
    return String.format(Locale.ROOT, template, args);
  }
}
