// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.FingerprintStoreContract;

/**
 * The HBase store passes the contract every store passes, against a real in-process HBase (the
 * mini-cluster the test classes share, {@link MiniHBase}).
 */
@ExtendWith(MiniHBase.class)
class HBaseStoreContractTest extends FingerprintStoreContract {
  private static int tests;
  private String prefix;

  @BeforeEach
  void freshPrefix() {
    // Each test starts empty: its own collection prefix in the shared tables.
    prefix = "t" + (++tests);
  }

  @Override
  protected boolean opensTwice() {
    return true;
  }

  /**
   * Every commit is several round trips to a region server in this JVM: 1,600 single calls took
   * over 60 s once at load 50 (about 20 documents/s where a quiet machine does 300).
   */
  @Override
  protected int timeLimitScale() {
    return 5;
  }

  @Override
  protected FingerprintStore open(InstantSource clock) throws IOException {
    return HBaseStoreProvider.open(
        MiniHBase.conf(), new StoreConfig(Map.of("prefix", prefix), clock), "mini-cluster");
  }
}
