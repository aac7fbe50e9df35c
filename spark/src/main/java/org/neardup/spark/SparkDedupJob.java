// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.jspecify.annotations.Nullable;
import org.neardup.verify.HeadFilter;
import org.neardup.verify.ShingleSketch;
import scala.Tuple2;

/**
 * {@code neardup dedup} as a Spark job: reads and analyses the documents ({@link DocumentReader}),
 * drops repeated ids, finds candidate pairs ({@link Candidates}), verifies them as the engine does
 * (the {@link HeadFilter}, then the Jaccard similarity of the sketches), clusters the pairs ({@link
 * ConnectedComponents}) and writes the same files with the same lines as {@code neardup dedup}:
 * {@code clusters}, {@code pairs}, {@code unique}, {@code duplicates} and {@code errors} as
 * directories of JSONL part files (in input order when the parts are read in name order), and
 * {@code summary.json}. The output goes to a staging directory renamed into place at the end.
 *
 * <p>Uses RDDs throughout, each step a sort or a join on explicit partitioners: the plan does not
 * change with adaptive query execution, and nothing but counts, the hot keys and the five biggest
 * clusters reach the driver.
 */
public final class SparkDedupJob {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MARKER = "summary.json";

  private static final long LABEL = 1;
  private static final long SIZE = 2;
  private static final long NOT_NEW = 3;
  private static final long REPEAT = 4;

  private SparkDedupJob() {}

  /**
   * Runs the job and returns summary.json's content.
   *
   * @throws IOException naming an input that cannot be read, or an output that may not be replaced
   */
  public static ObjectNode run(
      SparkSession spark, DedupSettings settings, List<String> inputs, String out, boolean force)
      throws IOException {
    return run(spark, settings, inputs, out, force, null);
  }

