// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for {@code rediss://} URLs: trust the certificates of a CA file (PEM) instead of the JVM's
 * defaults, and check that the server's certificate names the host of the URL.
 */
final class Tls {
  private Tls() {}

  /**
   * A socket factory trusting exactly the certificates in {@code caFile}.
   *
   * @throws IllegalArgumentException if the file cannot be read or holds no certificate
   */
  static SSLSocketFactory trusting(Path caFile) {
    try (InputStream in = Files.newInputStream(caFile)) {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int n = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trust.setCertificateEntry("ca-" + n++, c);
      }
      if (n == 0) {
        throw new IllegalArgumentException("tls-ca-file " + caFile + " holds no certificate");
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx.getSocketFactory();
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "tls-ca-file " + caFile + " is not a readable PEM certificate file: " + e.getMessage(),
          e);
    }
  }

  /** Parameters that make the handshake check the server's name against the URL's host. */
  static SSLParameters verifyingHost() {
    SSLParameters p = new SSLParameters();
    p.setEndpointIdentificationAlgorithm("HTTPS");
    return p;
  }
}
