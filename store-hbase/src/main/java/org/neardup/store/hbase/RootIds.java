// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The ids of clusters' roots a process has read or committed, so a probe fetches only the others. A
 * root's id row is written once, with the root, and never changes: ordinals are never given twice
 * ({@link Sequence}) and collections never share a uid, so an entry cannot go stale. Thread-safe;
 * at most {@link #CAPACITY} entries (about 6 MB with 16-character ids), the least recently used
 * dropped first.
 */
final class RootIds {
  static final int CAPACITY = 1 << 16;

  private final Map<Long, String> ids =
      new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
          return size() > CAPACITY;
        }
      };

  synchronized @Nullable String get(long root) {
    return ids.get(root);
  }

  synchronized void put(long root, String id) {
    ids.put(root, id);
  }

  synchronized int size() {
    return ids.size();
  }
}
