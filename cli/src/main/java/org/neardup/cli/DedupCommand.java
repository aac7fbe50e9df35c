// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.CorpusDedup;
import org.neardup.cluster.Clusters;
import org.neardup.internal.LongIntMap;
import org.neardup.text.TermHasher;
import org.neardup.text.TextBuffer;
import org.neardup.verify.ShingleSketch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code neardup dedup INPUT... --out DIR}: finds every near-duplicate pair of a corpus, groups
 * them into clusters and writes the results.
 *
 * <p>Phases: (1) read and analyse every document on all cores, keeping only fingerprints and band
 * keys in memory and spilling sketches and ids to temporary files (and records, except the lines of
 * plain input files, which are read again: {@link InputRecords}); (2) find and verify candidate
 * pairs ({@link CorpusDedup}); (3) cluster; (4) write DIR in a staging directory and move it into
 * place only when complete, so a failed run never replaces a good result.
 */
@Command(
    name = "dedup",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Find the near-duplicates of a corpus and group them into clusters.",
      "",
      "Inputs: JSONL (.jsonl/.ndjson/.json, fields 'id' and 'text' unless --id-field/--text-field),",
      "JSON arrays of such objects, text files (one document per line, id FILE:LINE), directories",
      "(every .txt/.html/.htm/.md file is one document, id its path), gzip of any of them, or - for stdin.",
      "Records that cannot be used are skipped and listed in DIR/errors.jsonl (and --errors FILE).",
      "",
      "Writes DIR/clusters.jsonl (one line per document, input order), DIR/pairs.jsonl (every near-duplicate pair),",
      "DIR/unique.jsonl (one document per cluster), DIR/duplicates.jsonl (the others), DIR/errors.jsonl and DIR/summary.json."
    })
final class DedupCommand implements Callable<Integer> {
  @Mixin InputOptions input = new InputOptions();

  @Option(
      names = {"-o", "--out"},
      required = true,
      paramLabel = "DIR",
      description = "Output directory (replaced atomically when the run succeeds).")
  Path out;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress bar and no summary on stdout.")
  boolean quiet;

  @Option(names = "--json", description = "Print the summary as one JSON object.")
  boolean json;

  @Option(
      names = "--force",
      description = "Replace DIR even if it is not the output of an earlier neardup run.")
  boolean force;

  @Mixin EngineOptions engine = new EngineOptions();

  @Option(
      names = "--pair-chunk",
      hidden = true,
      paramLabel = "N",
      description =
          "Pairs held in memory before a sorted run goes to disk (default: 1/400 of the heap).")
  int pairChunk;

  @Option(
      names = "--map-sketches-up-to",
      hidden = true,
      paramLabel = "BYTES",
      description = "Largest sketch file read through a memory map (default: half the heap).")
  long sketchMapLimit = -1;

  @Option(
      names = "--columns-in-heap-up-to",
      hidden = true,
      paramLabel = "DOCS",
      description =
          "Documents whose band keys and heads stay in the heap; past that they go to files read a window at a time (default: 1 per 512 bytes of heap).")
  int columnsInHeap = -1;

