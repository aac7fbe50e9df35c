// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.util.Map;

/**
 * The contract again with 8-bit block keys ({@code block-key-bits=8}: a key stands for 256 block
 * values, so keys hold many documents whose blocks differ and the filter by rest keys does the work
 * the key did), the layout of small collections; and with {@code append-entries=false}, so the
 * commit's whole-key writes pass the contract too (the other subclasses APPEND).
 */
class RedisCoarseKeysContractTest extends RedisStoreContractTest {
  @Override
  protected Map<String, String> storeOptions() {
    return Map.of("block-key-bits", "8", "append-entries", "false");
  }
}
