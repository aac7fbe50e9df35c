// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.testing.TestingHBaseCluster;
import org.apache.hadoop.hbase.testing.TestingHBaseClusterOption;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test classes' HBase: one mini-cluster (1 master, 1 region server, 1 datanode) started by the
 * first class that asks for it ({@code @ExtendWith(MiniHBase.class)}, then {@link #conf()}) and
 * stopped when the whole test run ends, so the classes of one surefire JVM share one start (~20 s
 * each on 2 cores) instead of paying one each. Classes keep apart by their store prefix. A test
 * that stops or restarts HBase takes a cluster of its own from {@link #start()}.
 */
final class MiniHBase implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {
  private static volatile @Nullable TestingHBaseCluster shared;

  private final @Nullable TestingHBaseCluster cluster;

  /** For JUnit ({@code @ExtendWith}); the first instance to run its callback starts the cluster. */
  MiniHBase() {
    this.cluster = null;
  }

  private MiniHBase(TestingHBaseCluster cluster) {
    this.cluster = cluster;
  }

  /** A started mini-cluster of its own, which the caller stops. */
  static TestingHBaseCluster start() throws Exception {
    return start(java.util.Map.of());
  }

  /** A started mini-cluster of its own with these settings too, which the caller stops. */
  static TestingHBaseCluster start(java.util.Map<String, String> settings) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    settings.forEach(conf::set);
    // HBase gives the master 30 s to become active; on the shared 2-core machine at load 25 it
    // took longer, and whole test classes failed before their first test.
    conf.setInt("hbase.master.start.timeout.localHBaseCluster", 180_000);
    TestingHBaseCluster c =
        TestingHBaseCluster.create(
            TestingHBaseClusterOption.builder()
                .conf(conf)
                .numMasters(1)
                .numRegionServers(1)
                .numDataNodes(1)
                .build());
    c.start();
    return c;
  }

  /**
   * The table's size on disk after a flush and a major compaction (waited for up to 20 minutes):
   * its directory in HDFS, the store files plus a few hundred bytes of region and table descriptors
   * (region metrics give store file sizes in whole megabytes). The files a compaction replaced stay
   * in the regions' directories until a chore archives them every 2 minutes: they are archived here
   * first, or the size would count both (a 5:2 index at 1M: 909.6 bytes per fingerprint measured
   * that way).
   */
  static long onDisk(TestingHBaseCluster cluster, TableName table) throws Exception {
    Configuration conf = cluster.getConf();
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      admin.flush(table);
      admin.majorCompact(table);
      Thread.sleep(2_000);
      long deadline = System.currentTimeMillis() + 1_200_000;
      while (admin.getCompactionState(table) != CompactionState.NONE
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(500);
      }
      for (RegionInfo region : admin.getRegions(table)) {
        Optional<Region> r = cluster.getRegion(region);
        if (r.isPresent()) {
          for (HStore store : ((HRegion) r.get()).getStores()) {
            store.closeAndArchiveCompactedFiles();
          }
        }
      }
      Path dir = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(conf), table);
      return dir.getFileSystem(conf).getContentSummary(dir).getLength();
    }
  }

  /** The shared cluster's configuration. */
  static Configuration conf() {
    TestingHBaseCluster c = shared;
    if (c == null) {
      throw new IllegalStateException("annotate the test class with @ExtendWith(MiniHBase.class)");
    }
    return c.getConf();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    // The root store outlives every class and closes its resources once the run ends.
    context
        .getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(
            MiniHBase.class,
            k -> {
              try {
                TestingHBaseCluster c = start();
                shared = c;
                return new MiniHBase(c);
              } catch (Exception e) {
                throw new IllegalStateException("the mini-cluster did not start", e);
              }
            },
            MiniHBase.class);
  }

  @Override
  public void close() throws Exception {
    if (cluster != null) {
      shared = null;
      cluster.stop();
    }
  }
}