  /**
   * Runs the job; with {@code against}, the output directory of an earlier run that saved its
   * fingerprints ({@link DedupSettings#saveFingerprints}), deduplicates the inputs as a new batch
   * after those documents: they come first in the input order, are never read or analysed again,
   * and are never re-decided (no line of the output is about one of them, and their clusters keep
   * their representatives); a new document that matches one joins its cluster.
   */
  public static ObjectNode run(
      SparkSession spark,
      DedupSettings settings,
      List<String> inputs,
      String out,
      boolean force,
      @Nullable String against)
      throws IOException {
    settings.check();
    long t0 = System.nanoTime();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Configuration hconf = spark.sparkContext().hadoopConfiguration();
    HadoopConf conf = new HadoopConf(hconf);
    FileSystem outFs = new Path(out).getFileSystem(hconf);
    Path target = outFs.makeQualified(new Path(out));
    checkReplaceable(outFs, target, force);
    Path staging = new Path(target.getParent(), "." + target.getName() + ".staging");
    if (outFs.exists(staging)) {
      outFs.delete(staging, true);
    }
    List<InputFiles.File> files =
        InputFiles.expand(inputs, InputFiles.Format.parse(settings.format), hconf);
    int partitions =
        settings.shufflePartitions > 0 ? settings.shufflePartitions : jsc.defaultParallelism();
    boolean verify = settings.verify;
    double threshold = settings.threshold;
    List<JavaRDD<?>> cached = new ArrayList<>();
    ShuffleMeter meter = new ShuffleMeter(spark.sparkContext());
    meter.phase("read_and_analyse");

    // 1. Read and analyse.
    JavaRDD<Doc> earlier = null;
    int firstNew = 0;
    if (against != null) {
      // An earlier run's saved fingerprints, or a service collection's dump (store export).
      JavaRDD<Doc> read =
          DumpFingerprints.isDump(conf, against)
              ? DumpFingerprints.read(jsc, conf, against, settings.settingsLine())
              : SavedFingerprints.read(spark, against, settings.settingsLine());
      // In ordinal order, partition by partition, so that lookups merge with them.
      earlier =
          read.mapToPair(d -> new Tuple2<>(d.ordinal, d)).sortByKey(true, partitions).values();
      earlier.persist(StorageLevel.MEMORY_AND_DISK_SER());
      cached.add(earlier);
      firstNew =
          earlier.isEmpty() ? 0 : earlier.map(d -> d.ordinal).max(Comparator.naturalOrder()) + 1;
    }
    List<SplitRecords.@Nullable Source> sources = new ArrayList<>();
    JavaRDD<Doc> batch = Inputs.read(spark, jsc, files, conf, settings, firstNew, sources);
    if (sources.size() != batch.getNumPartitions()) {
      throw new IllegalStateException(
          "expected one record source per partition: "
              + batch.getNumPartitions()
              + ", got "
              + sources.size());
    }
    batch.persist(StorageLevel.MEMORY_AND_DISK_SER());
    cached.add(batch);
    OrdinalRanges ranges = OrdinalRanges.of(batch);
    long documents = ranges.documents();
    JavaRDD<Doc> docs = earlier == null ? batch : earlier.union(batch);
    // Where each ordinal of docs is: records keyed by ordinal are sorted into these partitions and
    // merged with the documents there (OrdinalRanges.lookup), instead of joined with them.
    OrdinalRanges where = earlier == null ? ranges : OrdinalRanges.of(docs);

    // Repeated ids: the first good document with an id keeps it, later ones are errors.
    JavaPairRDD<Integer, Integer> repeats =
        docs.filter(Doc::ok)
            .mapToPair(d -> new Tuple2<>(d.idJson, d.ordinal))
            .groupByKey(partitions)
            .flatMapToPair(
                g -> {
                  List<Tuple2<Integer, Integer>> r = new ArrayList<>();
                  Iterator<Integer> it = g._2().iterator();
                  int first = it.next();
                  if (!it.hasNext()) {
                    return r.iterator();
                  }
                  List<Integer> all = new ArrayList<>();
                  all.add(first);
                  it.forEachRemaining(all::add);
                  all.sort(null);
                  for (int k = 1; k < all.size(); k++) {
                    r.add(new Tuple2<>(all.get(k), all.get(0)));
                  }
                  return r.iterator();
                });
    repeats.persist(StorageLevel.MEMORY_AND_DISK_SER());
    cached.add(repeats.rdd().toJavaRDD());
    boolean anyRepeats = !repeats.isEmpty();
    long t1 = System.nanoTime();

    // 2. Candidates and their verification.
    meter.phase("pairs");
    JavaRDD<Member> members =
        docs.filter(Doc::ok)
            .map(
                d ->
                    new Member(
                        d.ordinal,
                        d.fingerprint,
                        d.bandKeys,
                        0,
                        verify ? Member.shape(d.fingerprint, d.sketch) : 0));
    if (anyRepeats) {
      members = members.keyBy(m -> m.ordinal).subtractByKey(repeats, partitions).values();
    }
    // Read twice (a sample of the group sizes, then the groups): kept, as they are small.
    members.persist(StorageLevel.MEMORY_AND_DISK_SER());
    cached.add(members);
    JavaRDD<long[]> candidates =
        Candidates.find(jsc, members, settings, partitions, firstNew, documents + firstNew);
    JavaRDD<long[]> pairs; // {i, j, distance, similarity as double bits}
    // Pairs of shapes with more than the group limit of candidates (copies of one text).
    java.util.Set<Tuple2<Long, Long>> hotShapes = new java.util.HashSet<>();
    if (verify) {
      // Read twice below (the first of each pair of shapes, then the join with the verdicts):
      // kept, or the self-join (the sort of every group and the scan of its pairs) runs twice.
      candidates.persist(StorageLevel.MEMORY_AND_DISK_SER());
      // Candidates between the same two shapes (copies of the same two texts) have the same
      // similarity: one of them (the first) is verified per pair of shapes and its verdict given to
      // all, so that n copies of a text cost one sketch comparison, not n * (n - 1) / 2. The two
      // sketches come to the candidate by two sorted merges with the documents, where they are;
      // the documents and their sketches are not shuffled.
      JavaPairRDD<Tuple2<Long, Long>, long[]> byShape =
          candidates.mapToPair(c -> new Tuple2<>(new Tuple2<>(c[3], c[4]), c));
      // The first candidate of each pair of shapes, and how many candidates it has.
      JavaPairRDD<Tuple2<Long, Long>, long[]> firsts =
          byShape.reduceByKey(SparkDedupJob::firstOfShapes, partitions);
      firsts.persist(StorageLevel.MEMORY_AND_DISK_SER());
      cached.add(firsts.rdd().toJavaRDD());
      // Pairs of shapes with many candidates (copies of one text: n copies give n (n - 1) / 2):
      // their verdicts go to every task, and their candidates take them there, for a join would
      // hold all candidates of one pair of shapes in one task. At most candidates / groupLimit of
      // them reach the driver.
      int hotLimit = Math.max(1, settings.groupLimit);
      hotShapes.addAll(firsts.filter(f -> count(f._2()) > hotLimit).keys().collect());
      JavaPairRDD<Tuple2<Long, Long>, Long> verdicts =
          firsts
              .values()
              .mapToPair(c -> new Tuple2<>((int) c[0], c))
              .repartitionAndSortWithinPartitions(where)
              .zipPartitions(docs, (cs, ds) -> OrdinalRanges.lookup(ds, cs))
              .mapToPair(e -> new Tuple2<>((int) e._1()[1], new Tuple2<>(e._1(), e._2().sketch)))
              .repartitionAndSortWithinPartitions(where)
              .zipPartitions(docs, (cs, ds) -> OrdinalRanges.lookup(ds, cs))
              .mapPartitionsToPair(
                  it -> {
                    HeadFilter filter = new HeadFilter(threshold);
                    int[] heads = new int[2 * HeadFilter.HEAD];
                    List<Tuple2<Tuple2<Long, Long>, Long>> kept = new ArrayList<>();
                    while (it.hasNext()) {
                      Tuple2<Tuple2<long[], byte[]>, Doc> e = it.next();
                      long[] c = e._1()._1();
                      byte[] a = e._1()._2();
                      byte[] b = e._2().sketch;
                      ShingleSketch sa = ShingleSketch.decode(a, 0, a.length);
                      ShingleSketch sb = ShingleSketch.decode(b, 0, b.length);
                      int ca = HeadFilter.head(sa, heads, 0);
                      int cb = HeadFilter.head(sb, heads, HeadFilter.HEAD);
                      if (!filter.mayReach(heads, 0, ca, HeadFilter.HEAD, cb)) {
                        continue;
                      }
                      double s = ShingleSketch.jaccard(sa, sb);
                      if (s >= threshold) {
                        kept.add(
                            new Tuple2<>(new Tuple2<>(c[3], c[4]), Double.doubleToLongBits(s)));
                      }
                    }
                    return kept.iterator();
                  });
      JavaRDD<long[]> pairsOfCold;
      JavaRDD<long[]> pairsOfHot;
      if (hotShapes.isEmpty()) {
        pairsOfCold = join(byShape, verdicts, partitions);
        pairsOfHot = jsc.emptyRDD();
      } else {
        verdicts.persist(StorageLevel.MEMORY_AND_DISK_SER());
        cached.add(verdicts.rdd().toJavaRDD());
        Broadcast<java.util.Set<Tuple2<Long, Long>>> hot = jsc.broadcast(hotShapes);
        java.util.Map<Tuple2<Long, Long>, Long> hotVerdicts =
            new java.util.HashMap<>(
                verdicts.filter(v -> hot.value().contains(v._1())).collectAsMap());
        Broadcast<java.util.Map<Tuple2<Long, Long>, Long>> passed = jsc.broadcast(hotVerdicts);
        pairsOfCold =
            join(
                byShape.filter(c -> !hot.value().contains(c._1())),
                verdicts.filter(v -> !hot.value().contains(v._1())),
                partitions);
        pairsOfHot =
            byShape
                .filter(c -> passed.value().containsKey(c._1()))
                .map(
                    e -> {
                      long[] c = e._2();
                      return new long[] {c[0], c[1], c[2], passed.value().get(e._1())};
                    });
      }
      pairs = pairsOfCold.union(pairsOfHot);
    } else {
      pairs =
          candidates.map(c -> new long[] {c[0], c[1], c[2], Double.doubleToLongBits(Double.NaN)});
    }
    pairs.persist(StorageLevel.MEMORY_AND_DISK_SER());
    cached.add(pairs);
    long pairCount = pairs.count();
    candidates.unpersist(false);
    long t2 = System.nanoTime();

    // 3. Clusters.
    meter.phase("clusters");
    // Cut to a spanning forest per partition first: the components are the same, and the copies of
    // one text give a star instead of all their pairs.
    JavaRDD<Long> edges =
        SpanningEdges.of(pairs.map(p -> ConnectedComponents.edge((int) p[1], (int) p[0])));
    if (earlier != null) {
      // The earlier clusters as they were: each earlier member linked to its representative.
      edges =
          edges.union(
              earlier
                  .filter(d -> d.earlierRep != d.ordinal)
                  .map(d -> ConnectedComponents.edge(d.ordinal, d.earlierRep)));
    }
    int[] rounds = {0};
    JavaPairRDD<Integer, Integer> labels =
        pairCount == 0 && earlier == null
            ? JavaPairRDD.fromJavaRDD(jsc.<Tuple2<Integer, Integer>>emptyRDD())
            : ConnectedComponents.labels(
                ConnectedComponents.stars(edges, partitions, rounds), partitions);
    // Members besides the representative, per cluster.
    JavaPairRDD<Integer, Integer> sizes =
        labels.mapToPair(l -> new Tuple2<>(l._2(), 1)).reduceByKey(Integer::sum, partitions);

    // 4. What was decided about each document of this run, brought to the partition that holds it
    // (sorted by ordinal, as the documents are): the documents themselves never move again. (The
    // sort samples its input at once, so the write phase starts here.)
    meter.phase("write");
    // A member's fact carries its representative's id, fingerprint and sketch, brought by a sorted
    // merge with the documents; its distance and similarity are worked out where the member is.
    int fresh = firstNew;
    JavaPairRDD<Integer, Fact> memberFacts =
        labels
            .filter(l -> l._1() >= fresh) // an earlier run's documents: decided then
            .mapToPair(l -> new Tuple2<>(l._2(), l._1()))
            .join(sizes, partitions)
            .repartitionAndSortWithinPartitions(where)
            .zipPartitions(docs, (ms, ds) -> OrdinalRanges.lookup(ds, ms))
            .mapToPair(e -> new Tuple2<>(e._1()._1(), Fact.member(e._1()._2() + 1, e._2())));
    int first = firstNew;
    JavaPairRDD<Integer, Fact> facts =
        memberFacts
            .union(sizes.mapToPair(s -> new Tuple2<>(s._1(), Fact.representative(s._2() + 1))))
            .union(
                pairs
                    .mapToPair(p -> new Tuple2<>((int) p[1], Fact.notNew()))
                    .reduceByKey((a, b) -> a, partitions))
            .union(repeats.mapValues(Fact::repeatOf))
            .filter(f -> f._1() >= first) // an earlier run's documents: decided then
            .repartitionAndSortWithinPartitions(ranges);
    JavaRDD<Tuple2<Doc, Fact>> decided = batch.zipPartitions(facts, OrdinalRanges::merge);

    // 5. Write: each part file holds one input split's documents, in input order. The four files of
    // a split are written by one task in one pass, which also counts for the summary.
    List<Tuple2<Integer, Integer>> biggest = sizes.top(5, new BySize());
    java.util.HashSet<Integer> biggestReps = new java.util.HashSet<>();
    for (Tuple2<Integer, Integer> b : biggest) {
      biggestReps.add(b._1());
    }
    // The documents of the copies of one text (the members of a hot pair of shapes): the same pass
    // brings their ids, so that their pairs are written where they are (PairLines).
    java.util.HashSet<Integer> wanted = new java.util.HashSet<>(biggestReps);
    wanted.addAll(copies(jsc, members, hotShapes));
    PartFiles.Seen seen =
        PartFiles.write(
            decided, sources, settings.maxDocBytes, conf, staging.toString(), verify, wanted);
    java.util.Map<Integer, String> allIds = new java.util.HashMap<>();
    for (Tuple2<Integer, String> e : seen.ids) {
      allIds.put(e._1(), e._2());
    }
    java.util.Map<Integer, String> biggestIds = new java.util.HashMap<>();
    for (Integer r : biggestReps) {
      String id = allIds.get(r);
      if (id != null) {
        biggestIds.put(r, id);
      }
    }
    if (earlier != null && biggestIds.size() < biggestReps.size()) {
      // The representative of a big cluster may be a document of the earlier run.
      earlier
          .filter(d -> biggestReps.contains(d.ordinal))
          .mapToPair(d -> new Tuple2<>(d.ordinal, d.idJson))
          .collectAsMap()
          .forEach(biggestIds::put);
    }
    long pairsInPlace = PairLines.write(jsc, pairs, docs, where, allIds, verify, staging);

    // 6. The summary: counts, the five biggest clusters, the first five errors.
    long[] counts = seen.counts;
    long errorCount = counts[4];
    List<String> firstErrors = seen.firstErrors;
    long t3 = System.nanoTime();

    ObjectNode summary = JSON.createObjectNode();
    summary.put("documents", documents);
    summary.put("errors", errorCount);
    summary.put("unique", counts[0]);
    summary.put("new_on_arrival", counts[3]);
    summary.put("duplicates", counts[1]);
    summary.put("clusters", counts[2]);
    summary.put("pairs", pairCount);
    double seconds = (t3 - t0) / 1e9;
    summary.put("seconds", Math.round(seconds * 1000) / 1000.0);
    summary.put("documents_per_second", Math.round(seconds > 0 ? documents / seconds : 0));
    ObjectNode phases = summary.putObject("phase_seconds");
    phases.put("read_and_analyse", Math.round((t1 - t0) / 1e6) / 1000.0);
    phases.put("pairs", Math.round((t2 - t1) / 1e6) / 1000.0);
    phases.put("write", Math.round((t3 - t2) / 1e6) / 1000.0);
    ArrayNode big = summary.putArray("biggest_clusters");
    for (int i = 0; i < biggest.size(); i++) {
      ObjectNode o = big.addObject();
      o.set("representative", JSON.readTree(biggestIds.get(biggest.get(i)._1())));
      o.put("size", biggest.get(i)._2() + 1);
    }
    summary.put("settings", settings.settingsLine());
    ObjectNode spark1 = summary.putObject("spark");
    if (against != null) {
      spark1.put("against", against);
      spark1.put("first_ordinal", firstNew);
    }
    spark1.put("partitions", partitions);
    spark1.put("input_splits", DocumentReader.splits(files, settings.inputPartitions).size());
    spark1.put("cluster_rounds", rounds[0]);
    spark1.put("pairs_written_in_place", pairsInPlace);
    spark1.put("scheme", settings.blockScheme().toString());
    ObjectNode shuffled = spark1.putObject("shuffle_bytes_written");
    meter.stop().forEach(shuffled::put);
    ArrayNode errs = spark1.putArray("first_errors");
    firstErrors.forEach(errs::add);
    if (settings.parquet) {
      for (String name : List.of("clusters", "pairs", "unique", "duplicates")) {
        spark
            .read()
            .json(spark.read().textFile(new Path(staging, name).toString()))
            .write()
            .parquet(new Path(new Path(staging, "parquet"), name).toString());
      }
    }
    if (settings.saveFingerprints) {
      JavaPairRDD<Doc, Integer> saved =
          decided
              .filter(e -> e._1().ok() && e._2().repeatOf < 0)
              .mapToPair(e -> new Tuple2<>(e._1(), e._2().rep < 0 ? e._1().ordinal : e._2().rep));
      if (earlier != null) {
        saved = earlier.mapToPair(d -> new Tuple2<>(d, d.earlierRep)).union(saved);
      }
      SavedFingerprints.write(spark, saved, staging);
    }
    try (OutputStream o = outFs.create(new Path(staging, MARKER), true)) {
      o.write((summary.toPrettyString() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    if (outFs.exists(target)) {
      outFs.delete(target, true);
    }
    if (!outFs.rename(staging, target)) {
      throw new IOException("could not move " + staging + " to " + target);
    }
    for (JavaRDD<?> r : cached) {
      r.unpersist(false);
    }
    return summary;
  }

  /**
   * The ordinals of the members whose shape is in one of the hot pairs of shapes, at most {@link
   * PairLines#MAX_IDS} of them: one pass over the (small, cached) members.
   */
  private static List<Integer> copies(
      JavaSparkContext jsc, JavaRDD<Member> members, java.util.Set<Tuple2<Long, Long>> hot) {
    if (hot.isEmpty()) {
      return List.of();
    }
    java.util.HashSet<Long> shapes = new java.util.HashSet<>();
    for (Tuple2<Long, Long> h : hot) {
      shapes.add(h._1());
      shapes.add(h._2());
    }
    Broadcast<java.util.Set<Long>> wanted = jsc.broadcast(shapes);
    return members
        .filter(m -> wanted.value().contains(m.shape))
        .map(m -> m.ordinal)
        .take(PairLines.MAX_IDS);
  }

  /** Of two candidates with the same pair of shapes, the first (by ordinals), with both counts. */
  private static long[] firstOfShapes(long[] a, long[] b) {
    long[] f = a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]) ? a : b;
    return new long[] {f[0], f[1], f[2], f[3], f[4], count(a) + count(b)};
  }

  /** How many candidates a {@link #firstOfShapes} result stands for (one for a candidate). */
  private static long count(long[] c) {
    return c.length > 5 ? c[5] : 1;
  }

  /** The candidates that pass, as pairs {@code (i, j, distance, similarity bits)}. */
  private static JavaRDD<long[]> join(
      JavaPairRDD<Tuple2<Long, Long>, long[]> candidates,
      JavaPairRDD<Tuple2<Long, Long>, Long> verdicts,
      int partitions) {
    return candidates
        .join(verdicts, partitions)
        .map(
            e -> {
              long[] c = e._2()._1();
              return new long[] {c[0], c[1], c[2], e._2()._2()};
            });
  }

  private static void checkReplaceable(FileSystem fs, Path target, boolean force)
      throws IOException {
    if (!fs.exists(target) || force) {
      return;
    }
    if (!fs.getFileStatus(target).isDirectory() || !fs.exists(new Path(target, MARKER))) {
      throw new IOException(
          target + " exists and is not the output of an earlier run; remove it or pass --force");
    }
  }

  /** Orders cluster sizes, largest first, then the earliest representative. */
  private static final class BySize
      implements Comparator<Tuple2<Integer, Integer>>, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(Tuple2<Integer, Integer> a, Tuple2<Integer, Integer> b) {
      int c = Integer.compare(a._2(), b._2());
      return c != 0 ? c : Integer.compare(b._1(), a._1());
    }
  }
}