  @Spec CommandSpec spec;

  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Integer call() throws Exception {
    java.io.PrintWriter stdout = spec.commandLine().getOut();
    PrintStream err = System.err;
    DocumentSource source = input.open();
    Path target = out.toAbsolutePath().normalize();
    OutputDir.checkReplaceable(target, force);
    Analyzer analyzer = engine.builder().analyzer();
    boolean verify = analyzer.shingler() != null;
    int bands = verify ? analyzer.shingler().bands().bands() : 0;
    boolean show = Progress.wanted(quiet);

    try (OutputDir staging = OutputDir.stage(target);
        Rejects rejects = input.rejects("dedup")) {
      Path work = staging.work();
      long t0 = System.nanoTime();
      long cpu0 = cpuNanos();
      Corpus c =
          new Corpus(
              work,
              bands,
              sketchMapLimit >= 0
                  ? sketchMapLimit
                  : sketchMapLimitFor(Runtime.getRuntime().maxMemory()),
              columnsInHeap >= 0
                  ? columnsInHeap
                  : columnsInHeapFor(Runtime.getRuntime().maxMemory()));
      c.rejects = rejects;
      try {
        read(source, analyzer, c, show, err);
        long t1 = System.nanoTime();
        long cpu1 = cpuNanos();
        c.finish();
        CorpusDedup.Stats stats = new CorpusDedup.Stats();
        PairSpill pairs = findPairs(c, work, verify, bands, show, err, stats);
        c.pairs = pairs;
        long t2 = System.nanoTime();
        long cpu2 = cpuNanos();
        Summary summary = new Summary();
        summary.pairStats = stats;
        summary.columns = c.columns == null ? null : c.columns.onDisk() ? "files" : "heap";
        write(staging.dir(), c, pairs, verify, show, err, summary);
        long t3 = System.nanoTime();
        long cpu3 = cpuNanos();
        if (cpu0 >= 0) {
          summary.cpuSeconds =
              new double[] {(cpu1 - cpu0) / 1e9, (cpu2 - cpu1) / 1e9, (cpu3 - cpu2) / 1e9};
        }
        summary.seconds = (t3 - t0) / 1e9;
        summary.readSeconds = (t1 - t0) / 1e9;
        summary.pairSeconds = (t2 - t1) / 1e9;
        summary.writeSeconds = (t3 - t2) / 1e9 - summary.clusterSeconds;
        summary.settings =
            analyzer.id()
                + ";k="
                + engine.maxDistance
                + (verify ? ";threshold=" + engine.threshold : ";verify=off");
        Files.writeString(
            staging.dir().resolve("summary.json"),
            summary.toJson().toPrettyString() + "\n",
            StandardCharsets.UTF_8);
        staging.commit();
        if (!quiet || json) {
          stdout.println(json ? summary.toJson().toString() : summary.text(target));
          stdout.flush();
        }
        rejects.flush();
        rejects.report(spec.commandLine().getErr());
        return rejects.exitCode(input.failOnError);
      } finally {
        c.close();
      }
    }
  }

  /**
   * Sketch files up to half the heap are mapped (~330 MB at 1M realistic documents, mapped with
   * -Xmx1g); larger ones (1 GB at 3M, 3.3 GB at 10M) are read with a system call per sketch, so
   * that the pages read stay the kernel's page cache instead of adding the whole file to the
   * process's resident set beside a full heap.
   */
  static long sketchMapLimitFor(long maxHeap) {
    return maxHeap / 2;
  }

  /**
   * Documents whose band keys and heads (116 bytes at 6 bands) are held in a heap of {@code
   * maxHeap} bytes: one per 512 bytes, 2M documents with -Xmx1g (the 1M realistic corpus stays in
   * the heap); a larger corpus has them in files read a window at a time, which cost neither heap
   * nor resident memory per document.
   */
  static int columnsInHeapFor(long maxHeap) {
    return (int) Math.min(Integer.MAX_VALUE - 8, maxHeap / 512);
  }

  /** Per-document state of the run: in memory only what phase 2 needs per document. */
  private static final class Corpus implements AutoCloseable {
    final SpillFile ids;
    final InputRecords records;
    final SpillFile sketches;
    final int bands;
    long[] fingerprints = new long[1 << 14];
    final BitSet excluded = new BitSet();

    /** Band keys and heads (null without verification): in the heap or in mapped files. */
    final CorpusDedup.Columns columns;

    final List<String[]> errors = new ArrayList<>();

    /** Ordinals by id hash, to reject repeated ids; dropped once the corpus is read. */
    LongIntMap seenIds = new LongIntMap(1 << 14);

    PairSpill pairs;
    Rejects rejects;
    int count;
    int good;

    Corpus(Path work, int bands, long sketchMapLimit, int columnsInHeap) throws IOException {
      this.ids = new SpillFile(work.resolve("ids"));
      this.records = new InputRecords(work);
      this.sketches = new SpillFile(work.resolve("sketches"), sketchMapLimit);
      this.bands = bands;
      this.columns = bands > 0 ? new CorpusDedup.Columns(bands, work, columnsInHeap) : null;
    }

