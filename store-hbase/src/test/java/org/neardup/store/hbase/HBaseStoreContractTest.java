// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import java.time.InstantSource;
import java.util.Map;
import org.apache.hadoop.hbase.testing.TestingHBaseCluster;
import org.apache.hadoop.hbase.testing.TestingHBaseClusterOption;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.FingerprintStoreContract;

/**
 * The HBase store passes the contract every store passes, against a real in-process HBase (one
 * mini-cluster for the class: it takes ~20 s to start).
 */
class HBaseStoreContractTest extends FingerprintStoreContract {
  private static TestingHBaseCluster cluster;
  private static int tests;
  private String prefix;

  @BeforeAll
  static void startHBase() throws Exception {
    cluster =
        TestingHBaseCluster.create(
            TestingHBaseClusterOption.builder()
                .numMasters(1)
                .numRegionServers(1)
                .numDataNodes(1)
                .build());
    cluster.start();
  }

  @AfterAll
  static void stopHBase() throws Exception {
    if (cluster != null) {
      cluster.stop();
    }
  }

  @BeforeEach
  void freshPrefix() {
    // Each test starts empty: its own collection prefix in the shared tables.
    prefix = "t" + (++tests);
  }

  @Override
  protected boolean opensTwice() {
    return true;
  }

  @Override
  protected FingerprintStore open(InstantSource clock) throws IOException {
    return HBaseStoreProvider.open(
        cluster.getConf(), new StoreConfig(Map.of("prefix", prefix), clock), "mini-cluster");
  }
}
