// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * How to open a store: string options (from {@code --data}, {@code --fsync} and {@code
 * --store-option key=value}) and the clock that decides arrival times and expiry.
 *
 * @param options store-specific options, e.g. {@code data}, {@code fsync} for the embedded store
 * @param clock the source of "now"; tests inject a controllable one
 */
public record StoreConfig(Map<String, String> options, InstantSource clock) {

  public StoreConfig {
    options = new TreeMap<>(options);
    Objects.requireNonNull(clock, "clock");
  }

  /** Options with the system clock. */
  public static StoreConfig of(Map<String, String> options) {
    return new StoreConfig(options, InstantSource.system());
  }

  /** The option's value, or null. */
  public @Nullable String get(String key) {
    return options.get(key);
  }

  /** The option's value, or {@code otherwise}. */
  public String get(String key, String otherwise) {
    return options.getOrDefault(key, otherwise);
  }

  /**
   * A true-or-false option's value, or {@code otherwise} when it is not given.
   *
   * @throws IllegalArgumentException naming the option when its value is neither {@code true} nor
   *     {@code false}
   */
  public boolean flag(String key, boolean otherwise) {
    String v = options.get(key);
    return v == null ? otherwise : CollectionSettings.parseBoolean(key, v);
  }

  /**
   * Checks that every option is one of {@code known}.
   *
   * @throws IllegalArgumentException naming the unknown option and the known ones
   */
  public void checkKnown(String kind, String... known) {
    for (String key : options.keySet()) {
      boolean ok = false;
      for (String k : known) {
        ok |= k.equals(key);
      }
      if (!ok) {
        throw new IllegalArgumentException(
            "unknown option '"
                + key
                + "' for store '"
                + kind
                + "' (known: "
                + String.join(", ", known)
                + ")");
      }
    }
  }
}