    /** Ends the read phase: what the pairs need at its exact size, what they do not dropped. */
    void finish() throws IOException {
      ids.finish();
      records.finish();
      sketches.finish();
      seenIds = null;
      fingerprints = Arrays.copyOf(fingerprints, count);
      if (columns != null) {
        columns.finish(count);
      }
    }

    String id(int ordinal) {
      return new String(ids.read(ordinal), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      try (SpillFile a = ids;
          InputRecords b = records;
          SpillFile d = sketches;
          PairSpill p = pairs;
          CorpusDedup.Columns e = columns) {
        // closes and deletes them all
      }
    }
  }

  /** One document after the worker thread is done with it: everything phase 1 stores, prepared. */
  private record Analysed(
      DocumentSource.RawDocument raw,
      InputDocument doc,
      Analysis analysis,
      String error,
      byte[] id,
      long idHash,
      byte[] record,
      long recordHash,
      byte[] sketch) {}

  private static final byte[] NONE = new byte[0];

  private void read(
      DocumentSource source, Analyzer analyzer, Corpus c, boolean show, PrintStream err)
      throws IOException {
    try (Progress progress =
        Progress.start(show, "reading", Math.max(1, source.totalBytes()), "MB", 1 << 20, err)) {
      Parallel.runRaw(
          source,
          raw -> analyse(analyzer, raw, source),
          input.threads,
          done -> collect(done, c),
          () -> {
            // Formatted only for a bar that is drawn: once per batch of 256 documents, the format
            // was 8% of this thread's JFR samples in the read phase of a 1M realistic run.
            if (show) {
              progress.stepTo(source.bytesRead());
              progress.extra(String.format(java.util.Locale.ROOT, "  %,d docs", c.count));
            }
          });
    }
  }

  /** The text of the record this thread reads, as chars (see {@link #analyse}). */
  private static final ThreadLocal<TextBuffer> TEXTS = ThreadLocal.withInitial(TextBuffer::new);

  /**
   * Reads and analyses one document: the commonest record with its text decoded straight into this
   * thread's buffer and analysed from there ({@link DocumentSource#readFlat}), any other as {@link
   * DocumentSource#parse} reads it; the same analysis either way.
   */
  private static Analysed analyse(
      Analyzer analyzer, DocumentSource.RawDocument raw, DocumentSource source) {
    TextBuffer text = TEXTS.get();
    try {
      String idJson = source.readFlat(raw, text);
      if (idJson == null) {
        return analyse(analyzer, raw, source.parse(raw), null);
      }
      InputDocument d =
          new InputDocument(raw.ordinal(), idJson, null, raw.location(), raw.bytes(), null);
      return analyse(analyzer, raw, d, text);
    } finally {
      if (text.array().length > 1 << 20) {
        TEXTS.remove(); // do not keep a huge buffer alive after a huge text
      }
    }
  }

  /** Analyses {@code d}: its text, or {@code chars} when given (then {@code d} has no text). */
  private static Analysed analyse(
      Analyzer analyzer,
      DocumentSource.RawDocument raw,
      InputDocument d,
      @Nullable TextBuffer chars) {
    byte[] id = d.idJson() == null ? NONE : d.idJson().getBytes(StandardCharsets.UTF_8);
    long idHash = d.idJson() == null ? 0 : TermHasher.xxh64(id, 0, id.length);
    if (!d.ok()) {
      return new Analysed(raw, d, null, d.error(), id, idHash, NONE, 0, NONE);
    }
    Analysis a =
        chars != null
            ? analyzer.analyze(chars.array(), 0, chars.length())
            : analyzer.analyze(d.text());
    if (a.isEmpty()) {
      return new Analysed(raw, d, null, "text has no letters or digits", id, idHash, NONE, 0, NONE);
    }
    byte[] record =
        d.record() != null
            ? d.record()
            : ("{\"id\":" + d.idJson() + ",\"text\":" + DocumentSource.quote(d.text()) + "}")
                .getBytes(StandardCharsets.UTF_8);
    byte[] sketch = analyzer.shingler() == null ? NONE : a.sketch().shingles().encodeFixed();
    return new Analysed(
        raw, d, a, null, id, idHash, record, InputRecords.hash(raw, record), sketch);
  }

