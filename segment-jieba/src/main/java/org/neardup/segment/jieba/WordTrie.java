// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.util.Arrays;

/**
 * A set of words over UTF-16 chars, as a trie whose nodes carry the weight of the word that ends
 * there.
 *
 * <p>Immutable once built and safe to share between threads. {@link #child} is usually one 8-byte
 * read (one cache line) and allocates nothing.
 */
final class WordTrie {
  /*
   * The trie's edges live in one open-addressing hash table with linear probing, and a node's id
   * is the slot of the edge that leads to it, so finding a child and reading its weight and flags
   * is one probe sequence in one array. Slot 0 is the root.
   *
   * Cell layout, one long per slot (0 = empty):
   *   bits  0-38  key of the edge into the node: (parent << 16 | c) + 1; all ones for the root
   *   bits 39-58  index into weights[] of the node's weight; 0 = NOT_A_WORD
   *   bit  59     the node has children (a walk can stop at a leaf without a failed probe)
   *
   * Two structures derived from the cells (at load, one pass) keep most steps out of the table:
   *   rootCells[c]  the root child's cell along c with its slot in place of the key (0 = none):
   *                 a walk's first step and the node's weight and flag in one read of a dense
   *                 array (jieba's Han range is 168 KB of it, within L2);
   *   edgeFilter    one bit per (parent, c) key of every edge below the root, by another hash
   *                 than the home slot's, ~8 bits per edge (4 Mbit, 512 KB, for jieba): a clear
   *                 bit answers a missing child without the probe. A position's walk asks for
   *                 0.65 missing children on average, and each probe was a cache miss in 8 MB.
   * The two together took the warm zh pass from ~420 to ~350 ms of CPU (8.8 MB of text, default
   * settings, alternating builds in separate JVMs; docs/BENCHMARKS.md, the thirteenth session).
   *
   * Why 8-byte cells: the table (2^20 slots for jieba) is larger than L2, so a trie step costs
   * about one cache miss, and half the bytes keep more of the hot part cached. jieba has only
   * 5,087 distinct frequencies, so its weights fit a small, always cached double[]. The first
   * layout (16-byte cells with the weight as a double, 16.8 MB; root children found by hashing;
   * no children flag) segmented 1.23x slower than this one (median ratio of alternating rounds
   * of both builds in one JVM, 1.32 M-char zh corpus, p25-p75 1.16-1.40).
   *
   * Invariants: the table is a power of two long and at most half full (expected probes: 1.5 for
   * a hit, 2.5 for a miss); every used slot is reachable from its parent by child(); the children
   * flag is set iff some slot names the node as parent; weights[0] = NOT_A_WORD and every other
   * weight is <= 0; rootCells holds exactly the root's children; every edge below the root has
   * its filter bit set.
   *
   * An earlier session measured, by alternating rounds of both builds in one JVM on a 1.32 M-char
   * zh corpus at a high load, root cells alone at 0.95x and root cells with an 8-bit signature of
   * each node's child chars in its cell at 1.00x; whole fingerprinting passes over 8.8 MB show
   * the root cells with the filter above faster.
   *
   * A double-array trie (one base + check read per step, no probing) was tried first: with
   * jieba's 498,113 nodes and Han children spread over 20,000 code points, its first-fit layout
   * took 90 s to build. This table builds in linear time.
   */
  static final int ROOT = 0;
  static final double NOT_A_WORD = 1.0;

  private static final long KEY_MASK = (1L << 39) - 1;
  private static final int WEIGHT_SHIFT = 39;
  private static final int WEIGHT_MASK = (1 << 20) - 1;
  private static final long HAS_CHILDREN = 1L << 59;
  private static final long ROOT_KEY = KEY_MASK;
  private static final int MAX_SLOTS = 1 << 22;

  /** Bits 0-21 of a root cell: the root child's slot (never 0, the root's own). */
  private static final long SLOT_MASK = (1L << 22) - 1;

  private static final long FILTER_MULTIPLIER = 0xC2B2AE3D27D4EB4FL;
  private static final int MAX_FILTER_BITS = 1 << 23;

  private final long[] cells;
  private final long[] rootCells;
  private final long[] edgeFilter;
  private final int filterShift;
  private final double[] weights;
  private final int mask;
  private final int shift;
  private final int nodes;

