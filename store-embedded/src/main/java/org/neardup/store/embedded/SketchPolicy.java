// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

/**
 * Which of the previous snapshot's sketch files a compaction folds into its own sketch file (copies
 * their live entries) instead of keeping them where they are ({@link SnapshotFormat} version 4).
 * Folding copies bytes; keeping holds dead bytes and file handles. A file is folded when:
 *
 * <ul>
 *   <li>more than {@link #MAX_DEAD} of its entry bytes are dead (the documents were removed or
 *       expired): at a half, the bytes copied are at most the bytes given back, so the copying
 *       costs at most one write per dead byte, and the sketch files never hold more than twice the
 *       live sketches (a file just under the line holds as much dead as live);
 *   <li>it holds no more live bytes than the files newer than it and the new entries together
 *       (taken from the newest down, up to the first file that is larger): a binary counter, so a
 *       run of compactions that each add a little leaves O(log(total / added)) files, and an entry
 *       is copied O(log) times over its life instead of at every compaction. The big file of a bulk
 *       load stays until as much again has been added after it;
 *   <li>more than {@link #MAX_FILES} would be kept otherwise (the newest first).
 * </ul>
 *
 * The dead bytes are those the previous snapshot's footer counts; what was removed since shows at
 * the next compaction.
 */
final class SketchPolicy {
  static final double MAX_DEAD = 0.5;
  static final int MAX_FILES = 64;

  private SketchPolicy() {}

  /**
   * @param sizes each file's size in bytes, oldest first
   * @param live each file's live entry bytes (the previous snapshot's footer)
   * @param added about how many entry bytes the compaction writes anew (the log's size)
   * @return which files to fold
   */
  static boolean[] fold(long[] sizes, long[] live, long added) {
    int n = sizes.length;
    boolean[] fold = new boolean[n];
    int kept = 0;
    for (int i = 0; i < n; i++) {
      long entries = sizes[i] - SnapshotFormat.SKETCH_HEADER - SnapshotFormat.SKETCH_FOOTER;
      fold[i] = live[i] <= 0 || entries - live[i] > MAX_DEAD * entries;
      kept += fold[i] ? 0 : 1;
    }
    long newer = added;
    for (int i = n - 1; i >= 0; i--) {
      if (!fold[i]) {
        if (live[i] > newer && kept <= MAX_FILES) {
          break;
        }
        fold[i] = true;
        kept--;
      }
      newer += Math.max(0, live[i]);
    }
    return fold;
  }
}
