// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.store.AnalysisOptions;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Preset;

/**
 * Everything {@code neardup serve} can be told. Immutable; build with {@link #builder()} or {@link
 * #parse}.
 */
public final class ServerConfig {
  /** The environment variable that supplies the bearer token when {@code --token} is absent. */
  public static final String TOKEN_ENV = "NEARDUP_TOKEN";

  private final String host;
  private final int port;
  private final @Nullable String token;
  private final String store;
  private final Map<String, String> storeOptions;
  private final CollectionSettings defaults;
  private final @Nullable String defaultCollection;
  private final int ioThreads;
  private final int workerThreads;
  private final int maxInFlight;
  private final long maxQueuedBytes;
  private final int maxRequestBytes;
  private final int maxBatch;
  private final Duration shutdownTimeout;
  private final Guards guards;

  private ServerConfig(Builder b) {
    this.host = b.host;
    this.port = b.port;
    this.token = b.token;
    this.store = b.store;
    this.storeOptions = Map.copyOf(b.storeOptions);
    this.defaults = b.defaults;
    this.defaultCollection = b.defaultCollection;
    this.ioThreads = b.ioThreads;
    this.workerThreads = b.workerThreads;
    this.maxInFlight = b.maxInFlight;
    this.maxQueuedBytes = b.maxQueuedBytes;
    this.maxRequestBytes = b.maxRequestBytes;
    this.maxBatch = b.maxBatch;
    this.shutdownTimeout = b.shutdownTimeout;
    this.guards = b.guards;
    if (defaults.maxDistance() > guards.maxK()) {
      throw new IllegalArgumentException(
          "--k " + defaults.maxDistance() + " is above --max-k " + guards.maxK());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The interface to listen on; 127.0.0.1 by default. */
  public String host() {
    return host;
  }

  /** The port; 8080 by default, 0 for any free one. */
  public int port() {
    return port;
  }

  /** The bearer token every request must carry, or null for none. */
  public @Nullable String token() {
    return token;
  }

  /** The store's kind ({@code embedded} by default). */
  public String store() {
    return store;
  }

  /** The store's options, e.g. {@code data} and {@code fsync} for the embedded store. */
  public Map<String, String> storeOptions() {
    return storeOptions;
  }

  /** Settings of collections created without them, and of the default collection. */
  public CollectionSettings defaults() {
    return defaults;
  }

  /** A collection created at start if missing ({@code default}), or null for none. */
  public @Nullable String defaultCollection() {
    return defaultCollection;
  }

  public int ioThreads() {
    return ioThreads;
  }

  public int workerThreads() {
    return workerThreads;
  }

  /** Requests admitted at once; more are refused with 503. */
  public int maxInFlight() {
    return maxInFlight;
  }

  /** Body bytes admitted at once; more are refused with 503. */
  public long maxQueuedBytes() {
    return maxQueuedBytes;
  }

  /** The largest request body; larger ones are refused with 413. */
  public int maxRequestBytes() {
    return maxRequestBytes;
  }

  /** The most documents in one batch; more are refused with 413. */
  public int maxBatch() {
    return maxBatch;
  }

  /** How long a graceful shutdown waits for requests in progress. */
  public Duration shutdownTimeout() {
    return shutdownTimeout;
  }

  /** Limits against hostile clients, timeouts and TLS. */
  public Guards guards() {
    return guards;
  }

  /**
   * The help of {@code neardup serve}: every option {@link #parse} takes, with its default. It is
   * the only definition of the options' help; {@code neardup serve --help} prints it.
   */
  public static String usage() {
    return String.join(
        "\n",
        "Usage: neardup serve [options]",
        "Run the HTTP/JSON service: check each new text against everything stored and store it in",
        "the same step, durably. API: /openapi.json on the running service; see server/README.md.",
        "",
        "Service:",
        "  --data DIR              data directory of the embedded store (neardup-data)",
        "  --host HOST             interface to listen on (127.0.0.1)",
        "  --port P                port, 0 for any free one (8080)",
        "  --token T               bearer token every request must carry (or env "
            + TOKEN_ENV
            + ")",
        "  --token-file FILE       read the bearer token from FILE (not shown in ps)",
        "  --fsync POLICY          always (fsync before answering, default), interval or never",
        "  --fsync-interval D      fsync period of 'interval' (10ms)",
        "  --collection NAME       collection created at start with the settings below (default);",
        "                          '' for none",
        "  --store KIND            store kind: embedded (default), or redis, hbase when on the",
        "                          class path",
        "  --store-option K=V      store option, repeatable",
        "",
        "Settings of new collections (a create request may give others; each collection keeps its",
        "own, fixed when it is created):",
        "  --retention D           keep documents this long, e.g. 48h, 2d; 0 = forever (0)",
        "  --retention-basis B     timestamp (default) or arrival",
        "  -k, --k, --max-distance K",
        "                          max Hamming distance of fingerprint candidates (3)",
        "  --threshold T           Jaccard similarity of near-duplicates (0.8)",
        "  --verify BOOL           confirm candidates with shingles (true); false accepts",
        "                          precomputed fingerprints",
        "  --preset none|web       web: crawled pages, the same as --numbers fold --html main",
        "                          --volatile-lines drop (options given beside it win); none",
        "                          (default): the plain defaults",
        "  --numbers keep|fold     fold: every digit counts as 0 in verification (keep)",
        "  --html visible|main|raw what to use of HTML: visible text (default), main content",
        "                          without navigation/header/footer, or the raw markup",
        "  --volatile-lines keep|drop",
        "                          drop: leave out lines such as view/comment counters, post",
        "                          dates and 'last edited' (keep)",
        "  --top-n N               heaviest features kept per fingerprint, 0 = all (20)",
        "  --sketch-capacity N     shingle hashes kept per document for verification (512)",
        "  --scheme M:R            index block scheme: 4:1 (default), 5:2 or 6:3",
        "  --lexicon NAME          Chinese segmenter: jieba (default) or none",
        "  --han fold|keep         traditional Chinese read as simplified (default fold)",
        "  --user-dict FILE        jieba user dictionary ('word [freq] [tag]' lines)",
        "  --idf FILE              IDF table ('word idf' lines, from 'neardup idf build') instead",
        "                          of the lexicon's; each collection keeps a copy of its bytes",
        "",
        "Limits:",
        "  --max-request-bytes N   largest request body (16777216)",
        "  --max-batch N           most documents per batch (10000)",
        "  --max-in-flight N       requests admitted at once, more get 503 (1024)",
        "  --max-queued-bytes N    body bytes admitted at once, more get 503 (268435456)",
        "  --workers N             worker threads (1 per core, at least 2; more for a store that",
        "                          blocks); batches run on these, and single requests and reads",
        "                          on a pool of as many threads of their own (the singles pool)",
        "  --io-threads N          I/O threads (1 per core, at least 2)",
        "  --shutdown-timeout D    wait this long for requests at shutdown (30s)",
        "  --max-collections N     most collections a client may create (100)",
        "  --max-k K               largest k a collection may have (8)",
        "  --request-timeout D     longest a request may take to arrive (30s)",
        "  --idle-timeout D        close a connection that sends nothing this long (60s)",
        "  --tls-cert FILE         serve HTTPS with this PEM certificate chain",
        "  --tls-key FILE          and this PEM private key (PKCS#8)",
        "  -h, --help              print this help and exit");
  }

  /**
   * Parses {@code --name value} and {@code --name=value} options (see {@link #usage()}).
   *
   * @param env the environment, for {@value #TOKEN_ENV}
   * @throws IllegalArgumentException naming the bad option
   */
  public static ServerConfig parse(String[] args, Map<String, String> env) {
    Builder b = builder();
    CollectionSettings s = b.defaults;
    Guards g = b.guards;
    String token = env.get(TOKEN_ENV);
    java.nio.file.Path tlsCert = null;
    java.nio.file.Path tlsKey = null;
    Map<String, String> embedded = new LinkedHashMap<>();
    String store = "embedded";
    Preset preset = null;
    Boolean numbers = null;
    FingerprintSettings.Html html = null;
    FingerprintSettings.Volatile volatileLines = null;
    AnalysisOptions analysis = s.analysis();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("-k")) {
        arg = "--k";
      }
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException(
            "unexpected argument '" + arg + "'; options start with --");
      }
      String name = arg.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("option --" + name + " needs a value");
        }
        value = args[++i];
      }
      switch (name) {
        case "data":
          embedded.put("data", value);
          break;
        case "fsync":
          embedded.put("fsync", value.toLowerCase(Locale.ROOT));
          break;
        case "fsync-interval":
          embedded.put("fsync-interval", value);
          break;
        case "preset":
          preset = Preset.parse(value);
          break;
        case "numbers":
          numbers = AnalysisOptions.parseNumbers(value);
          break;
        case "html":
          html = AnalysisOptions.parseHtml(value);
          break;
        case "volatile-lines":
          volatileLines = AnalysisOptions.parseVolatileLines(value);
          break;
        case "top-n":
          analysis = analysis.withTopN(integer(name, value));
          break;
        case "sketch-capacity":
          analysis = analysis.withSketchCapacity(integer(name, value));
          break;
        case "scheme":
          analysis = analysis.withScheme(org.neardup.index.BlockScheme.parse(value));
          break;
        case "idf":
          try {
            analysis =
                analysis.withIdf(
                    org.neardup.text.UserDictionary.read(java.nio.file.Path.of(value)));
          } catch (java.io.IOException e) {
            throw new IllegalArgumentException(
                "--idf: cannot read " + value + ": " + e.getMessage(), e);
          }
          analysis.idfTable(); // names the bad line now rather than at the first create
          break;
        case "host":
          b.host(value);
          break;
        case "port":
          b.port(integer(name, value));
          break;
        case "token":
          token = value;
          break;
        case "retention":
          s = s.withRetention(CollectionSettings.parseDuration(value));
          break;
        case "retention-basis":
          s = s.withRetentionBasis(CollectionSettings.parseBasis(value));
          break;
        case "k":
        case "max-distance":
          s = s.withMaxDistance(integer(name, value));
          break;
        case "threshold":
          try {
            s = s.withThreshold(Double.parseDouble(value));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "--threshold must be a number, got '" + value + "'", e);
          }
          break;
        case "verify":
          if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(
                "--verify must be true or false, got '" + value + "'");
          }
          s = s.withVerify(Boolean.parseBoolean(value));
          break;
        case "lexicon":
          s = s.withLexicon(value);
          break;
        case "han":
          s = s.withChinese(s.chinese().withHan(org.neardup.store.ChineseOptions.parseHan(value)));
          break;
        case "user-dict":
          try {
            s =
                s.withChinese(
                    s.chinese()
                        .withUserDictionary(
                            org.neardup.text.UserDictionary.read(java.nio.file.Path.of(value))));
          } catch (java.io.IOException e) {
            throw new IllegalArgumentException(
                "--user-dict: cannot read " + value + ": " + e.getMessage(), e);
          }
          break;
        case "collection":
          b.defaultCollection(value.isEmpty() ? null : value);
          break;
        case "store":
          store = value;
          break;
        case "store-option":
          {
            int e = value.indexOf('=');
            if (e <= 0) {
              throw new IllegalArgumentException(
                  "--store-option must be key=value, got '" + value + "'");
            }
            b.storeOption(value.substring(0, e), value.substring(e + 1));
            break;
          }
        case "max-request-bytes":
          b.maxRequestBytes(integer(name, value));
          break;
        case "max-batch":
          b.maxBatch(integer(name, value));
          break;
        case "max-in-flight":
          b.maxInFlight(integer(name, value));
          break;
        case "max-queued-bytes":
          try {
            b.maxQueuedBytes(Long.parseLong(value));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "--max-queued-bytes must be an integer, got '" + value + "'", e);
          }
          break;
        case "workers":
          b.workerThreads(integer(name, value));
          break;
        case "io-threads":
          b.ioThreads(integer(name, value));
          break;
        case "shutdown-timeout":
          b.shutdownTimeout(CollectionSettings.parseDuration(value));
          break;
        case "token-file":
          token = TokenFile.read(java.nio.file.Path.of(value));
          break;
        case "max-collections":
          g = g.withMaxCollections(integer(name, value));
          break;
        case "max-k":
          g = g.withMaxK(integer(name, value));
          break;
        case "request-timeout":
          g = g.withRequestTimeout(CollectionSettings.parseDuration(value));
          break;
        case "idle-timeout":
          g = g.withIdleTimeout(CollectionSettings.parseDuration(value));
          break;
        case "tls-cert":
          tlsCert = java.nio.file.Path.of(value);
          break;
        case "tls-key":
          tlsKey = java.nio.file.Path.of(value);
          break;
        default:
          throw new IllegalArgumentException("unknown option --" + name + "\n" + usage());
      }
    }
    if (token != null && !token.isEmpty()) {
      b.token(token);
    }
    b.store(store);
    if (store.equals("embedded")) {
      embedded.forEach(b::storeOption); // the store's default data directory is neardup-data
    } else if (!embedded.isEmpty()) {
      throw new IllegalArgumentException(
          "--"
              + embedded.keySet().iterator().next()
              + " is an option of the embedded store, and --store is "
              + store
              + "; give the store's own options with --store-option");
    }
    if (preset != null) {
      analysis =
          analysis
              .withFoldNumbers(preset.foldNumbers())
              .withHtml(preset.html())
              .withVolatileLines(preset.volatileLines());
    }
    if (numbers != null) {
      analysis = analysis.withFoldNumbers(numbers);
    }
    if (html != null) {
      analysis = analysis.withHtml(html);
    }
    if (volatileLines != null) {
      analysis = analysis.withVolatileLines(volatileLines);
    }
    s = s.withAnalysis(analysis);
    if (tlsCert != null || tlsKey != null) {
      g = g.withTls(tlsCert, tlsKey);
    }
    return b.defaults(s).guards(g).build();
  }

  private static int integer(String name, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + name + " must be an integer, got '" + value + "'", e);
    }
  }

  /** Builds a {@link ServerConfig}. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port = 8080;
    private @Nullable String token;
    private String store = "embedded";
    private final Map<String, String> storeOptions = new LinkedHashMap<>();
    private CollectionSettings defaults = CollectionSettings.defaults();
    private @Nullable String defaultCollection = "default";
    private int ioThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
    // A worker computes and never waits for the disk (inserts are answered from the log's thread
    // when the log acknowledges them), so more workers than cores only add lock hand-offs: 4 per
    // core cost 5-10% more CPU per batch request than 1 per core, side by side (BENCHMARKS.md).
    private int workerThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
    private int maxInFlight = 1024;
    private long maxQueuedBytes = 256L << 20;
    private int maxRequestBytes = 16 << 20;
    private int maxBatch = 10_000;
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private Guards guards = Guards.defaults();

    private Builder() {}

    public Builder guards(Guards g) {
      this.guards = Objects.requireNonNull(g, "guards");
      return this;
    }

    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    public Builder port(int port) {
      check(port >= 0 && port <= 65535, "port must be in [0, 65535], got " + port);
      this.port = port;
      return this;
    }

    public Builder token(@Nullable String token) {
      this.token = token;
      return this;
    }

    public Builder store(String kind) {
      this.store = Objects.requireNonNull(kind, "kind");
      return this;
    }

    public Builder storeOption(String key, String value) {
      storeOptions.put(key, value);
      return this;
    }

    public Builder defaults(CollectionSettings settings) {
      this.defaults = Objects.requireNonNull(settings, "settings");
      return this;
    }

    public Builder defaultCollection(@Nullable String name) {
      this.defaultCollection = name;
      return this;
    }

    public Builder ioThreads(int n) {
      check(n >= 1, "io threads must be >= 1, got " + n);
      this.ioThreads = n;
      return this;
    }

    public Builder workerThreads(int n) {
      check(n >= 1, "workers must be >= 1, got " + n);
      this.workerThreads = n;
      return this;
    }

    public Builder maxInFlight(int n) {
      check(n >= 1, "max in flight must be >= 1, got " + n);
      this.maxInFlight = n;
      return this;
    }

    public Builder maxQueuedBytes(long n) {
      check(n >= 1, "max queued bytes must be >= 1, got " + n);
      this.maxQueuedBytes = n;
      return this;
    }

    public Builder maxRequestBytes(int n) {
      check(n >= 1024, "max request bytes must be >= 1024, got " + n);
      this.maxRequestBytes = n;
      return this;
    }

    public Builder maxBatch(int n) {
      check(n >= 1, "max batch must be >= 1, got " + n);
      this.maxBatch = n;
      return this;
    }

    public Builder shutdownTimeout(Duration d) {
      check(!d.isNegative() && d.toHours() < 24, "shutdown timeout must be in [0, 24h), got " + d);
      this.shutdownTimeout = d;
      return this;
    }

    private static void check(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }

    public ServerConfig build() {
      return new ServerConfig(this);
    }
  }
}