  /** A trie over {@code cells}; the root cells and the edge filter are derived from them. */
  private WordTrie(long[] cells, double[] weights, int nodes) {
    this(cells, weights, nodes, new long[1 << 16], new long[filterBits(nodes) >>> 6]);
    for (int t = 1; t < cells.length; t++) {
      long cell = cells[t];
      long k = cell & KEY_MASK;
      if (k == 0) {
        continue;
      }
      if ((k - 1) >>> 16 == ROOT) {
        rootCells[(char) (k - 1)] = (cell & ~KEY_MASK) | t;
      } else {
        int bit = filterBit(k);
        edgeFilter[bit >>> 6] |= 1L << bit;
      }
    }
  }

  /** A trie over {@code cells} with its root cells and edge filter as given (or to be filled). */
  private WordTrie(long[] cells, double[] weights, int nodes, long[] rootCells, long[] edgeFilter) {
    this.cells = cells;
    this.weights = weights;
    this.mask = cells.length - 1;
    this.shift = 64 - Integer.numberOfTrailingZeros(cells.length);
    this.nodes = nodes;
    this.edgeFilter = edgeFilter;
    this.filterShift = 64 - Integer.numberOfTrailingZeros(edgeFilter.length * 64);
    this.rootCells = rootCells;
  }

  /** The edge filter's size in bits for a trie of {@code nodes} nodes: ~8 bits per edge. */
  private static int filterBits(int nodes) {
    int edges = Math.max(1, nodes - 1);
    int filterBits = (int) Math.min(MAX_FILTER_BITS, Long.highestOneBit(edges * 8L - 1) * 2);
    return Math.max(64, filterBits);
  }

  /** The edge filter's bit for a key: from another multiplier than {@link #home}'s. */
  private int filterBit(long key) {
    return (int) ((key * FILTER_MULTIPLIER) >>> filterShift);
  }

  /**
   * A trie from the cells and weights of another's {@link #cells()} and {@link #weights()}, as
   * {@link JiebaImage} stores them; the root's child array is derived from the cells.
   *
   * @throws IllegalArgumentException if the arrays do not form a trie of {@code nodes} nodes
   */
  static WordTrie of(long[] cells, double[] weights, int nodes) {
    checkShape(cells, weights);
    return new WordTrie(cells, weights, nodes);
  }

  private static void checkShape(long[] cells, double[] weights) {
    if (cells.length < 2
        || cells.length > MAX_SLOTS
        || Integer.bitCount(cells.length) != 1
        || (cells[ROOT] & KEY_MASK) != ROOT_KEY
        || weights.length == 0
        || weights.length > WEIGHT_MASK + 1) {
      throw new IllegalArgumentException(
          "not a trie: " + cells.length + " cells, " + weights.length + " weights");
    }
  }

  /**
   * A trie from another's {@link #cells()}, {@link #weights()}, {@link #rootCells()} and {@link
   * #edgeFilter()}, as {@link JiebaImage} stores them: the derived arrays taken as they are,
   * without the pass over every cell that makes them (~15% of the CPU before a process's first
   * fingerprint: docs/BENCHMARKS.md, the fifteenth session). The image's checksum covers them;
   * their shapes are checked here, their contents by {@link #checkInvariants} in the tests.
   *
   * @throws IllegalArgumentException if the arrays do not form a trie of {@code nodes} nodes
   */
  static WordTrie of(
      long[] cells, double[] weights, int nodes, long[] rootCells, long[] edgeFilter) {
    checkShape(cells, weights);
    if (rootCells.length != 1 << 16
        || edgeFilter.length != filterBits(nodes) >>> 6
        || nodes < 1
        || nodes * 2L > cells.length) {
      throw new IllegalArgumentException(
          "not a trie of "
              + nodes
              + " nodes: "
              + rootCells.length
              + " root cells, "
              + edgeFilter.length
              + " filter words");
    }
    return new WordTrie(cells, weights, nodes, rootCells, edgeFilter);
  }

  /** The root cells, not a copy: for {@link JiebaImage} to write, never to change. */
  long[] rootCells() {
    return rootCells;
  }

