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

  @Override
  protected FingerprintStore open(InstantSource clock) throws IOException {
    return EmbeddedStore.builder(dir).clock(clock).background(false).open();
  }
}
