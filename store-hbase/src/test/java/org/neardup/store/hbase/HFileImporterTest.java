// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;
import org.neardup.testkit.Texts;

/**
 * A collection imported with {@code import=hfiles} holds exactly the rows the puts' import writes
 * (keys, qualifiers, values; TTLs checked by expiry in the features tests) and answers exactly as
 * the collection built by inserts it was exported from, checks and then new inserts alike (the 5:2
 * import with its index rows by rank, as imports too large to carry them); a dump with an id twice
 * is refused with nothing left behind. Against a real in-process HBase with HDFS.
 */
@ExtendWith(MiniHBase.class)
class HFileImporterTest {

  private static HBaseStore hbase(String prefix, String scheme, boolean hfiles) throws IOException {
    return hbase(prefix, scheme, hfiles, Map.of());
  }

  /** With {@code more} options, such as another table prefix and its index family's settings. */
  private static HBaseStore hbase(
      String prefix, String scheme, boolean hfiles, Map<String, String> more) throws IOException {
    Map<String, String> o = new HashMap<>(more);
    o.put("prefix", prefix);
    o.put("scheme", scheme);
    if (hfiles) {
      o.put("import", "hfiles");
      o.put("bulk-dir", "/tmp/bulk-" + prefix);
    }
    return (HBaseStore)
        HBaseStoreProvider.open(MiniHBase.conf(), StoreConfig.of(o), "mini-cluster");
  }

  private static List<StoredRecord> export(FingerprintStore s, String name) throws IOException {
    List<StoredRecord> out = new ArrayList<>();
    CollectionTransfer.of(s).export(name, out::add);
    return out;
  }

  private static void load(
      FingerprintStore s, String name, CollectionSettings settings, List<StoredRecord> records)
      throws IOException {
    load(s, name, settings, records, false);
  }

  /**
   * With {@code atDocuments}, an HFile import's index rows go the way of large imports (read at
   * their documents).
   */
  private static void load(
      FingerprintStore s,
      String name,
      CollectionSettings settings,
      List<StoredRecord> records,
      boolean atDocuments)
      throws IOException {
    try (CollectionTransfer.Importer in =
        CollectionTransfer.of(s)
            .importer(name, settings, settings.deduplicator().analyzer().id())) {
      if (atDocuments && in instanceof HFileImporter h) {
        h.carryLimit(0);
      }
      for (StoredRecord r : records) {
        in.add(r);
      }
      in.finish();
    }
  }

  /** The collection's cells, uid cut out of the keys: row suffix / qualifier to value. */
  private static TreeMap<String, String> cells(HBaseStore s, String name) throws IOException {
    int uid = ((HBaseCollection) s.collection(name)).uid;
    byte[] u = Rows.uidPrefix(uid);
    TreeMap<String, String> out = new TreeMap<>();
    for (TableName table : List.of(s.docs, s.index)) {
      try (Table t = s.connection().getTable(table);
          ResultScanner rs = t.getScanner(new Scan())) {
        for (Result r : rs) {
          byte[] row = r.getRow();
          // docs rows start with the uid; index rows have it after block value and flag.
          int at = table.equals(s.docs) ? 0 : Rows.KEY_BYTES + 1;
          if (row.length < at + 4 || !Bytes.equals(row, at, 4, u, 0, 4)) {
            continue;
          }
          String key =
              table.getQualifierAsString()
                  + ":"
                  + Bytes.toStringBinary(row, 0, at)
                  + Bytes.toStringBinary(row, at + 4, row.length - at - 4);
          for (Cell c : r.rawCells()) {
            out.put(
                key + "/" + Bytes.toStringBinary(CellUtil.cloneQualifier(c)),
                Bytes.toStringBinary(CellUtil.cloneValue(c)));
          }
        }
      }
    }
    return out;
  }

  private static String answer(Outcome o) {
    return o.status() + " new=" + o.isNew() + " cluster=" + o.cluster() + " " + o.matches();
  }

