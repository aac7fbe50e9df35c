// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --tls-cert}/{@code --tls-key}: the service over HTTPS with a PEM certificate and key made
 * by {@code openssl}, checked by two real TLS clients (the JDK's HttpClient trusting only that
 * certificate, and {@code curl --cacert}); plain HTTP to the port gets no answer.
 */
class TlsTest {
  @TempDir Path dir;

  static void run(Path cwd, String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + out);
    }
  }

  /** A self-signed certificate for 127.0.0.1 and its key, in PEM: cert.pem and key.pem. */
  static void makeCertificate(Path d, String keyType) throws Exception {
    run(
        d,
        "openssl",
        "req",
        "-x509",
        "-newkey",
        keyType,
        "-nodes",
        "-keyout",
        "key.pem",
        "-out",
        "cert.pem",
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1");
  }

  static HttpClient trusting(Path cert) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry(
        "neardup",
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(cert))));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ctx).version(HttpClient.Version.HTTP_1_1).build();
  }

  @Test
  public void https_withRsaAndEcKeys_realClients() throws Exception {
    for (String keyType : List.of("rsa:2048", "ec:/dev/null")) {
      Path d = Files.createDirectories(dir.resolve(keyType.substring(0, 2)));
      if (keyType.startsWith("ec")) {
        run(d, "openssl", "ecparam", "-name", "prime256v1", "-out", "ec.pem");
        keyType = "ec:ec.pem";
      }
      makeCertificate(d, keyType);
      Path cert = d.resolve("cert.pem");
      Path key = d.resolve("key.pem");
      ServerConfig parsed =
          ServerConfig.parse(
              new String[] {"--tls-cert", cert.toString(), "--tls-key", key.toString()},
              java.util.Map.of());
      try (TestServer t =
          TestServer.start(
              d.resolve("data"), InstantSource.system(), b -> b.guards(parsed.guards()))) {
        assertThat(t.server.uri().getScheme()).isEqualTo("https");
        HttpClient https = trusting(cert);
        HttpResponse<String> r =
            https.send(
                HttpRequest.newBuilder(t.uri("/v1/collections/default/documents"))
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"id\":\"a\",\"text\":\"the council approved the budget\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("\"status\":\"stored\"");

        // curl, a second TLS implementation (OpenSSL), trusting only this certificate.
        Path out = d.resolve("curl.out");
        run(
            d,
            "curl",
            "-sS",
            "--cacert",
            cert.toString(),
            "-o",
            out.toString(),
            t.server.uri() + "/v1/collections/default/documents?id=a");
        assertThat(Files.readString(out)).contains("\"id\":\"a\"");

        // A client that does not trust the certificate, and plain HTTP, get nothing.
        assertThatThrownBy(
                () ->
                    HttpClient.newHttpClient()
                        .send(
                            HttpRequest.newBuilder(t.uri("/health")).build(),
                            HttpResponse.BodyHandlers.ofString()))
            .isInstanceOf(IOException.class);
        assertThatThrownBy(
                () ->
                    t.http.send(
                        HttpRequest.newBuilder(
                                java.net.URI.create(
                                    "http://127.0.0.1:" + t.server.port() + "/health"))
                            .timeout(java.time.Duration.ofSeconds(30))
                            .build(),
                        HttpResponse.BodyHandlers.ofString()))
            .isInstanceOf(IOException.class);
      }
    }
  }

  @Test
  public void badKeyFiles_areNamed() throws Exception {
    makeCertificate(dir, "rsa:2048");
    Path rsa1 = dir.resolve("pkcs1.pem");
    run(dir, "openssl", "rsa", "-in", "key.pem", "-traditional", "-out", rsa1.toString());
    assertThatThrownBy(() -> Tls.context(dir.resolve("cert.pem"), rsa1))
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    assertThatThrownBy(() -> Tls.context(dir.resolve("key.pem"), dir.resolve("key.pem")))
        .hasMessageContaining("no -----BEGIN CERTIFICATE-----");
    assertThatThrownBy(
            () ->
                ServerConfig.parse(
                    new String[] {"--tls-cert", dir.resolve("cert.pem").toString()},
                    java.util.Map.of()))
        .hasMessageContaining("give both --tls-cert and --tls-key");
  }
}
