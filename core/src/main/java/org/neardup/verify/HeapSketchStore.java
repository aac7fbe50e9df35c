// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import org.neardup.internal.BytePool;
import org.neardup.internal.PagedLongArray;

/**
 * {@link SketchStore#onHeap()}: sketches in a {@link BytePool}, band keys in a {@link
 * PagedLongArray}. Memory: the sketch's bytes plus 8, and 8 per band key.
 */
final class HeapSketchStore implements SketchStore {
  private final int bandCount;
  private final BytePool sketches = new BytePool();
  private final PagedLongArray keys;

  HeapSketchStore(int bandCount, int expectedSize) {
    this.bandCount = bandCount;
    this.keys = new PagedLongArray((long) expectedSize * bandCount);
  }

  @Override
  public int add(long[] bandKeys, int n, byte[] sketch, int off, int len) {
    assert n == bandCount : n + " band keys, expected " + bandCount;
    keys.append(bandKeys, 0, n);
    return sketches.add(sketch, off, len);
  }

  @Override
  public void sketch(int i, Slice into) {
    into.view(sketches.array(i), sketches.offset(i), sketches.length(i));
  }

  @Override
  public void bandKeys(int i, long[] out) {
    keys.get((long) i * bandCount, out, 0, bandCount);
  }

  @Override
  public void clear(int i) {
    sketches.clear(i);
  }

  @Override
  public int size() {
    return sketches.size();
  }

  @Override
  public long ramBytesUsed() {
    return sketches.ramBytesUsed() + keys.ramBytesUsed();
  }
}