  private void collect(List<Analysed> done, Corpus c) throws IOException {
    for (Analysed a : done) {
      int ordinal = c.count++;
      if (ordinal == c.fingerprints.length) {
        c.fingerprints = Arrays.copyOf(c.fingerprints, ordinal * 2);
      }
      InputDocument d = a.doc();
      String error = a.error();
      if (error == null && d.idJson() != null) {
        // One probe of the id map, where get and then put took two: each misses the cache once
        // the map outgrows it (the two were 28% of this thread's read-phase JFR samples at 1M).
        int first = c.seenIds.putIfAbsent(a.idHash(), ordinal);
        if (first >= 0) {
          error = "repeated id " + d.idJson() + " (first used by document #" + (first + 1) + ")";
        }
      }
      c.ids.append(a.id(), 0, a.id().length);
      if (error != null) {
        c.excluded.set(ordinal);
        c.errors.add(new String[] {d.location(), d.idJson(), error});
        c.rejects.add(d.location(), d.idJson(), error);
        c.records.addNone();
        c.sketches.appendEmpty();
        continue;
      }
      c.good++;
      c.records.add(a.raw(), a.record(), a.recordHash());
      Analysis an = a.analysis();
      c.fingerprints[ordinal] = an.fingerprint();
      c.sketches.append(a.sketch(), 0, a.sketch().length);
      if (c.columns != null) {
        c.columns.add(ordinal, an.sketch().bandKeys(), an.sketch().shingles());
      }
    }
  }

  private PairSpill findPairs(
      Corpus c,
      Path work,
      boolean verify,
      int bands,
      boolean show,
      PrintStream err,
      CorpusDedup.Stats stats) {
    PairSpill pairs =
        new PairSpill(
            work.resolve("pairs"),
            verify,
            pairChunk > 0 ? pairChunk : PairSpill.chunkFor(Runtime.getRuntime().maxMemory()));
    ThreadLocal<SpillFile.Reader> readers = ThreadLocal.withInitial(c.sketches::reader);
    try (Progress progress = Progress.start(show, "pairs", -1, "pairs", 1, err)) {
      progress.follow(pairs::size);
      if (c.columns != null) {
        CorpusDedup.findPairs(
            c.fingerprints,
            c.count,
            c.columns,
            new CorpusDedup.SketchSource() {
              @Override
              public ShingleSketch apply(int o) {
                return readers.get().decode(o, ShingleSketch::decodeFixed);
              }

              @Override
              public void prefetch(int o) {
                readers.get().prefetch(o);
              }

              @Override
              public void prefetch(int[] ordinals, int from, int to) {
                readers.get().prefetch(ordinals, from, to);
              }
            },
            engine.maxDistance,
            engine.threshold,
            c.excluded,
            input.threads,
            stats,
            engine.pairScheme(),
            pairs);
      } else {
        CorpusDedup.findPairs(
            c.fingerprints,
            c.count,
            new long[0],
            0,
            null,
            engine.maxDistance,
            engine.threshold,
            c.excluded,
            input.threads,
            null,
            stats,
            engine.pairScheme(),
            pairs);
      }
      progress.stepTo(pairs.size());
    }
    pairs.finish();
    return pairs;
  }

