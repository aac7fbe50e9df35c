// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP/1.1 exchange with the service, blocking: over a plain socket of {@link PlainHttp} for
 * {@code http://}, over the JDK's {@link HttpURLConnection} for {@code https://} (which keeps
 * connections open between exchanges, up to {@code http.maxConnections}, 5 by default, idle ones
 * per host). Thread-safe; one exchange per calling thread at a time.
 *
 * <p>Proxies: the plain socket connects to the service itself, so an {@code http://} service for
 * which the JVM's {@link ProxySelector} names a proxy (the system properties {@code http.proxyHost}
 * and {@code http.proxyPort}, less {@code http.nonProxyHosts}, which by default leaves out {@code
 * localhost}, {@code 127.*} and {@code [::1]}; or the system's settings with {@code
 * -Djava.net.useSystemProxies=true}) goes over {@link HttpURLConnection} instead, which sends it
 * through that proxy. The choice is made once, when the transport is built. As everywhere in the
 * JDK, the environment variables {@code HTTP_PROXY} and {@code http_proxy} are not read.
 *
 * <p>Why not {@code java.net.http.HttpClient}: a client on the same cores as the service (as {@code
 * neardup send} is) spent ~4x the CPU per request in it: 200 batches of 100 short texts took
 * 0.91-0.96 CPU s there and 0.23-0.27 s here, in the same JVM flags (docs/BENCHMARKS.md, the
 * twelfth session), most of it its asynchronous pipeline per request and its compilation.
 *
 * <p>A body is sent with a fixed length (no buffered copy), and so a request with a body is never
 * sent again by the JDK on a connection the server closed meanwhile: the error is the caller's. The
 * timeout bounds each wait for the server (the connection, then each read of the answer), not the
 * whole exchange; it surfaces as an {@link HttpTimeoutException}, as {@code HttpClient}'s does.
 */
final class Transport {
  private final URI base;
  private final @Nullable String authorization;
  private final int connectMillis;
  private final int readMillis;
  private final @Nullable PlainHttp plain;

  /** An answer: its status, its body (empty when it has none), its Retry-After or -1. */
  record Answer(int status, byte[] body, long retryAfterSeconds) {}

  Transport(
      URI base, @Nullable String authorization, Duration connectTimeout, Duration readTimeout) {
    this.base = base;
    this.authorization = authorization;
    this.connectMillis = millis(connectTimeout);
    this.readMillis = millis(readTimeout);
    this.plain =
        "http".equalsIgnoreCase(base.getScheme()) && direct(base)
            ? new PlainHttp(base, authorization, connectMillis, readMillis)
            : null;
  }

  /**
   * Whether the JVM's proxy selector sends requests to {@code base} straight to it (its first
   * choice, the one {@link HttpURLConnection} tries first, is no proxy).
   */
  static boolean direct(URI base) {
    ProxySelector selector = ProxySelector.getDefault();
    if (selector == null) {
      return true;
    }
    List<Proxy> proxies = selector.select(base);
    return proxies == null || proxies.isEmpty() || proxies.get(0).type() == Proxy.Type.DIRECT;
  }

  /** Whether exchanges go over the plain socket (false: over {@link HttpURLConnection}). */
  boolean plain() {
    return plain != null;
  }

  /** Closes the connections kept open (those of {@code http://}). */
  void close() {
    if (plain != null) {
      plain.close();
    }
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
  }

  /**
   * Sends {@code method path} with {@code body} (when not null, as {@code contentType}) and the
   * optional extra header, and reads the whole answer, so the connection can be used again.
   */
  Answer exchange(
      String method,
      String path,
      @Nullable String contentType,
      byte @Nullable [] body,
      @Nullable String header,
      @Nullable String value)
      throws IOException {
    return exchange(
        method, path, contentType, body, 0, body == null ? 0 : body.length, header, value);
  }

  /**
   * {@link #exchange(String, String, String, byte[], String, String)} with the body {@code
   * body[from, to)}; the bytes before {@code from} may be overwritten (the plain socket puts the
   * request's head there when it fits, to send head and body in one write).
   */
  Answer exchange(
      String method,
      String path,
      @Nullable String contentType,
      byte @Nullable [] body,
      int from,
      int to,
      @Nullable String header,
      @Nullable String value)
      throws IOException {
    if (plain != null) {
      return plain.exchange(method, path, contentType, body, from, to, header, value);
    }
    HttpURLConnection c = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
    try {
      c.setRequestMethod(method);
      c.setConnectTimeout(connectMillis);
      c.setReadTimeout(readMillis);
      c.setUseCaches(false);
      c.setInstanceFollowRedirects(false);
      c.setRequestProperty("Accept", "application/json");
      if (authorization != null) {
        c.setRequestProperty("Authorization", authorization);
      }
      if (header != null && value != null) {
        c.setRequestProperty(header, value);
      }
      if (body != null) {
        c.setDoOutput(true);
        c.setFixedLengthStreamingMode(to - from);
        if (contentType != null) {
          c.setRequestProperty("Content-Type", contentType);
        }
        try (OutputStream out = c.getOutputStream()) {
          out.write(body, from, to - from);
        }
      }
      int status = c.getResponseCode();
      byte[] answer;
      try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
        answer = in == null ? new byte[0] : in.readAllBytes();
      }
      String after = c.getHeaderField("Retry-After");
      return new Answer(status, answer, after == null ? -1 : retryAfter(after));
    } catch (SocketTimeoutException e) {
      c.disconnect(); // a late answer must not be read as the next request's
      throw timeout(method, path, readMillis, e);
    }
  }

  /** A Retry-After value in seconds, or -1 for an HTTP date (which the service does not send). */
  static long retryAfter(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** A read that timed out, named as {@code HttpClient} named it. */
  static HttpTimeoutException timeout(
      String method, String path, int readMillis, SocketTimeoutException e) {
    HttpTimeoutException t =
        new HttpTimeoutException(
            method
                + " "
                + path
                + ": no answer within "
                + readMillis
                + " ms ("
                + e.getMessage()
                + ")");
    t.initCause(e);
    return t;
  }
}
