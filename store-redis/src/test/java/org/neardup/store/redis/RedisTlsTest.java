// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServer;

/**
 * {@code rediss://} against a real redis-server serving TLS with a certificate from a test CA (made
 * here with openssl): the store connects when given the CA file, and refuses a server whose
 * certificate it cannot trust.
 */
class RedisTlsTest {
  @TempDir Path dir;

  private void openssl(String... args) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of("openssl"));
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("openssl.log").toFile())
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue())
        .as("openssl %s: %s", cmd, Files.readString(dir.resolve("openssl.log")))
        .isZero();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static FingerprintStore open(String url, Path ca) throws IOException {
    return new RedisStoreProvider()
        .open(
            new StoreConfig(
                Map.of("url", url, "tls-ca-file", ca.toString(), "expire-interval", "0"),
                InstantSource.system()));
  }

  @Test
  public void rediss_withTheCaFile_works_andAnUntrustedCertificateIsRefused() throws Exception {
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=neardup-test-ca");
    openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1");
    Files.writeString(dir.resolve("ext"), "subjectAltName=IP:127.0.0.1\n");
    openssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "2",
        "-extfile",
        "ext");
    // Another CA, which did not sign the server's certificate.
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "other.key",
        "-out",
        "other.crt",
        "-days",
        "2",
        "-subj",
        "/CN=other-ca");
    int tlsPort = freePort();
    try (RedisServer server =
        RedisServer.start(
            "--tls-port", String.valueOf(tlsPort),
            "--tls-cert-file", dir.resolve("server.crt").toString(),
            "--tls-key-file", dir.resolve("server.key").toString(),
            "--tls-ca-cert-file", dir.resolve("ca.crt").toString(),
            "--tls-auth-clients", "no")) {
      String url = "rediss://127.0.0.1:" + tlsPort;
      try (FingerprintStore store = open(url, dir.resolve("ca.crt"))) {
        Collection c =
            store.create(
                "tls", CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON));
        String text = "words sent over an encrypted connection, twice over";
        assertThat(c.checkAndInsert(new Document("a", c.analyzer().analyze(text))).isNew())
            .isTrue();
        assertThat(c.checkAndInsert(new Document("b", c.analyzer().analyze(text))).cluster())
            .isEqualTo("a");
        assertThat(store.toString()).contains("rediss://127.0.0.1:" + tlsPort);
      }
      assertThatThrownBy(() -> open(url, dir.resolve("other.crt"))).isInstanceOf(IOException.class);
    }
  }
}