  private void write(
      Path dir, Corpus c, PairSpill pairs, boolean verify, boolean show, PrintStream err, Summary s)
      throws IOException {
    long start = System.nanoTime();
    s.documents = c.count;
    s.errors = c.errors.size();
    s.pairs = pairs.size();
    // One pass over the pairs: the clusters (union-find, each represented by its earliest
    // document) and what check-and-insert would have answered on arrival: a document is new when
    // no earlier document is its near-duplicate (pairs are (i, j) with i < j).
    Clusters clusters = new Clusters(c.count);
    clusters.ensure(c.count);
    BitSet seenBefore = new BitSet(c.count);
    try (PairSpill.Cursor p = pairs.cursor()) {
      while (p.next()) {
        clusters.union(p.first(), p.second());
        seenBefore.set(p.second());
      }
    }
    int[] sizes = new int[c.count];
    BitSet representatives = new BitSet(c.count);
    for (int o = 0; o < c.count; o++) {
      if (!c.excluded.get(o)) {
        int rep = clusters.find(o);
        sizes[rep]++;
        if (rep == o) {
          representatives.set(o);
        }
      }
    }
    double[] toRepresentative =
        verify ? similaritiesToRepresentatives(pairs, clusters, c.count) : null;
    s.clusterSeconds = (System.nanoTime() - start) / 1e9;
    // pairs.jsonl needs only the pairs and the ids, unique.jsonl and duplicates.jsonl only the
    // records and who represents a cluster: each is written on a thread of its own while this one
    // writes clusters.jsonl (the progress bar follows it). Written by this thread alone, the three
    // document files left the second core idle for most of the write phase.
    OutputThread pairWriter =
        new OutputThread("neardup-pairs-writer", () -> writePairs(dir, c, pairs, verify));
    pairWriter.start();
    OutputThread recordWriter =
        new OutputThread("neardup-records-writer", () -> writeRecords(dir, c, representatives));
    recordWriter.start();
    SpillFile.Reader idA = c.ids.reader();
    SpillFile.Reader idB = c.ids.reader();
    try (Progress progress = Progress.start(show, "writing", c.count, "docs", 1, err);
        OutputStream clustersOut = buffered(dir.resolve("clusters.jsonl"))) {
      JsonLine line = new JsonLine(clustersOut);
      for (int o = 0; o < c.count; o++) {
        if (c.excluded.get(o)) {
          continue;
        }
        int rep = clusters.find(o);
        boolean isRep = representatives.get(o);
        if (isRep) {
          s.unique++;
          if (sizes[o] > 1) {
            s.clusters++;
            s.noteCluster(c.id(o), sizes[o]);
          }
        } else {
          s.duplicates++;
        }
        boolean isNew = !seenBefore.get(o);
        if (isNew) {
          s.newOnArrival++;
        }
        // Each read before its buffer is taken: a read may replace the buffer with a larger one.
        int idLength = idA.read(o);
        int clusterLength = idB.read(rep);
        line.raw("id", idA.bytes(), idLength)
            .raw("cluster", idB.bytes(), clusterLength)
            .bool("representative", isRep)
            .bool("new", isNew)
            .number("size", sizes[rep])
            .number("distance", Long.bitCount(c.fingerprints[o] ^ c.fingerprints[rep]));
        if (verify) {
          double sim = isRep ? 1.0 : toRepresentative[o];
          if (Double.isNaN(sim)) {
            sim = ShingleSketch.jaccard(sketch(c, o), sketch(c, rep));
          }
          line.number("similarity", round(sim));
        }
        line.end();
        if ((o & 1023) == 0) {
          progress.stepTo(o);
        }
      }
      progress.stepTo(c.count);
    }
    recordWriter.finish();
    pairWriter.finish();
    byte[] nl = {'\n'};
    try (OutputStream errorsOut = buffered(dir.resolve("errors.jsonl"))) {
      for (String[] e : c.errors) {
        ObjectNode node = JSON.createObjectNode();
        node.put("location", e[0]);
        if (e[1] != null) {
          node.set("id", JSON.readTree(e[1]));
        } else {
          node.putNull("id");
        }
        node.put("error", e[2]);
        errorsOut.write(JSON.writeValueAsBytes(node));
        errorsOut.write(nl);
      }
    }
  }

