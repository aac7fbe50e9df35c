// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.neardup.server.Main;
import org.neardup.server.NeardupServer;
import org.neardup.server.ServerConfig;
import org.neardup.store.CollectionSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code neardup serve}: the online service on the embedded store. Example: {@code neardup serve
 * --data /var/lib/neardup --retention 48h --port 8080}. Listens on 127.0.0.1 unless told otherwise;
 * stops gracefully on SIGTERM or Ctrl-C.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Run the HTTP/JSON service: check each new text against everything stored and store it in"
          + " the same step, durably.",
      "API: /openapi.json on the running service; see server/README.md."
    })
public final class ServeCommand implements Callable<Integer> {
  @Option(
      names = "--data",
      description = "Data directory of the embedded store (default ${DEFAULT-VALUE}).")
  Path data = Path.of("neardup-data");

  @Option(names = "--host", description = "Interface to listen on (default ${DEFAULT-VALUE}).")
  String host = "127.0.0.1";

  @Option(names = "--port", description = "Port, 0 for any free one (default ${DEFAULT-VALUE}).")
  int port = 8080;

  @Option(
      names = "--token",
      description =
          "Bearer token every request must carry (default: env " + ServerConfig.TOKEN_ENV + ").")
  String token;

  @Option(
      names = "--fsync",
      description =
          "always (fsync before answering), interval or never (default ${DEFAULT-VALUE}).")
  String fsync = "always";

  @Option(names = "--fsync-interval", description = "fsync period of 'interval', e.g. 10ms.")
  String fsyncInterval;

  @Option(
      names = "--retention",
      description =
          "Keep documents this long, e.g. 48h or 2d; 0 keeps them forever (default ${DEFAULT-VALUE}).")
  String retention = "0";

  @Option(
      names = "--retention-basis",
      description =
          "What a document's age is measured from: timestamp or arrival (default ${DEFAULT-VALUE}).")
  String retentionBasis = "timestamp";

  @Option(
      names = "--k",
      description = "Max Hamming distance of candidates (default ${DEFAULT-VALUE}).")
  int k = 3;

  @Option(
      names = "--threshold",
      description = "Jaccard similarity of near-duplicates (default ${DEFAULT-VALUE}).")
  double threshold = 0.8;

  @Option(
      names = "--verify",
      arity = "1",
      description =
          "Confirm candidates with shingles; false accepts precomputed fingerprints (default ${DEFAULT-VALUE}).")
  boolean verify = true;

  @Option(
      names = "--lexicon",
      description = "Chinese segmenter: jieba or none (default ${DEFAULT-VALUE}).")
  String lexicon = CollectionSettings.DEFAULT_LEXICON;

  @Option(
      names = "--han",
      paramLabel = "keep|fold",
      description =
          "Fold traditional Chinese characters to simplified ones in the default settings of new collections (default ${DEFAULT-VALUE}).")
  String han = "fold";

  @Option(
      names = "--user-dict",
      paramLabel = "FILE",
      description =
          "jieba user dictionary ('word [freq] [tag]' lines) in the default settings of new collections; each collection keeps a copy in the data directory.")
  java.nio.file.@org.jspecify.annotations.Nullable Path userDict;

  @Option(
      names = "--collection",
      description =
          "Collection created at start with these settings; '' for none (default ${DEFAULT-VALUE}).")
  String collection = "default";

  @Option(names = "--store", description = "Store kind (default ${DEFAULT-VALUE}).")
  String store = "embedded";

  @Option(names = "--store-option", description = "Store option KEY=VALUE, repeatable.")
  Map<String, String> storeOptions = new LinkedHashMap<>();

  @Option(
      names = "--max-request-bytes",
      description = "Largest request body (default ${DEFAULT-VALUE}).")
  int maxRequestBytes = 16 << 20;

  @Option(
      names = "--max-batch",
      description = "Most documents per batch (default ${DEFAULT-VALUE}).")
  int maxBatch = 10_000;

  @Option(
      names = "--max-in-flight",
      description = "Requests admitted at once; more get 503 (default ${DEFAULT-VALUE}).")
  int maxInFlight = 1024;

  @Option(
      names = "--max-queued-bytes",
      description = "Body bytes admitted at once; more get 503 (default ${DEFAULT-VALUE}).")
  long maxQueuedBytes = 256L << 20;

  @Option(names = "--workers", description = "Worker threads (default: 4 per core).")
  Integer workers;

  @Option(names = "--io-threads", description = "I/O threads (default: one per core).")
  Integer ioThreads;

  @Option(
      names = "--shutdown-timeout",
      description = "Wait this long for requests at shutdown (default ${DEFAULT-VALUE}).")
  String shutdownTimeout = "30s";

  @CommandLine.Mixin GuardOptions guardOptions = new GuardOptions();

  private final PrintStream out;

  public ServeCommand() {
    this(System.out);
  }

  ServeCommand(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cmd = new CommandLine(new ServeCommand());
    cmd.setExecutionExceptionHandler(
        (e, c, p) -> {
          c.getErr().println("neardup serve: error: " + e.getMessage());
          return 1;
        });
    int code = cmd.execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The server configuration these options describe. */
  ServerConfig config() {
    CollectionSettings settings =
        CollectionSettings.defaults()
            .withMaxDistance(k)
            .withThreshold(threshold)
            .withVerify(verify)
            .withRetention(CollectionSettings.parseDuration(retention))
            .withRetentionBasis(CollectionSettings.parseBasis(retentionBasis))
            .withLexicon(lexicon);
    org.neardup.store.ChineseOptions chinese =
        settings.chinese().withHan(org.neardup.store.ChineseOptions.parseHan(han));
    if (userDict != null) {
      try {
        chinese = chinese.withUserDictionary(org.neardup.text.UserDictionary.read(userDict));
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException("--user-dict: cannot read " + userDict + ": " + e, e);
      }
    }
    settings = settings.withChinese(chinese);
    ServerConfig.Builder b =
        ServerConfig.builder()
            .host(host)
            .port(port)
            .store(store)
            .defaults(settings)
            .defaultCollection(collection.isEmpty() ? null : collection)
            .maxRequestBytes(maxRequestBytes)
            .maxBatch(maxBatch)
            .maxInFlight(maxInFlight)
            .maxQueuedBytes(maxQueuedBytes)
            .shutdownTimeout(CollectionSettings.parseDuration(shutdownTimeout));
    b.guards(guardOptions.guards());
    String fromFile = guardOptions.token();
    String t =
        token != null ? token : fromFile != null ? fromFile : System.getenv(ServerConfig.TOKEN_ENV);
    if (t != null && !t.isEmpty()) {
      b.token(t);
    }
    if (workers != null) {
      b.workerThreads(workers);
    }
    if (ioThreads != null) {
      b.ioThreads(ioThreads);
    }
    if (store.equals("embedded")) {
      b.storeOption("data", data.toString());
      b.storeOption("fsync", fsync);
      if (fsyncInterval != null) {
        b.storeOption("fsync-interval", fsyncInterval);
      }
    }
    storeOptions.forEach(b::storeOption);
    return b.build();
  }

  @Override
  public Integer call() throws Exception {
    NeardupServer server = Main.serve(config(), out);
    server.awaitClosed();
    return 0;
  }
}
