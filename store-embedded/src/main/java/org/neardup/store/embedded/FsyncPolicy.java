// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.util.Locale;

/**
 * When the log is forced to the disk. In every policy a write is acknowledged only after the log
 * thread has handed it to the operating system, so an acknowledged write survives a crash of the
 * process ({@code kill -9}); the policy decides whether it also survives a crash of the machine.
 */
public enum FsyncPolicy {
  /**
   * fsync before acknowledging (the default): survives power loss. Group commit makes one fsync
   * serve every write that arrived while the previous one ran.
   */
  ALWAYS,
  /** fsync every interval (10 ms by default): power loss loses at most that much. */
  INTERVAL,
  /** fsync only when a segment closes and at shutdown; the operating system decides otherwise. */
  NEVER;

  /**
   * Parses {@code always}, {@code interval} or {@code never}.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static FsyncPolicy parse(String text) {
    switch (text.toLowerCase(Locale.ROOT)) {
      case "always":
        return ALWAYS;
      case "interval":
        return INTERVAL;
      case "never":
        return NEVER;
      default:
        throw new IllegalArgumentException(
            "fsync must be always, interval or never, got '" + text + "'");
    }
  }
}
