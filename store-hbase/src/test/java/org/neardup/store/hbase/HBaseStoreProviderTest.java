// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;

/** Bad options are refused with a message naming them, before any connection is made. */
class HBaseStoreProviderTest {

  @Test
  void open_isFoundByKind_andRefusesBadOptions() {
    assertThatThrownBy(
            () -> FingerprintStore.open("hbase", StoreConfig.of(Map.of("zookeeper", "a b:1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zookeeper must be HOST:PORT");
    assertThatThrownBy(
            () -> FingerprintStore.open("hbase", StoreConfig.of(Map.of("zookeepr", "h:1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zookeepr");
    assertThatThrownBy(
            () ->
                FingerprintStore.open(
                    "hbase",
                    StoreConfig.of(Map.of("zookeeper", "127.0.0.1:2181", "timeout-ms", "-1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout-ms");
    assertThatThrownBy(
            () ->
                FingerprintStore.open(
                    "hbase",
                    StoreConfig.of(Map.of("zookeeper", "127.0.0.1:2181", "import", "bulk"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("import must be puts or hfiles, got 'bulk'");
    assertThatThrownBy(
            () ->
                FingerprintStore.open(
                    "hbase",
                    StoreConfig.of(
                        Map.of("zookeeper", "127.0.0.1:2181", "import", "hfiles", "bulk-dir", ""))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bulk-dir must not be empty");
    assertThatThrownBy(
            () ->
                FingerprintStore.open(
                    "hbase",
                    StoreConfig.of(Map.of("zookeeper", "127.0.0.1:2181", "scan-read", "stream"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scan-read must be pread or default, got 'stream'");
    assertThat(new HBaseStoreProvider().kind()).isEqualTo("hbase");
  }
}