  /** The edge filter, not a copy: for {@link JiebaImage} to write, never to change. */
  long[] edgeFilter() {
    return edgeFilter;
  }

  /** The cell table itself, not a copy: for {@link JiebaImage} to write, never to change. */
  long[] cells() {
    return cells;
  }

  /** The distinct weights, not a copy: for {@link JiebaImage} to write, never to change. */
  double[] weights() {
    return weights;
  }

  private static long key(int parent, char c) {
    return ((long) parent << 16 | c) + 1;
  }

  private int home(long key) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
  }

  /** The child of {@code node} along {@code c}, or -1. */
  int child(int node, char c) {
    if (node == ROOT) {
      return rootChild(c);
    }
    long key = key(node, c);
    int bit = filterBit(key);
    if ((edgeFilter[bit >>> 6] & 1L << bit) == 0) {
      return -1; // no such edge: answered from the filter, without a miss in the cells
    }
    long[] cells = this.cells;
    int t = home(key);
    while (true) {
      long cell = cells[t];
      if ((cell & KEY_MASK) == key) {
        return t;
      }
      if (cell == 0) {
        return -1;
      }
      t = (t + 1) & mask;
    }
  }

  /** The root's child along {@code c}, or -1: one array read. */
  int rootChild(char c) {
    long cell = rootCells[c];
    return cell == 0 ? -1 : rootSlot(cell);
  }

  /**
   * The root child's cell along {@code c}, or 0 if the root has no such child: its {@link
   * #weightIndex} and {@link #hasChildren} as {@link #cell} has them, and in place of the key the
   * child's slot, {@link #rootSlot}. One read of a dense array, so a walk's first step costs no
   * read in the cells.
   */
  long rootCell(char c) {
    return rootCells[c];
  }

  /** The slot of the root child whose {@link #rootCell} this is (not 0). */
  static int rootSlot(long rootCell) {
    return (int) (rootCell & SLOT_MASK);
  }

  /** The packed cell of {@code node}, for {@link #weightIndex} and {@link #hasChildren}. */
  long cell(int node) {
    return cells[node];
  }

  /** The index of the cell's weight in {@link #weightOf}; 0 for a node that is not a word. */
  static int weightIndex(long cell) {
    return (int) (cell >>> WEIGHT_SHIFT) & WEIGHT_MASK;
  }

  static boolean hasChildren(long cell) {
    return (cell & HAS_CHILDREN) != 0;
  }

  /** The weight with this index: 0 gives {@link #NOT_A_WORD}. */
  double weightOf(int weightIndex) {
    return weights[weightIndex];
  }

  /** The weight of the word ending at {@code node}, or {@link #NOT_A_WORD} (positive). */
  double weight(int node) {
    return weights[weightIndex(cells[node])];
  }

  /** The node reached by {@code text[from, to)} from the root, or -1. */
  int find(char[] text, int from, int to) {
    int node = ROOT;
    for (int i = from; i < to && node >= 0; i++) {
      node = child(node, text[i]);
    }
    return node;
  }

  /** Whether {@code text[from, to)} is a word (a node with a weight). */
  boolean isWord(char[] text, int from, int to) {
    int node = find(text, from, to);
    return node >= 0 && weightIndex(cells[node]) != 0;
  }

  /** The number of nodes, the root included. */
  int nodeCount() {
    return nodes;
  }

  long ramBytesUsed() {
    return 64
        + 16
        + cells.length * 8L
        + 16
        + rootCells.length * 8L
        + 16
        + edgeFilter.length * 8L
        + 16
        + weights.length * 8L;
  }

  /** Checks the structural invariants and returns the longest probe sequence; for tests. */
  int checkInvariants() {
    int slots = cells.length;
    if (Integer.bitCount(slots) != 1 || nodes * 2 > slots) {
      throw new AssertionError(nodes + " nodes in " + slots + " slots");
    }
    if ((cells[ROOT] & KEY_MASK) != ROOT_KEY) {
      throw new AssertionError("slot 0 is not the root");
    }
    if (weights[0] != NOT_A_WORD) {
      throw new AssertionError("weights[0] must be NOT_A_WORD, got " + weights[0]);
    }
    for (int i = 1; i < weights.length; i++) {
      if (!(weights[i] <= 0)) {
        throw new AssertionError("weights[" + i + "] = " + weights[i]);
      }
    }
    boolean[] parents = new boolean[slots];
    int used = 1;
    int longest = 0;
    for (int t = 1; t < slots; t++) {
      long cell = cells[t];
      if (cell == 0) {
        continue;
      }
      used++;
      long k = cell & KEY_MASK;
      int parent = (int) ((k - 1) >>> 16);
      char c = (char) (k - 1);
      if (parent >= slots || (parent != ROOT && cells[parent] == 0)) {
        throw new AssertionError("slot " + t + ": parent " + parent + " is not a node");
      }
      parents[parent] = true;
      if (child(parent, c) != t) {
        throw new AssertionError("slot " + t + " is not reachable from its parent " + parent);
      }
      if (parent == ROOT && findInTable(k) != t) {
        throw new AssertionError("root child " + t + " is not in the table");
      }
      longest = Math.max(longest, ((t - home(k)) & mask) + 1);
      if (weightIndex(cell) >= weights.length) {
        throw new AssertionError("slot " + t + ": weight index " + weightIndex(cell));
      }
    }
    for (int t = 0; t < slots; t++) {
      if (cells[t] != 0 && hasChildren(cells[t]) != parents[t]) {
        throw new AssertionError("slot " + t + ": children flag " + hasChildren(cells[t]));
      }
    }
    for (int c = 0; c < rootCells.length; c++) {
      long rc = rootCells[c];
      int t = rootSlot(rc);
      if (rc != 0 && (cells[t] != ((rc & ~KEY_MASK) | key(ROOT, (char) c)))) {
        throw new AssertionError("rootCells[" + c + "] names slot " + t + " with another cell");
      }
    }
    for (int t = 1; t < slots; t++) {
      long k = cells[t] & KEY_MASK;
      if (k != 0 && (k - 1) >>> 16 == ROOT && rootCells[(char) (k - 1)] == 0) {
        throw new AssertionError("root child " + t + " has no root cell");
      }
      if (k != 0 && (k - 1) >>> 16 != ROOT) {
        int bit = filterBit(k);
        if ((edgeFilter[bit >>> 6] & 1L << bit) == 0) {
          throw new AssertionError("slot " + t + " is not in the edge filter");
        }
      }
    }
    if (used != nodes) {
      throw new AssertionError("expected " + nodes + " nodes, found " + used);
    }
    return longest;
  }

  private int findInTable(long key) {
    int t = home(key);
    while (cells[t] != 0) {
      if ((cells[t] & KEY_MASK) == key) {
        return t;
      }
      t = (t + 1) & mask;
    }
    return -1;
  }

  /**
   * Collects words, then {@link #build} lays them out. Not thread-safe; allocates freely, for load
   * time.
   */
  static final class Builder {
    /*
     * A pointer trie first: node ids 0..size-1 in creation order, children as linked lists, and an
     * open-addressing map (parent << 16 | c) + 1 -> child for insertion. Once the node count is
     * known, build() inserts the edges breadth first into a table of the final size.
     */
    private char[] label;
    private int[] firstChild;
    private int[] nextSibling;
    private int size = 1;
    private long[] edgeKeys;
    private int[] edgeNodes;
    private int edges;

    Builder() {
      this(1024);
    }

    /**
     * @param expectedNodes a guess of the final node count, to size the arrays once
     */
    Builder(int expectedNodes) {
      int n = Math.max(16, expectedNodes);
      label = new char[n];
      firstChild = new int[n];
      nextSibling = new int[n];
      int table = Integer.highestOneBit(n * 2 - 1) * 2;
      edgeKeys = new long[table];
      edgeNodes = new int[table];
      firstChild[0] = -1;
      nextSibling[0] = -1;
    }

    /** Adds {@code text[from, to)} and its prefixes; returns the node of the whole word. */
    int add(char[] text, int from, int to) {
      int node = ROOT;
      for (int i = from; i < to; i++) {
        node = childOrAdd(node, text[i]);
      }
      return node;
    }

    /** The number of nodes so far, the root included; node ids are below it. */
    int size() {
      return size;
    }

    private int childOrAdd(int parent, char c) {
      long key = ((long) parent << 16 | c) + 1;
      int mask = edgeKeys.length - 1;
      int slot = hash(key) & mask;
      while (true) {
        long k = edgeKeys[slot];
        if (k == key) {
          return edgeNodes[slot];
        }
        if (k == 0) {
          break;
        }
        slot = (slot + 1) & mask;
      }
      int node = newNode(parent, c);
      edgeKeys[slot] = key;
      edgeNodes[slot] = node;
      if (++edges * 2 > edgeKeys.length) {
        growEdges();
      }
      return node;
    }

    private int newNode(int parent, char c) {
      if (size == label.length) {
        int n = size * 2;
        label = Arrays.copyOf(label, n);
        firstChild = Arrays.copyOf(firstChild, n);
        nextSibling = Arrays.copyOf(nextSibling, n);
      }
      int node = size++;
      label[node] = c;
      firstChild[node] = -1;
      nextSibling[node] = firstChild[parent];
      firstChild[parent] = node;
      return node;
    }

    private void growEdges() {
      long[] oldKeys = edgeKeys;
      int[] oldNodes = edgeNodes;
      edgeKeys = new long[oldKeys.length * 2];
      edgeNodes = new int[oldKeys.length * 2];
      int mask = edgeKeys.length - 1;
      for (int i = 0; i < oldKeys.length; i++) {
        long key = oldKeys[i];
        if (key != 0) {
          int slot = hash(key) & mask;
          while (edgeKeys[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          edgeKeys[slot] = key;
          edgeNodes[slot] = oldNodes[i];
        }
      }
    }

    private static int hash(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }

    /**
     * Lays the trie out as a hash table.
     *
     * @param weightIndex by builder node id ({@link #add}'s result): the index in {@code weights}
     *     of the node's weight, 0 if the node is not a word; at least {@link #size()} long
     * @param weights the distinct weights: {@code weights[0]} is {@link #NOT_A_WORD}, the others
     *     are <= 0; at most 2^20 of them
     */
    WordTrie build(int[] weightIndex, double[] weights) {
      if (weightIndex.length < size) {
        throw new IllegalArgumentException(
            "weightIndex must cover all " + size + " nodes, got " + weightIndex.length);
      }
      if (weights.length == 0 || weights[0] != NOT_A_WORD || weights.length > WEIGHT_MASK + 1) {
        throw new IllegalArgumentException(
            "weights must start with NOT_A_WORD and hold at most 2^20 values, got "
                + weights.length);
      }
      for (int i = 1; i < weights.length; i++) {
        if (!(weights[i] <= 0)) {
          throw new IllegalArgumentException("weights must be <= 0, got " + weights[i]);
        }
      }
      int slots = Integer.highestOneBit(Math.max(2, size) * 2 - 1) * 2; // >= 2 * size
      if (slots > MAX_SLOTS) {
        throw new IllegalArgumentException(
            "too many trie nodes: " + size + ", at most " + MAX_SLOTS / 2 + " fit");
      }
      int shift = 64 - Integer.numberOfTrailingZeros(slots);
      int mask = slots - 1;
      long[] cells = new long[slots];
      int[] slotOf = new int[size];
      int[] queue = new int[size];
      int head = 0;
      int tail = 0;
      queue[tail++] = ROOT;
      slotOf[ROOT] = ROOT;
      cells[ROOT] = ROOT_KEY | (firstChild[ROOT] >= 0 ? HAS_CHILDREN : 0);
      // Breadth first, so a parent has its slot before its children need it in their keys.
      while (head < tail) {
        int node = queue[head++];
        for (int k = firstChild[node]; k >= 0; k = nextSibling[k]) {
          long key = key(slotOf[node], label[k]);
          int t = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
          while (cells[t] != 0) {
            t = (t + 1) & mask;
          }
          int wi = weightIndex[k];
          if (wi < 0 || wi >= weights.length) {
            throw new IllegalArgumentException("weight index of node " + k + " is " + wi);
          }
          cells[t] = key | (long) wi << WEIGHT_SHIFT | (firstChild[k] >= 0 ? HAS_CHILDREN : 0);
          slotOf[k] = t;
          queue[tail++] = k;
        }
      }
      return new WordTrie(cells, weights.clone(), size);
    }
  }
}
