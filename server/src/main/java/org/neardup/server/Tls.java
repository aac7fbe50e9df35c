// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The server's TLS context from PEM files, as web servers take them: a certificate chain ({@code
 * -----BEGIN CERTIFICATE-----}, the server's first) and its unencrypted PKCS#8 private key ({@code
 * -----BEGIN PRIVATE KEY-----}; RSA, EC or Ed25519).
 */
final class Tls {
  private Tls() {}

  static SSLContext context(Path certFile, Path keyFile) throws IOException {
    try {
      List<byte[]> certs = blocks(certFile, "CERTIFICATE");
      if (certs.isEmpty()) {
        throw new IOException(
            "--tls-cert " + certFile + " holds no -----BEGIN CERTIFICATE----- block");
      }
      CertificateFactory cf = CertificateFactory.getInstance("X.509");
      List<Certificate> chain = new ArrayList<>();
      for (byte[] der : certs) {
        chain.add(cf.generateCertificate(new ByteArrayInputStream(der)));
      }
      List<byte[]> keys = blocks(keyFile, "PRIVATE KEY");
      if (keys.size() != 1) {
        String text = Files.readString(keyFile, StandardCharsets.US_ASCII);
        throw new IOException(
            "--tls-key "
                + keyFile
                + " must hold one -----BEGIN PRIVATE KEY----- block (PKCS#8, unencrypted)"
                + (text.contains("BEGIN RSA PRIVATE KEY") || text.contains("BEGIN EC PRIVATE KEY")
                    ? "; convert it with: openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW"
                    : text.contains("ENCRYPTED") ? "; it is encrypted" : ""));
      }
      PrivateKey key = privateKey(keys.get(0), keyFile);
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      char[] none = new char[0];
      ks.setKeyEntry("neardup", key, none, chain.toArray(new Certificate[0]));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, none);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IOException(
          "cannot use --tls-cert " + certFile + " with --tls-key " + keyFile + ": " + e, e);
    }
  }

  private static PrivateKey privateKey(byte[] der, Path file) throws GeneralSecurityException {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String alg : new String[] {"RSA", "EC", "Ed25519", "RSASSA-PSS"}) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(spec);
      } catch (InvalidKeySpecException e) {
        // try the next algorithm
      }
    }
    throw new InvalidKeySpecException(file + " is not an RSA, EC or Ed25519 PKCS#8 key");
  }

  /** The DER bytes of every {@code -----BEGIN type-----} block of a PEM file. */
  static List<byte[]> blocks(Path file, String type) throws IOException {
    String text = Files.readString(file, StandardCharsets.US_ASCII);
    String begin = "-----BEGIN " + type + "-----";
    String end = "-----END " + type + "-----";
    List<byte[]> out = new ArrayList<>();
    for (int i = text.indexOf(begin); i >= 0; i = text.indexOf(begin, i)) {
      int j = text.indexOf(end, i);
      if (j < 0) {
        throw new IOException(file + ": " + begin + " without " + end);
      }
      String b64 = text.substring(i + begin.length(), j).replaceAll("\\s", "");
      try {
        out.add(Base64.getDecoder().decode(b64));
      } catch (IllegalArgumentException e) {
        throw new IOException(file + ": a " + type + " block is not Base64", e);
      }
      i = j + end.length();
    }
    return out;
  }
}
