// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

/**
 * The sizes a collection's keys are laid out with, fixed when the collection is created and kept in
 * its {@code meta}: {@code idBits}, the bits of the id index's bucket number (2^idBits hashes of
 * ids), and {@code blockBits}, the bits of a block's value a block key is named by (2^blockBits
 * keys per block; the block's other bits go into the entries, see {@link BlockEntries}), and {@code
 * bandBits}, the bits of a MinHash band key its band bucket is named by (2^bandBits buckets, see
 * {@link BandEntries}). Immutable.
 *
 * @param idBits the id index's bucket bits, in [{@value Keys#MIN_ID_BITS}, {@value
 *     Keys#MAX_ID_BITS}]
 * @param blockBits the block key bits, in [{@value #MIN_BLOCK_BITS}, {@value #MAX_BLOCK_BITS}]
 * @param bandBits the band bucket bits, in [{@value #MIN_BAND_BITS}, {@value #MAX_BAND_BITS}]
 */
record Layout(int idBits, int blockBits, int bandBits) {
  /*
   * Why sized per collection (issue 15, memory): a Redis key costs ~90 B before its value (dict
   * entry, key name, object header, allocation rounding). With 16-bit block keys the 4:1 scheme has
   * 4 x 65,536 block keys whatever the size: 23.6 B per document at 1M, 2.4 B at 10M. With fewer
   * bits a key holds more entries: its fixed cost spreads over more documents, and a check reads
   * more entries per key (all of them pass the same popcount filter, so only the bytes read grow).
   * forDocuments aims at 32-64 entries per block key (the 16-bit keys hold ~15 at 1M, ~150 at 10M)
   * and 48-96 ids per id bucket (Redis keeps a hash compact up to 128 fields by default, so a
   * collection may grow 1.3-2.6x past its expected size before its id buckets turn into tables).
   *
   * Why not 24-48 ids (issue 15, tried and measured): a commit claims its id with HSETNX, which
   * scans the bucket's listpack twice (exists, then set). A captured run of 20,000 verified singles
   * replayed under callgrind with its id buckets rewritten to ~39 ids each instead of ~78: HSETNX
   * 10,511 -> 6,386 instructions per document, ~1.8% of the commit's redis-server instructions, not
   * seen in live runs; but 200,000 fingerprint-only documents took 17.8 B per document in id buckets
   * instead of 16.1 (MEMORY USAGE), past the 100 B per document such a collection must stay under.
   */

  /** The fewest block key bits: 256 keys per block. */
  static final int MIN_BLOCK_BITS = 8;

  /** The most block key bits: a key per value of a 16-bit block (the seeds' layout). */
  static final int MAX_BLOCK_BITS = 16;

  /** The fewest band bucket bits. */
  static final int MIN_BAND_BITS = 8;

  /** The most band bucket bits (bucket keys end in 3 bytes of the number). */
  static final int MAX_BAND_BITS = 22;

  /** The band bucket bits of collections created without a size. */
  static final int DEFAULT_BAND_BITS = 16;

  /**
   * The layout of collections created without a size: 2^16 id buckets, 16-bit block keys, 2^16 band
   * buckets.
   */
  static final Layout DEFAULT = new Layout(Keys.DEFAULT_ID_BITS, MAX_BLOCK_BITS, DEFAULT_BAND_BITS);

  /** Band entries per band bucket {@link #forDocuments} aims at, at the expected size. */
  static final int ENTRIES_PER_BAND_KEY = 64;

  /**
   * Band keys per document {@link #forDocuments} sizes for: the default band scheme's 6 (a
   * fingerprint-only collection writes none, and its band buckets cost nothing).
   */
  static final int BANDS_PER_DOCUMENT = 6;

  /** Entries per block key {@link #forDocuments} aims at, at the expected size. */
  static final int ENTRIES_PER_BLOCK_KEY = 64;

  /** Ids per id bucket {@link #forDocuments} aims at, at the expected size. */
  static final int IDS_PER_BUCKET = 96;

  Layout {
    if (idBits < Keys.MIN_ID_BITS || idBits > Keys.MAX_ID_BITS) {
      throw new IllegalArgumentException(
          "id-bucket-bits must be in ["
              + Keys.MIN_ID_BITS
              + ", "
              + Keys.MAX_ID_BITS
              + "] (2^bits buckets of the id index, ~128 ids each), got "
              + idBits);
    }
    if (blockBits < MIN_BLOCK_BITS || blockBits > MAX_BLOCK_BITS) {
      throw new IllegalArgumentException(
          "block-key-bits must be in ["
              + MIN_BLOCK_BITS
              + ", "
              + MAX_BLOCK_BITS
              + "] (2^bits block keys per block), got "
              + blockBits);
    }
    if (bandBits < MIN_BAND_BITS || bandBits > MAX_BAND_BITS) {
      throw new IllegalArgumentException(
          "band-key-bits must be in ["
              + MIN_BAND_BITS
              + ", "
              + MAX_BAND_BITS
              + "] (2^bits band buckets), got "
              + bandBits);
    }
  }

