// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.time.InstantSource;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.FingerprintStore;
import org.neardup.testkit.FingerprintStoreContract;

/** The embedded store passes the contract every store passes. */
class EmbeddedStoreContractTest extends FingerprintStoreContract {
  @TempDir Path dir;

  /**
   * No: an embedded store owns its directory (it holds a file lock on it, and its log and snapshots
   * have one writer), so a second instance cannot open the same data while the first is open.
   * Several service nodes share one index through a networked store (store-redis).
   */
  @Override
  protected boolean opensTwice() {
    return false;
  }

  @Override
  protected FingerprintStore open(InstantSource clock) throws IOException {
    return EmbeddedStore.builder(dir).clock(clock).background(false).open();
  }
}