  @Test
  void verifiedWithRetention_sameRowsAsPuts_sameAnswersAsInserts() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withRetention(Duration.ofDays(30));
    SplittableRandom r = new SplittableRandom(11);
    List<String> probes = new ArrayList<>();
    try (HBaseStore built = hbase("ins", "4:1", false);
        HBaseStore puts = hbase("put", "4:1", false);
        HBaseStore bulk = hbase("hf", "4:1", true)) {
      Collection c = built.create("news", settings);
      List<Document> docs = new ArrayList<>();
      long now = System.currentTimeMillis();
      for (int g = 0; g < 80; g++) {
        String base = Texts.text(r, 40);
        probes.add(Texts.edit(r, base));
        for (int i = 0, copies = 1 + r.nextInt(4); i < copies; i++) {
          long ts = r.nextInt(3) == 0 ? now - r.nextInt(1_000_000) : Document.NO_TIMESTAMP;
          docs.add(
              new Document(
                  "doc-" + r.nextInt(1_000_000) + "-" + g + "-" + i,
                  c.analyzer().analyze(i == 0 ? base : Texts.edit(r, base)),
                  ts));
        }
      }
      c.checkAndInsertAll(docs);
      for (int i = 0; i < docs.size(); i += 9) {
        c.delete(docs.get(i).id()); // some clusters lose their root
      }
      List<StoredRecord> records = export(built, "news");
      assertThat(records.stream().filter(x -> !x.isRoot()).count()).isGreaterThan(40);
      load(puts, "news", settings, records);
      load(bulk, "news", settings, records);

      assertThat(export(bulk, "news")).isEqualTo(records);
      TreeMap<String, String> viaPuts = cells(puts, "news");
      assertThat(viaPuts).hasSizeGreaterThan(records.size() * 8);
      assertThat(cells(bulk, "news")).isEqualTo(viaPuts);

      Collection a = c;
      Collection b = bulk.collection("news");
      assertThat(b.stats().documents()).isEqualTo(records.size());
      for (Document d : docs) {
        assertThat(b.get(d.id())).as(d.id()).isEqualTo(a.get(d.id()));
      }
      for (int i = 0; i < probes.size(); i++) {
        Analysis p = a.analyzer().analyze(probes.get(i));
        assertThat(answer(b.check(p))).isEqualTo(answer(a.check(p)));
        if (i % 3 == 0) {
          Document d = new Document("new-" + i, p);
          assertThat(answer(b.checkAndInsert(d))).isEqualTo(answer(a.checkAndInsert(d)));
        }
      }
    }
  }

  @Test
  void fingerprints52_sameRowsAsPuts_sameAnswersAsInserts() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    SplittableRandom r = new SplittableRandom(5);
    try (HBaseStore built = hbase("ins52", "5:2", false);
        HBaseStore puts = hbase("put52", "5:2", false);
        HBaseStore bulk = hbase("hf52", "5:2", true)) {
      Collection c = built.create("fp", settings);
      List<Document> docs = new ArrayList<>();
      long[] fps = new long[600];
      for (int i = 0; i < fps.length; i++) {
        long fp = r.nextLong();
        if (i % 4 == 3) {
          fp = fps[r.nextInt(i)];
          for (int b = r.nextInt(4); b > 0; b--) {
            fp ^= 1L << r.nextInt(64);
          }
        }
        fps[i] = fp;
        docs.add(new Document(Long.toHexString(r.nextLong()), Analysis.ofFingerprint(fp, 100)));
      }
      for (int i = 0; i < docs.size(); i += 300) {
        c.checkAndInsertAll(docs.subList(i, i + 300));
      }
      List<StoredRecord> records = export(built, "fp");
      load(puts, "fp", settings, records);
      load(bulk, "fp", settings, records, true);
      assertThat(((HBaseCollection) bulk.collection("fp")).scheme().toString()).isEqualTo("5:2");
      assertThat(cells(bulk, "fp")).isEqualTo(cells(puts, "fp"));

      Collection b = bulk.collection("fp");
      for (int i = 0; i < 60; i++) {
        long q = fps[r.nextInt(fps.length)];
        for (int k = r.nextInt(5); k > 0; k--) {
          q ^= 1L << r.nextInt(64); // 0 to 4 bits away: inside and just outside k = 3
        }
        Analysis p = Analysis.ofFingerprint(q, 100);
        assertThat(answer(b.check(p))).as("query %s", q).isEqualTo(answer(c.check(p)));
      }
      Document d = new Document("late", Analysis.ofFingerprint(fps[3] ^ 1, 100));
      assertThat(answer(b.checkAndInsert(d))).isEqualTo(answer(c.checkAndInsert(d)));
    }
  }

  @Test
  void idTwice_refused_nothingLeft() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    List<StoredRecord> records = fingerprintRecords(50);
    StoredRecord r40 = records.get(40);
    records.set(
        40,
        new StoredRecord(
            40, "d7", r40.fingerprint(), 1, Long.MAX_VALUE, 40, "d7", new long[0], new byte[0]));
    try (HBaseStore bulk = hbase("dup", "4:1", true)) {
      assertThatThrownBy(() -> load(bulk, "fp", settings, records))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("id 'd7' twice");
      nothingLeft_thenLoads(bulk, "/tmp/bulk-dup", settings, records.subList(0, 40));
    }
  }

  /** Records 0 to n - 1 of a fingerprints-only dump: ids d0, d1, ...; fingerprints i * 0x9E37... */
  private static List<StoredRecord> fingerprintRecords(int n) {
    List<StoredRecord> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "d" + i;
      records.add(
          new StoredRecord(
              i, id, i * 0x9E3779B97F4A7C15L, 1, Long.MAX_VALUE, i, id, new long[0], new byte[0]));
    }
    return records;
  }

  /**
   * After a refused or failed import: no collection, no staged file; then the same store imports
   * {@code records} (which hold d7) and answers from them.
   */
  private static void nothingLeft_thenLoads(
      HBaseStore bulk, String staged, CollectionSettings settings, List<StoredRecord> records)
      throws IOException {
    assertThat(bulk.collections()).isEmpty();
    FileSystem fs = FileSystem.get(MiniHBase.conf());
    Path dir = new Path(staged);
    assertThat(fs.exists(dir) ? fs.listStatus(dir) : new Object[0]).isEmpty();
    load(bulk, "fp", settings, records);
    assertThat(bulk.collection("fp").stats().documents()).isEqualTo(records.size());
    assertThat(bulk.collection("fp").get("d7").orElseThrow().fingerprint())
        .isEqualTo(7 * 0x9E3779B97F4A7C15L);
  }

  /**
   * A failed index job fails the import at once with its own failure, nothing left behind.
   * Regression: when the index job failed (in a 10M import, most likely out of heap) as the loader
   * began loading the documents' files, the loader's interrupt was swallowed by HBase's client and
   * it waited for ever for the index's files; finish() waited 5 minutes for it, threw "did not
   * stop" in place of the failure, and the run sat in close()'s purge of 10M documents.
   */
  @Test
  void indexJobFails_itsFailureThrownAtOnce_nothingLeft() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    List<StoredRecord> records = fingerprintRecords(50);
    try (HBaseStore bulk = hbase("indexfails", "4:1", true)) {
      long t0 = System.nanoTime();
      assertThatThrownBy(
              () -> {
                try (CollectionTransfer.Importer in =
                    CollectionTransfer.of(bulk)
                        .importer("fp", settings, settings.deduplicator().analyzer().id())) {
                  ((HFileImporter) in).failIndexWith(new IllegalStateException("index job failed"));
                  for (StoredRecord r : records) {
                    in.add(r);
                  }
                  in.finish();
                }
              })
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("index job failed");
      // Far under the 5 minutes finish() waited for the loader before.
      assertThat((System.nanoTime() - t0) / 1e9).isLessThan(120);
      nothingLeft_thenLoads(bulk, "/tmp/bulk-indexfails", settings, records);
    }
  }

  /**
   * A drop deletes every row of the collection in both tables: the purge sends the index cells of
   * each 1,000 document-table rows in one call, then the rows (2,500 documents: several slices),
   * with up to {@link Purge#IN_FLIGHT} slices under way at once.
   */
  @Test
  void drop_after2500Imported_noRowLeftInEitherTable() throws IOException {
    dropAfter2500Imported("dropall", Purge.IN_FLIGHT);
  }

  /** The same with one slice of the purge at a time: its order, cells then rows, alone. */
  @Test
  void drop_oneSliceAtATime_noRowLeftInEitherTable() throws IOException {
    dropAfter2500Imported("dropone", 1);
  }

  /**
   * Imports 2,500 documents, drops their collection with {@code inFlight} slices of the purge under
   * way at once (2,500 documents are ~5 slices), and finds no row of its uid in either table and
   * every document counted as purged.
   */
  private void dropAfter2500Imported(String prefix, int inFlight) throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    List<StoredRecord> records = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 2500; i++) {
      String id = "d" + i;
      records.add(
          new StoredRecord(
              i, id, r.nextLong(), 1, Long.MAX_VALUE, i, id, new long[0], new byte[0]));
    }
    try (HBaseStore bulk = hbase(prefix, "4:1", true)) {
      bulk.purgeInFlight = inFlight;
      load(bulk, "fp", settings, records);
      int uid = ((HBaseCollection) bulk.collection("fp")).uid;
      assertThat(rows(bulk, bulk.index, uid, Rows.KEY_BYTES + 1)).isEqualTo(4 * 2500);
      assertThat(rows(bulk, bulk.docs, uid, 0)).isGreaterThanOrEqualTo(2 * 2500);
      assertThat(bulk.drop("fp")).isTrue();
      assertThat(rows(bulk, bulk.index, uid, Rows.KEY_BYTES + 1)).isZero();
      assertThat(rows(bulk, bulk.docs, uid, 0)).isZero();
      assertThat(bulk.metrics().get("hbase_purged_documents").longValue()).isEqualTo(2500);
    }
  }

  /** The table's rows of collection {@code uid}, whose key holds it at {@code offset}. */
  private static long rows(HBaseStore s, TableName table, int uid, int offset) throws IOException {
    long n = 0;
    try (Table t = s.connection().getTable(table);
        ResultScanner rs = t.getScanner(new Scan())) {
      for (Result r : rs) {
        byte[] row = r.getRow();
        if (row.length >= offset + 4 && Bytes.toInt(row, offset) == uid) {
          n++;
        }
      }
    }
    return n;
  }

  /**
   * The index family's blocks are 8 KiB (a check's seeks walk a block from its start), and the
   * imported files follow each family's block size, so loaded and flushed files read alike.
   */
  @Test
  void hfiles_blocksOfTheFamiliesSize() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    List<StoredRecord> records = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      String id = "b" + i;
      records.add(
          new StoredRecord(
              i, id, i * 0x9E3779B97F4A7C15L, 1, Long.MAX_VALUE, i, id, new long[0], new byte[0]));
    }
    try (HBaseStore bulk = hbase("blk", "4:1", true)) {
      load(bulk, "fp", settings, records);
      assertThat(familyBlockSize(bulk.index, HBaseStore.INDEX_FAMILY))
          .isEqualTo(IndexFamily.DEFAULT_INDEX_BLOCK_BYTES);
      assertThat(familyBlockSize(bulk.docs, HBaseStore.DOC_FAMILY))
          .isEqualTo(IndexFamily.DEFAULT_BLOCK_BYTES);
      // A block closes after the cell that passes the size (one cell over), and a small file's
      // Bloom chunk sits among its data blocks.
      assertThat(meanDataBlockBytes(bulk.index))
          .allSatisfy(b -> assertThat(b).isLessThan(IndexFamily.DEFAULT_INDEX_BLOCK_BYTES + 2048));
      assertThat(meanDataBlockBytes(bulk.docs))
          .anySatisfy(
              b -> assertThat(b).isGreaterThan(IndexFamily.DEFAULT_INDEX_BLOCK_BYTES + 2048));
      assertThat(bulk.collection("fp").stats().documents()).isEqualTo(2_000);
    }
  }

  /**
   * With {@code index-encoding=ROW_INDEX_V1} the index's imported files are written in it (a loaded
   * file has its in-block binary search at once, as the region server's flushes will), the family
   * has the options' Bloom filter on the rows' 10-byte prefix, and checks through them answer as
   * the default family's do.
   */
  @Test
  void hfiles_indexInRowIndexEncoding_filesEncoded_sameAnswers() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON);
    SplittableRandom r = new SplittableRandom(23);
    Map<String, String> family =
        Map.of(
            "table-prefix", "rowidx",
            "index-encoding", "row_index_v1",
            "index-bloom", "ROWPREFIX_FIXED_LENGTH");
    try (HBaseStore built = hbase("ri-ins", "4:1", false);
        HBaseStore bulk = hbase("ri-hf", "4:1", true, family)) {
      Collection c = built.create("news", settings);
      List<Document> docs = new ArrayList<>();
      List<String> probes = new ArrayList<>();
      for (int g = 0; g < 60; g++) {
        String base = Texts.text(r, 40);
        probes.add(Texts.edit(r, base));
        for (int i = 0, copies = 1 + r.nextInt(3); i < copies; i++) {
          docs.add(
              new Document(
                  "ri-" + g + "-" + i,
                  c.analyzer().analyze(i == 0 ? base : Texts.edit(r, base)),
                  Document.NO_TIMESTAMP));
        }
      }
      c.checkAndInsertAll(docs);
      load(bulk, "news", settings, export(built, "news"));

      ColumnFamilyDescriptor f;
      try (Connection conn = ConnectionFactory.createConnection(MiniHBase.conf());
          Table t = conn.getTable(bulk.index)) {
        f = t.getDescriptor().getColumnFamily(HBaseStore.INDEX_FAMILY);
      }
      assertThat(f.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
      assertThat(f.getBloomFilterType()).isEqualTo(BloomType.ROWPREFIX_FIXED_LENGTH);
      assertThat(f.getConfigurationValue(BloomFilterUtil.PREFIX_LENGTH_KEY))
          .isEqualTo(Integer.toString(Rows.PREFIX_BYTES));
      assertThat(fileEncodings(bulk.index)).containsOnly(DataBlockEncoding.ROW_INDEX_V1);

      Collection b = bulk.collection("news");
      for (int i = 0; i < probes.size(); i++) {
        Analysis p = c.analyzer().analyze(probes.get(i));
        assertThat(answer(b.check(p))).as(probes.get(i)).isEqualTo(answer(c.check(p)));
        if (i % 4 == 0) {
          Document d = new Document("ri-new-" + i, p);
          assertThat(answer(b.checkAndInsert(d))).isEqualTo(answer(c.checkAndInsert(d)));
        }
      }
    }
  }

  /**
   * With {@code import-encoding=family} both tables' imported files are in their families'
   * FAST_DIFF encoding, and a collection imported in two parts (two importers of one unregistered
   * collection, the second with the later ordinals, then completed once, as HBaseStoreBench builds
   * 10M) holds exactly the puts' import's rows and answers as the collection built by inserts.
   */
  @Test
  void hfiles_familyEncodingInTwoParts_filesEncoded_sameRowsAsPuts_sameAnswers()
      throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withRetention(Duration.ofDays(30));
    SplittableRandom r = new SplittableRandom(31);
    Map<String, String> encoded = Map.of("table-prefix", "encfam", "import-encoding", "family");
    // The puts' collection in the same tables (cells() names them), under a prefix of its own.
    try (HBaseStore built = hbase("ef-ins", "4:1", false);
        HBaseStore puts = hbase("ef-put", "4:1", false, Map.of("table-prefix", "encfam"));
        HBaseStore bulk = hbase("ef-hf", "4:1", true, encoded)) {
      Collection c = built.create("news", settings);
      List<Document> docs = new ArrayList<>();
      List<String> probes = new ArrayList<>();
      for (int g = 0; g < 70; g++) {
        String base = Texts.text(r, 40);
        probes.add(Texts.edit(r, base));
        for (int i = 0, copies = 1 + r.nextInt(4); i < copies; i++) {
          docs.add(
              new Document(
                  "ef-" + g + "-" + i,
                  c.analyzer().analyze(i == 0 ? base : Texts.edit(r, base)),
                  Document.NO_TIMESTAMP));
        }
      }
      // Clusters interleaved, so that the second part holds members of the first part's roots.
      java.util.Collections.shuffle(docs, new java.util.Random(5));
      c.checkAndInsertAll(docs);
      for (int i = 0; i < docs.size(); i += 11) {
        c.delete(docs.get(i).id()); // some clusters lose their root
      }
      List<StoredRecord> records = export(built, "news");
      load(puts, "news", settings, records);

      // No compaction may rewrite the imported files (in the family's encoding whatever they were)
      // before their encodings are read.
      try (Connection conn = ConnectionFactory.createConnection(MiniHBase.conf());
          Admin admin = conn.getAdmin()) {
        for (TableName t : List.of(bulk.index, bulk.docs)) {
          admin.modifyTable(
              TableDescriptorBuilder.newBuilder(admin.getDescriptor(t))
                  .setCompactionEnabled(false)
                  .build());
        }
      }
      HBaseCollection part = bulk.unregistered("news", settings);
      int half = records.size() / 2;
      for (List<StoredRecord> chunk :
          List.of(records.subList(0, half), records.subList(half, records.size()))) {
        try (HFileImporter in =
            new HFileImporter(
                bulk, part, settings.deduplicator().analyzer(), bulk.bulkDir, false)) {
          for (StoredRecord x : chunk) {
            in.add(x);
          }
          in.finish();
        }
        assertThat(bulk.collection("news")).as("registered before the last part").isNull();
      }
      HBaseTransfer.complete(bulk, part, records.get(records.size() - 1).ordinal(), records.size());

      assertThat(fileEncodings(bulk.index)).containsOnly(DataBlockEncoding.FAST_DIFF);
      assertThat(fileEncodings(bulk.docs)).containsOnly(DataBlockEncoding.FAST_DIFF);
      assertThat(export(bulk, "news")).isEqualTo(records);
      assertThat(cells(bulk, "news")).isEqualTo(cells(puts, "news"));
      Collection b = bulk.collection("news");
      assertThat(b.stats().documents()).isEqualTo(records.size());
      for (int i = 0; i < probes.size(); i++) {
        Analysis p = c.analyzer().analyze(probes.get(i));
        assertThat(answer(b.check(p))).as(probes.get(i)).isEqualTo(answer(c.check(p)));
        if (i % 3 == 0) {
          Document d = new Document("ef-new-" + i, p);
          assertThat(answer(b.checkAndInsert(d))).isEqualTo(answer(c.checkAndInsert(d)));
        }
      }
    }
  }

  /** The data block encoding of each store file of the table. */
  private static List<DataBlockEncoding> fileEncodings(TableName table) throws IOException {
    List<DataBlockEncoding> out = new ArrayList<>();
    forEachStoreFile(table, r -> out.add(r.getDataBlockEncoding()));
    assertThat(out).as("store files of %s", table).isNotEmpty();
    return out;
  }

  private static int familyBlockSize(TableName table, byte[] family) throws IOException {
    try (Connection c = ConnectionFactory.createConnection(MiniHBase.conf());
        Table t = c.getTable(table)) {
      return t.getDescriptor().getColumnFamily(family).getBlocksize();
    }
  }

  /**
   * The mean bytes of a data block in each store file of the table that has a one-level block index
   * (a file does not record the block size it was written with; its data section's length over its
   * data blocks shows it: blocks end at the first cell past the size).
   */
  private static List<Long> meanDataBlockBytes(TableName table) throws IOException {
    List<Long> out = new ArrayList<>();
    forEachStoreFile(
        table,
        r -> {
          FixedFileTrailer t = r.getTrailer();
          if (t.getNumDataIndexLevels() == 1 && t.getDataIndexCount() > 1) {
            out.add(t.getLoadOnOpenDataOffset() / t.getDataIndexCount());
          }
        });
    assertThat(out).as("store files of %s with more than one block", table).isNotEmpty();
    return out;
  }

  /** Opens each store file of the table (not the region and table descriptors) for {@code each}. */
  private static void forEachStoreFile(TableName table, Consumer<HFile.Reader> each)
      throws IOException {
    Configuration conf = MiniHBase.conf();
    Path dir = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(conf), table);
    FileSystem fs = dir.getFileSystem(conf);
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      Path f = files.next().getPath();
      // Store files live in <region>/<family>/; region and table descriptors elsewhere, and a
      // compaction's or flush's file in <region>/.tmp/<family>/ until it is moved (or gone).
      if (f.getName().startsWith(".")
          || f.getParent().getName().startsWith(".")
          || f.getParent().getParent().getName().startsWith(".")
          || !StoreFileInfo.isHFile(f)) {
        continue;
      }
      try (HFile.Reader r = HFile.createReader(fs, f, CacheConfig.DISABLED, true, conf)) {
        each.accept(r);
      }
    }
  }
}
