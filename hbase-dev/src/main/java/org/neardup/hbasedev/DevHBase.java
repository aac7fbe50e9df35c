// SPDX-License-Identifier: Apache-2.0
package org.neardup.hbasedev;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

/**
 * {@code neardup dev hbase --port P [--data DIR]}: a standalone HBase for trying {@code neardup
 * serve --store hbase} on one machine: ZooKeeper on 127.0.0.1:P, one master and one region server
 * in this process, on 127.0.0.1 only, data under DIR on the local file system (a temporary
 * directory, deleted on exit, without {@code --data}). Prints {@code ready} on a line of its own
 * once a table can be created; stops cleanly on SIGTERM or Ctrl-C. Not for production: one process,
 * no replication, the write-ahead log on a local disk without hflush guarantees.
 */
public final class DevHBase {
  private DevHBase() {}

  public static void main(String[] args) throws Exception {
    int port = -1;
    Path data = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if ((a.equals("--port") || a.equals("--data")) && i + 1 >= args.length) {
        usage(a + " needs a value");
      }
      switch (a) {
        case "--port" -> port = parsePort(args[++i]);
        case "--data" -> data = Path.of(args[++i]);
        case "-h", "--help" -> {
          System.out.println(
              "usage: neardup dev hbase --port P [--data DIR]\n"
                  + "  a standalone HBase, ZooKeeper on 127.0.0.1:P; prints 'ready' when tables can"
                  + " be created;\n  data in DIR (default: a temporary directory deleted on exit)");
          return;
        }
        default -> usage("unknown argument '" + a + "'");
      }
    }
    if (port < 0) {
      usage("--port is required");
    }
    boolean temporary = data == null;
    Path dir = temporary ? Files.createTempDirectory("neardup-hbase") : data.toAbsolutePath();
    Files.createDirectories(dir);
    run(port, dir, temporary);
  }

  private static int parsePort(String s) {
    try {
      int p = Integer.parseInt(s);
      if (p > 0 && p < 65536) {
        return p;
      }
    } catch (NumberFormatException e) {
      // below
    }
    usage("--port must be a port number in [1, 65535], got '" + s + "'");
    return -1;
  }

  private static void usage(String message) {
    System.err.println("neardup dev hbase: " + message);
    System.err.println("usage: neardup dev hbase --port P [--data DIR]");
    System.exit(2);
  }

  /** The configuration of a one-process HBase on 127.0.0.1 with ZooKeeper on {@code port}. */
  static Configuration configuration(int port, Path dir) {
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.HBASE_DIR, dir.resolve("hbase").toUri().toString());
    conf.set(HConstants.ZOOKEEPER_QUORUM, "127.0.0.1");
    conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, port);
    conf.set(HConstants.ZOOKEEPER_DATA_DIR, dir.resolve("zookeeper").toString());
    conf.setBoolean(HConstants.CLUSTER_DISTRIBUTED, false);
    // A local file system cannot hflush: HBase must accept that for its write-ahead log.
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.master.hostname", "127.0.0.1");
    conf.set("hbase.regionserver.hostname", "127.0.0.1");
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.setInt(HConstants.MASTER_PORT, 0);
    conf.setInt(HConstants.REGIONSERVER_PORT, 0);
    conf.setInt(HConstants.MASTER_INFO_PORT, -1);
    conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
    conf.set("hbase.tmp.dir", dir.resolve("tmp").toString());
    return conf;
  }

  private static void run(int port, Path dir, boolean temporary) throws Exception {
    Configuration conf = configuration(port, dir);
    MiniZooKeeperCluster zk = new MiniZooKeeperCluster(conf);
    zk.setDefaultClientPort(port);
    // ZooKeeper listens on the loopback address only.
    int got = zk.startup(dir.resolve("zookeeper").toFile());
    if (got != port) {
      zk.shutdown();
      System.err.println("neardup dev hbase: port " + port + " is in use");
      System.exit(1);
    }
    LocalHBaseCluster hbase = new LocalHBaseCluster(conf, 1, 1);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    hbase.shutdown();
                    hbase.join();
                    zk.shutdown();
                    if (temporary) {
                      delete(dir.toFile());
                    }
                  } catch (IOException | RuntimeException e) {
                    System.err.println("neardup dev hbase: stopping: " + e);
                  } finally {
                    System.err.println("neardup dev hbase: stopped");
                    stopped.countDown();
                  }
                },
                "dev-hbase-stop"));
    hbase.startup();
    try (Connection c = ConnectionFactory.createConnection(conf);
        Admin admin = c.getAdmin()) {
      // Ready means a table can be created: the master has assigned meta and is initialised.
      TableName probe = TableName.valueOf("neardup_dev_ready");
      if (admin.tableExists(probe)) {
        admin.disableTable(probe);
        admin.deleteTable(probe);
      }
      admin.createTable(
          TableDescriptorBuilder.newBuilder(probe)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
              .build());
      admin.disableTable(probe);
      admin.deleteTable(probe);
    }
    System.err.println(
        "neardup dev hbase: ZooKeeper on 127.0.0.1:"
            + port
            + ", data in "
            + dir
            + (temporary ? " (deleted on exit)" : ""));
    System.out.println("ready");
    System.out.flush();
    stopped.await();
  }

  private static void delete(File f) {
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        delete(c);
      }
    }
    if (!f.delete() && f.exists()) {
      System.err.println("neardup dev hbase: could not delete " + f);
    }
  }
}
