// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real {@link RedisServer} per test class: started before the class's first test, stopped (its
 * directory deleted) after its last. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();
 * ... redis.url() ...
 * }</pre>
 *
 * <p>Not for sharing between classes running in parallel: each class gets its own server.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {
  private final String[] args;
  private @Nullable RedisServer server;

  /** A server with no persistence, plus {@code args} ({@link RedisServer#start(String...)}). */
  public RedisServerExtension(String... args) {
    this.args = args.clone();
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    if (server == null) {
      server = RedisServer.start(args);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    RedisServer s = server;
    server = null;
    if (s != null) {
      s.close();
    }
  }

  /** The running server; only between the class's {@code beforeAll} and {@code afterAll}. */
  public RedisServer server() {
    RedisServer s = server;
    if (s == null) {
      throw new IllegalStateException(
          "the Redis server runs only while its test class runs: register the extension on a"
              + " static field with @RegisterExtension");
    }
    return s;
  }

  /** The running server's {@code redis://127.0.0.1:PORT} URL. */
  public String url() {
    return server().url();
  }
}