  /**
   * The layout for a collection expected to hold about {@code documents} documents: the fewest bits
   * that keep block keys at up to {@value #ENTRIES_PER_BLOCK_KEY} entries and id buckets at up to
   * {@value #IDS_PER_BUCKET} ids and band buckets at up to {@value #ENTRIES_PER_BAND_KEY} entries
   * ({@value #BANDS_PER_DOCUMENT} per document), within the ranges. 1M documents: 14 block key bits
   * (61 entries per key), 14 id bits (61 ids per bucket), 17 band bits (46 entries per bucket);
   * 10M: 16 (152 entries per key), 17 (76 ids) and 20 (57 entries).
   *
   * @throws IllegalArgumentException if {@code documents} is not positive
   */
  static Layout forDocuments(long documents) {
    if (documents <= 0) {
      throw new IllegalArgumentException(
          "expected-documents must be a positive number, got " + documents);
    }
    int blockBits = bitsFor(documents, ENTRIES_PER_BLOCK_KEY);
    int idBits = bitsFor(documents, IDS_PER_BUCKET);
    long bandEntries =
        documents > Long.MAX_VALUE / BANDS_PER_DOCUMENT
            ? Long.MAX_VALUE
            : documents * BANDS_PER_DOCUMENT;
    int bandBits = bitsFor(bandEntries, ENTRIES_PER_BAND_KEY);
    return new Layout(
        Math.max(Keys.MIN_ID_BITS, Math.min(Keys.MAX_ID_BITS, idBits)),
        Math.max(MIN_BLOCK_BITS, Math.min(MAX_BLOCK_BITS, blockBits)),
        Math.max(MIN_BAND_BITS, Math.min(MAX_BAND_BITS, bandBits)));
  }

  /** The fewest bits b with {@code items / 2^b <= perBucket}. */
  private static int bitsFor(long items, int perBucket) {
    items = Math.min(items, 1L << 56); // far above every range: no overflow below
    long buckets = (items + perBucket - 1) / perBucket;
    return 64 - Long.numberOfLeadingZeros(Math.max(1, buckets - 1));
  }

  /**
   * The first line of a collection's {@code meta}, the layout's version and sizes: version 4, band
   * keys in band buckets ({@link BandEntries}). Versions 2 and 3 (a set per band key) are refused
   * with how to move such a collection, as earlier builds refuse version 4.
   */
  String metaLine() {
    return V4
        + "id-bucket-bits="
        + idBits
        + " block-key-bits="
        + blockBits
        + " band-key-bits="
        + bandBits;
  }

  /** Layouts with a set per band key: 16-bit block keys (2) or fewer bits (3). */
  static final String V2 = "neardup-redis-layout 2 ";

  static final String V3 = "neardup-redis-layout 3 ";

  static final String V4 = "neardup-redis-layout 4 ";

  /**
   * The layout a {@link #metaLine} names, or null when the line is not one (an earlier build's
   * collection, or a version 2 or 3 one: {@link #isSetsLayout}).
   */
  static @org.jspecify.annotations.Nullable Layout parse(String line) {
    if (!line.startsWith(V4)) {
      return null;
    }
    int idBits = -1;
    int blockBits = -1;
    int bandBits = -1;
    for (String field : line.substring(V4.length()).trim().split(" ")) {
      int eq = field.indexOf('=');
      if (eq < 0) {
        return null;
      }
      String key = field.substring(0, eq);
      int value;
      try {
        value = Integer.parseInt(field.substring(eq + 1));
      } catch (NumberFormatException e) {
        return null;
      }
      switch (key) {
        case "id-bucket-bits" -> idBits = value;
        case "block-key-bits" -> blockBits = value;
        case "band-key-bits" -> bandBits = value;
        default -> {
          return null;
        }
      }
    }
    if (idBits < 0 || blockBits < 0 || bandBits < 0) {
      return null;
    }
    return new Layout(idBits, blockBits, bandBits);
  }

  /** Whether a meta line names layout 2 or 3, which kept a Redis set per band key. */
  static boolean isSetsLayout(String line) {
    return line.startsWith(V2) || line.startsWith(V3);
  }
}