  /**
   * Each document's similarity to its cluster's representative where the two are a pair (the
   * similarity verified in the pairs phase); NaN for the others. {@link
   * ShingleSketch#jaccardAtLeast} gives a pair's similarity "the same value to the last bit" as
   * {@link ShingleSketch#jaccard}, in either order, so clusters.jsonl is unchanged; the write phase
   * reads and compares two sketches only for a document whose representative is not one of its
   * pairs. At 1M realistic documents that was two sketch reads and a whole comparison for each of
   * the 227,690 duplicates, on the thread that writes clusters.jsonl; at 10M, with the sketch file
   * not mapped, two system calls each.
   */
  private static double[] similaritiesToRepresentatives(
      PairSpill pairs, Clusters clusters, int count) throws IOException {
    double[] sim = new double[count];
    Arrays.fill(sim, Double.NaN);
    try (PairSpill.Cursor p = pairs.cursor()) {
      while (p.next()) {
        // The representative is its cluster's smallest ordinal, and pairs are (i, j) with i < j.
        if (clusters.find(p.second()) == p.first()) {
          sim[p.second()] = p.similarity();
        }
      }
    }
    return sim;
  }

  /** Writes one output file on a thread of its own; {@link #finish} rethrows what failed. */
  private static final class OutputThread extends Thread {
    /** The writing, which may throw. */
    interface Body {
      void run() throws IOException;
    }

    private final Body body;
    private volatile @org.jspecify.annotations.Nullable Throwable failure;

    OutputThread(String name, Body body) {
      super(name);
      setDaemon(true);
      this.body = body;
    }

    @Override
    public void run() {
      try {
        body.run();
      } catch (Throwable e) {
        failure = e;
      }
    }

    /** Waits for the file; rethrows what failed while writing it. */
    void finish() throws IOException {
      try {
        join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while writing " + getName(), e);
      }
      Throwable e = failure;
      if (e instanceof IOException) {
        throw (IOException) e;
      }
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      if (e instanceof Error) {
        throw (Error) e;
      }
      if (e != null) {
        throw new IOException(e);
      }
    }
  }

  /** Writes pairs.jsonl from the spilled pairs. */
  private static void writePairs(Path dir, Corpus c, PairSpill pairs, boolean verify)
      throws IOException {
    SpillFile.Reader idA = c.ids.reader();
    SpillFile.Reader idB = c.ids.reader();
    try (OutputStream pairsOut = buffered(dir.resolve("pairs.jsonl"));
        PairSpill.Cursor p = pairs.cursor()) {
      JsonLine line = new JsonLine(pairsOut);
      while (p.next()) {
        int aLength = idA.read(p.first());
        int bLength = idB.read(p.second());
        line.raw("a", idA.bytes(), aLength)
            .raw("b", idB.bytes(), bLength)
            .number("distance", p.distance());
        if (verify) {
          line.number("similarity", round(p.similarity()));
        }
        line.end();
      }
    }
  }

  /**
   * Writes each document's record, in input order, to unique.jsonl when it represents its cluster
   * and to duplicates.jsonl otherwise (excluded documents to neither).
   */
  private static void writeRecords(Path dir, Corpus c, BitSet representatives) throws IOException {
    byte[] nl = {'\n'};
    try (InputRecords.Sequential records = c.records.sequential();
        OutputStream uniqueOut = buffered(dir.resolve("unique.jsonl"));
        OutputStream dupOut = buffered(dir.resolve("duplicates.jsonl"))) {
      for (int o = 0; o < c.count; o++) {
        if (c.excluded.get(o)) {
          continue;
        }
        OutputStream target = representatives.get(o) ? uniqueOut : dupOut;
        records.writeTo(o, target);
        target.write(nl);
      }
    }
  }

  private static ShingleSketch sketch(Corpus c, int o) {
    byte[] b = c.sketches.read(o);
    return ShingleSketch.decodeFixed(b, 0, b.length);
  }

  /**
   * CPU time of the whole process so far (every thread, user and system) from Linux's {@code
   * /proc/self/stat}, in nanoseconds at its 10 ms resolution (USER_HZ 100), or -1 where there is
   * none: on a shared machine the phases' CPU seconds compare runs that wall time cannot.
   */
  private static long cpuNanos() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      // Fields after the command name, which is in parentheses and may hold spaces: state is
      // field 3, utime field 14, stime field 15.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static double round(double v) {
    return Math.round(v * 10000) / 10000.0;
  }

  private static OutputStream buffered(Path p) throws IOException {
    return new BufferedOutputStream(Files.newOutputStream(p), 1 << 16);
  }
}
