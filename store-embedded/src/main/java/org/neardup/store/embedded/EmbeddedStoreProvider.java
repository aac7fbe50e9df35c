// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.file.Path;
import org.neardup.store.CollectionSettings;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;

/**
 * Opens {@link EmbeddedStore}s by the name {@value #KIND}. Options: {@code data} (the directory,
 * {@code neardup-data} by default), {@code fsync} ({@code always}, {@code interval}, {@code
 * never}), {@code fsync-interval} (e.g. {@code 10ms}), {@code snapshot-bytes}, {@code
 * snapshot-bytes-per-second} (0: no limit), {@code maintenance-interval}.
 */
public final class EmbeddedStoreProvider implements FingerprintStore.Provider {
  public static final String KIND = "embedded";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public FingerprintStore open(StoreConfig config) throws IOException {
    config.checkKnown(
        KIND,
        "data",
        "fsync",
        "fsync-interval",
        "snapshot-bytes",
        "max-log-bytes",
        "snapshot-bytes-per-second",
        "maintenance-interval",
        "sketches");
    EmbeddedStore.Builder b =
        EmbeddedStore.builder(Path.of(config.get("data", "neardup-data")))
            .clock(config.clock())
            .fsync(FsyncPolicy.parse(config.get("fsync", "always")));
    String interval = config.get("fsync-interval");
    if (interval != null) {
      b.fsyncInterval(CollectionSettings.parseDuration(interval));
    }
    String bytes = config.get("snapshot-bytes");
    if (bytes != null) {
      b.snapshotBytes(number("snapshot-bytes", bytes));
    }
    String cap = config.get("max-log-bytes");
    if (cap != null) {
      b.maxLogBytes(number("max-log-bytes", cap));
    }
    String rate = config.get("snapshot-bytes-per-second");
    if (rate != null) {
      b.snapshotBytesPerSecond(number("snapshot-bytes-per-second", rate));
    }
    String sketches = config.get("sketches", "file");
    if (!sketches.equals("file") && !sketches.equals("heap")) {
      throw new IllegalArgumentException(
          "store option sketches must be file or heap, got '" + sketches + "'");
    }
    b.sketchesOnHeap(sketches.equals("heap"));
    String every = config.get("maintenance-interval");
    if (every != null) {
      b.maintenanceInterval(CollectionSettings.parseDuration(every));
    }
    return b.open();
  }

  private static long number(String option, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + " must be a number of bytes, got '" + value + "'", e);
    }
  }
}
