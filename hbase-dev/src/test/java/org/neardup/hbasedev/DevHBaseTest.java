// SPDX-License-Identifier: Apache-2.0
package org.neardup.hbasedev;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.testkit.ReadyLine;

/**
 * {@code neardup dev hbase} as a user runs it, a separate process: it prints {@code ready}, a
 * client on its ZooKeeper port creates a table and writes a row, SIGTERM stops it with exit code
 * 143 or 0 within a minute, and a second start on the same directory finds the row.
 */
class DevHBaseTest {
  @TempDir Path dir;

  @Test
  void devHBase_readyServesStopsOnSigtermAndKeepsData() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path data = dir.resolve("data");
    TableName table = TableName.valueOf("t");
    byte[] row = Bytes.toBytes("row");
    byte[] f = Bytes.toBytes("f");

    Process first = start(port, data);
    try (Connection c = ConnectionFactory.createConnection(client(port));
        Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(f))
              .build());
      try (Table t = c.getTable(table)) {
        t.put(new Put(row).addColumn(f, f, Bytes.toBytes("kept")));
      }
    }
    stop(first);

    Process second = start(port, data);
    try (Connection c = ConnectionFactory.createConnection(client(port));
        Table t = c.getTable(table)) {
      assertThat(Bytes.toString(t.get(new Get(row)).getValue(f, f))).isEqualTo("kept");
    }
    stop(second);
  }

  private static Configuration client(int port) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1:" + port);
    conf.setInt("hbase.client.retries.number", 10);
    return conf;
  }

  private Process start(int port, Path data) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.addAll(Arrays.asList(System.getProperty("hbase.dev.flags", "").trim().split("\\s+")));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(DevHBase.class.getName());
    cmd.addAll(List.of("--port", Integer.toString(port), "--data", data.toString()));
    Path err = Files.createTempFile(dir, "dev-hbase", ".err");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    boolean ok = ReadyLine.await(p, "ready", Duration.ofSeconds(240));
    if (!ok) {
      p.destroyForcibly();
      throw new AssertionError(
          "dev hbase did not print ready; stderr:\n" + tail(Files.readString(err)));
    }
    return p;
  }

  private static void stop(Process p) throws Exception {
    p.destroy(); // SIGTERM
    boolean exited = p.waitFor(90, TimeUnit.SECONDS);
    if (!exited) {
      p.destroyForcibly();
    }
    assertThat(exited).as("stopped within 90 s of SIGTERM").isTrue();
    assertThat(p.exitValue()).isIn(0, 143);
  }

  private static String tail(String s) {
    return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
  }
}
