// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.util.Map;

/**
 * A collection: its name, settings ({@code k}, {@code threshold}, {@code verify}, {@code
 * retention}, {@code retentionBasis}, {@code lexicon}, {@code han}, {@code numbers}, {@code html},
 * {@code volatileLines}, {@code topN}, {@code sketchCapacity}, {@code scheme}), analyzer id and
 * counters ({@code documents}, {@code ramBytes}, {@code inserted}, {@code duplicates}, {@code
 * checked}, {@code expired}, {@code deleted}).
 */
public record CollectionInfo(
    String name, Map<String, Object> settings, String analyzer, Map<String, Long> stats) {

  public long documents() {
    return stats.getOrDefault("documents", 0L);
  }
}
