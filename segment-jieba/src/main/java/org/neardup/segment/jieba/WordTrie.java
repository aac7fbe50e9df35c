package org.neardup.segment.jieba;

import java.util.Arrays;

/**
 * A set of words over UTF-16 chars, as a trie whose nodes carry the weight of the word that ends
 * there.
 *
 * <p>Immutable once built and safe to share between threads. {@link #child} is usually one 16-byte
 * read (one cache line) and allocates nothing.
 */
final class WordTrie {
  /*
   * The trie's edges live in one open-addressing hash table with linear probing, and a node's id
   * is the slot of the edge that leads to it, so finding a child and reading its weight is one
   * probe sequence in one array. Slot 0 is the root; its key can match no edge.
   *
   * Layout: cells[2t] = the key of the edge into node t, (parent << 16 | c) + 1, or 0 for an empty
   * slot; cells[2t + 1] = the raw bits of weight(t). A slot's key and weight share one 16-byte
   * pair, so a step down the trie touches one cache line.
   *
   * Invariants: the table is a power of two long and at most half full (expected probes: 1.5 for a
   * hit, 2.5 for a miss); every used slot is reachable from its parent by child(); weight(t) <= 0
   * for a word and NOT_A_WORD (+1) for a node that is only a prefix.
   *
   * A double-array trie (one base + check read per step, no probing) was tried first: with
   * jieba's 498,113 nodes and Han children spread over 20,000 code points, its first-fit layout
   * took 90 s to build. This table builds in linear time.
   */
  static final int ROOT = 0;
  static final double NOT_A_WORD = 1.0;
  private static final long ROOT_KEY = -1;

  private final long[] cells;
  private final int mask;
  private final int shift;
  private final int nodes;

  private WordTrie(long[] cells, int nodes) {
    this.cells = cells;
    this.mask = (cells.length >> 1) - 1;
    this.shift = 64 - Integer.numberOfTrailingZeros(cells.length >> 1);
    this.nodes = nodes;
  }

  private static long key(int parent, char c) {
    return ((long) parent << 16 | c) + 1;
  }

  /** The child of {@code node} along {@code c}, or -1. */
  int child(int node, char c) {
    long key = key(node, c);
    long[] cells = this.cells;
    int t = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    while (true) {
      long k = cells[t << 1];
      if (k == key) {
        return t;
      }
      if (k == 0) {
        return -1;
      }
      t = (t + 1) & mask;
    }
  }

  /** The weight of the word ending at {@code node}, or {@link #NOT_A_WORD} (positive). */
  double weight(int node) {
    return Double.longBitsToDouble(cells[(node << 1) + 1]);
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
    return node >= 0 && weight(node) <= 0;
  }

  /** The number of nodes, the root included. */
  int nodeCount() {
    return nodes;
  }

  long ramBytesUsed() {
    return 40 + 16 + cells.length * 8L;
  }

  /** Checks the structural invariants and returns the longest probe sequence; for tests. */
  int checkInvariants() {
    int slots = cells.length >> 1;
    if (Integer.bitCount(slots) != 1 || nodes * 2 > slots) {
      throw new AssertionError(nodes + " nodes in " + slots + " slots");
    }
    if (cells[0] != ROOT_KEY) {
      throw new AssertionError("slot 0 is not the root");
    }
    int used = 1;
    int longest = 0;
    for (int t = 1; t < slots; t++) {
      long k = cells[t << 1];
      if (k == 0) {
        continue;
      }
      used++;
      int parent = (int) ((k - 1) >>> 16);
      char c = (char) (k - 1);
      if (parent >= slots || (parent != ROOT && cells[parent << 1] == 0)) {
        throw new AssertionError("slot " + t + ": parent " + parent + " is not a node");
      }
      if (child(parent, c) != t) {
        throw new AssertionError("slot " + t + " is not reachable from its parent " + parent);
      }
      int home = (int) ((k * 0x9E3779B97F4A7C15L) >>> shift);
      longest = Math.max(longest, ((t - home) & mask) + 1);
      double w = weight(t);
      if (!(w <= 0 || w == NOT_A_WORD)) {
        throw new AssertionError("slot " + t + ": weight " + w);
      }
    }
    if (used != nodes) {
      throw new AssertionError("expected " + nodes + " nodes, found " + used);
    }
    return longest;
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
    private char[] label = new char[1024];
    private int[] firstChild = new int[1024];
    private int[] nextSibling = new int[1024];
    private int size = 1;
    private long[] edgeKeys = new long[2048];
    private int[] edgeNodes = new int[2048];
    private int edges;

    Builder() {
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
     * @param weights by builder node id ({@link #add}'s result): the word's weight (<= 0), or
     *     {@link #NOT_A_WORD}; at least {@link #size()} long
     */
    WordTrie build(double[] weights) {
      if (weights.length < size) {
        throw new IllegalArgumentException(
            "weights must cover all " + size + " nodes, got " + weights.length);
      }
      int slots = Integer.highestOneBit(Math.max(2, size) * 2 - 1) * 2; // >= 2 * size
      if (slots > 1 << 24) {
        throw new IllegalArgumentException("too many trie nodes: " + size);
      }
      int shift = 64 - Integer.numberOfTrailingZeros(slots);
      int mask = slots - 1;
      long[] cells = new long[slots * 2];
      cells[0] = ROOT_KEY;
      cells[1] = Double.doubleToRawLongBits(weights[ROOT]);
      int[] slotOf = new int[size];
      int[] queue = new int[size];
      int head = 0;
      int tail = 0;
      queue[tail++] = ROOT;
      slotOf[ROOT] = ROOT;
      // Breadth first, so a parent has its slot before its children need it in their keys.
      while (head < tail) {
        int node = queue[head++];
        for (int k = firstChild[node]; k >= 0; k = nextSibling[k]) {
          long key = key(slotOf[node], label[k]);
          int t = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
          while (cells[t << 1] != 0) {
            t = (t + 1) & mask;
          }
          double w = weights[k];
          if (!(w <= 0 || w == NOT_A_WORD)) {
            throw new IllegalArgumentException("weight of node " + k + " must be <= 0, got " + w);
          }
          cells[t << 1] = key;
          cells[(t << 1) + 1] = Double.doubleToRawLongBits(w);
          slotOf[k] = t;
          queue[tail++] = k;
        }
      }
      return new WordTrie(cells, size);
    }
  }
}
