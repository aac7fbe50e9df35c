// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.neardup.store.Collection;
import org.neardup.store.CollectionDump;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code neardup store export|import}: moves a collection between stores through a dump file
 * ({@link CollectionDump}), with nothing recomputed. For example, embedded to Redis:
 *
 * <pre>
 * neardup store export --data /var/lib/neardup news --out news.ndump.gz
 * neardup store import --store redis --store-option url=redis://127.0.0.1:6379 --in news.ndump.gz
 * </pre>
 */
@Command(
    name = "store",
    mixinStandardHelpOptions = true,
    description = "Move a collection between stores: export it to a dump file, import a dump.",
    subcommands = {StoreCommand.Export.class, StoreCommand.Import.class})
public final class StoreCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The options that say which store to open, as {@code neardup serve} takes them. */
  static final class StoreOptions {
    @Option(names = "--store", description = "Store kind (default ${DEFAULT-VALUE}).")
    String store = "embedded";

    @Option(names = "--store-option", description = "Store option KEY=VALUE, repeatable.")
    Map<String, String> storeOptions = new LinkedHashMap<>();

    @Option(
        names = "--data",
        description = "Data directory of the embedded store (default ${DEFAULT-VALUE}).")
    Path data = Path.of("neardup-data");

    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    FingerprintStore open() throws IOException {
      Map<String, String> options = new LinkedHashMap<>();
      if (store.equals("embedded")) {
        options.put("data", data.toString());
      }
      options.putAll(storeOptions);
      return FingerprintStore.open(store, StoreConfig.of(options));
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description =
          "Write every stored document of a collection (fingerprint, band keys, sketch, cluster,"
              + " timestamp, order) to a dump file. Stop the services writing to it first, or"
              + " documents inserted meanwhile may or may not be in the dump.")
  static final class Export implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin StoreOptions options = new StoreOptions();

    @Parameters(index = "0", paramLabel = "COLLECTION", description = "The collection to export.")
    String collection;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "FILE",
        description = "The dump file, '-' for stdout; gzip-compressed when it ends in .gz.")
    String out;

    @Option(names = "--gzip", description = "Compress the dump (the default for a .gz file).")
    boolean gzip;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      long t0 = System.nanoTime();
      long count;
      try (FingerprintStore store = options.open()) {
        Collection c = store.collection(FingerprintStore.checkName(collection));
        if (c == null) {
          throw new IllegalArgumentException(
              "no collection named '" + collection + "' in the " + store.kind() + " store");
        }
        CollectionTransfer transfer = CollectionTransfer.of(store);
        long expected = c.stats().documents();
        CollectionDump.Header header =
            new CollectionDump.Header(
                store.kind(),
                c.name(),
                c.settings().toText(),
                c.analyzer().id(),
                Instant.now().toEpochMilli(),
                expected);
        boolean compress = gzip || out.endsWith(".gz");
        Path file = out.equals("-") ? null : Path.of(out);
        Path tmp = file == null ? null : file.resolveSibling(file.getFileName() + ".tmp");
        OutputStream sink =
            file == null
                ? new BufferedOutputStream(new NonClosing(System.out), 1 << 16)
                : Files.newOutputStream(tmp);
        try (CollectionDump.Writer w = new CollectionDump.Writer(sink, header, compress);
            Progress bar =
                Progress.start(
                    Progress.wanted(options.quiet), "export", expected, "docs", 1, System.err)) {
          count =
              transfer.export(
                  c.name(),
                  r -> {
                    w.write(r);
                    if ((w.count() & 1023) == 0) {
                      bar.stepTo(w.count());
                    }
                  });
          w.finish();
          bar.stepTo(count);
        } catch (IOException | RuntimeException e) {
          if (tmp != null) {
            Files.deleteIfExists(tmp);
          }
          throw e;
        }
        if (file != null) {
          Files.move(
              tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
      }
      double s = (System.nanoTime() - t0) / 1e9;
      err.printf(
          Locale.ROOT,
          "exported %d documents of '%s' from the %s store to %s in %.1f s (%.0f documents/s)%n",
          count,
          collection,
          options.store,
          out,
          s,
          count / Math.max(s, 1e-9));
      return 0;
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description =
          "Create a collection from a dump file, with every document as it was stored: nothing is"
              + " recomputed. The collection must not exist; a failed import leaves nothing.")
  static final class Import implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin StoreOptions options = new StoreOptions();

    @Parameters(
        index = "0",
        arity = "0..1",
        paramLabel = "COLLECTION",
        description = "The name of the new collection (default: the name in the dump).")
    String collection;

    @Option(
        names = "--in",
        required = true,
        paramLabel = "FILE",
        description = "The dump file, '-' for stdin (gzip or not, told from its first bytes).")
    String in;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      long t0 = System.nanoTime();
      long count;
      InputStream source =
          in.equals("-") ? new NonClosingIn(System.in) : Files.newInputStream(Path.of(in));
      try (CollectionDump.Reader reader =
          new CollectionDump.Reader(source, in.equals("-") ? "stdin" : in)) {
        CollectionDump.Header h = reader.header();
        CollectionSettings settings;
        try {
          settings = CollectionSettings.parse(h.settings());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              in + ": the dump's settings do not parse in this build: " + e.getMessage(), e);
        }
        String name = FingerprintStore.checkName(collection != null ? collection : h.name());
        try (FingerprintStore store = options.open()) {
          CollectionTransfer transfer = CollectionTransfer.of(store);
          try (CollectionTransfer.Importer importer =
                  transfer.importer(name, settings, h.analyzerId());
              Progress bar =
                  Progress.start(
                      Progress.wanted(options.quiet),
                      "import",
                      h.documents(),
                      "docs",
                      1,
                      System.err)) {
            long n = 0;
            for (StoredRecord r = reader.next(); r != null; r = reader.next()) {
              importer.add(r);
              if ((++n & 1023) == 0) {
                bar.stepTo(n);
              }
            }
            count = importer.finish();
            bar.stepTo(count);
          }
        }
      }
      double s = (System.nanoTime() - t0) / 1e9;
      err.printf(
          Locale.ROOT,
          "imported %d documents from %s into the %s store in %.1f s (%.0f documents/s)%n",
          count,
          in,
          options.store,
          s,
          count / Math.max(s, 1e-9));
      return 0;
    }
  }

  /** stdout, not closed with the dump. */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }

  /** stdin, not closed with the dump. */
  private static final class NonClosingIn extends java.io.FilterInputStream {
    NonClosingIn(InputStream in) {
      super(in);
    }

    @Override
    public void close() {}
  }
}
