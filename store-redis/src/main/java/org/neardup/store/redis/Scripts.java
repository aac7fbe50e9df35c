// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The store's Lua scripts ({@code commit}, {@code remove}, {@code get}, {@code rescore}, {@code
 * trim}), run by their SHA-1 and loaded again when Redis answers NOSCRIPT (after a restart, or on a
 * node of a cluster that has not seen them). Thread-safe.
 */
final class Scripts {
  /** One script: its source and its SHA-1. */
  static final class Script {
    final String name;
    final byte[] source;
    volatile byte[] sha;

    Script(String name) {
      this.name = name;
      try (InputStream in = Scripts.class.getResourceAsStream(name + ".lua")) {
        if (in == null) {
          throw new IllegalStateException("script " + name + ".lua is missing from the jar");
        }
        this.source = in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  final Script commit = new Script("commit");
  final Script remove = new Script("remove");
  final Script get = new Script("get");
  final Script rescore = new Script("rescore");
  final Script trim = new Script("trim");

  private final UnifiedJedis redis;

  Scripts(UnifiedJedis redis) {
    this.redis = redis;
  }

  /** Runs a script with these keys and arguments; the keys must share one hash slot. */
  Object run(Script s, List<byte[]> keys, List<byte[]> args) {
    byte[] sha = s.sha;
    if (sha != null) {
      try {
        return redis.evalsha(sha, keys, args);
      } catch (JedisNoScriptException e) {
        // Redis restarted or failed over: load it again below.
      }
    }
    // SCRIPT LOAD goes to the node of the first key, the one that runs it.
    s.sha = redis.scriptLoad(s.source, keys.get(0));
    return redis.evalsha(s.sha, keys, args);
  }

  /**
   * Runs a script once per {@code [keys, args]} call in one pipeline (one round trip); the replies
   * in call order. Every call's keys must share one hash slot.
   */
  List<Object> runAll(Script s, List<List<List<byte[]>>> calls) {
    if (calls.isEmpty()) {
      return List.of();
    }
    byte[] firstKey = calls.get(0).get(0).get(0);
    if (s.sha == null) {
      s.sha = redis.scriptLoad(s.source, firstKey);
    }
    for (int attempt = 0; ; attempt++) {
      List<Response<Object>> replies = new ArrayList<>(calls.size());
      try (AbstractPipeline p = redis.pipelined()) {
        for (List<List<byte[]>> call : calls) {
          replies.add(p.evalsha(s.sha, call.get(0), call.get(1)));
        }
        p.sync();
      }
      try {
        List<Object> out = new ArrayList<>(replies.size());
        for (Response<Object> r : replies) {
          out.add(r.get());
        }
        return out;
      } catch (JedisNoScriptException e) {
        // Redis lost its scripts (a restart): none of these ran. Load and send them again.
        if (attempt > 0) {
          throw e;
        }
        s.sha = redis.scriptLoad(s.source, firstKey);
      }
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] bytes(long n) {
    return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
  }
}
