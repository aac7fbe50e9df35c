// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.neardup.client.BatchSequence;
import org.neardup.client.Doc;
import org.neardup.client.NeardupClient;
import org.neardup.client.NeardupException;
import org.neardup.client.Result;
import org.neardup.server.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code neardup send}: sends a corpus to a running service in batches and prints a summary. It
 * reads what {@code dedup} reads, through the same {@link DocumentSource}; JSONL records may give a
 * {@code fingerprint} (16 hex digits) instead of the text and a {@code timestamp}. Example: {@code
 * neardup send news.jsonl --collection news}.
 *
 * <p>A file is never half-loaded without saying so. Records that cannot be used are skipped and
 * listed ({@link Rejects}); a batch the service refuses for one document (HTTP 400 naming "document
 * I") is sent again without that document, which is listed with the service's reason, so the good
 * documents of the batch are stored (a refused batch stores nothing, so nothing is sent twice).
 * When the service fails (unreachable, 5xx, 503 after the retries), {@code send} waits for the
 * batches in flight, prints the summary and the first location not known to be stored, and exits 1;
 * {@code --resume-from} that location carries on from there. With several batches in flight, a
 * batch sent after the failed one may have been stored all the same (the service decides a batch
 * whose predecessor it refused): its results are counted, and the resume point names its records'
 * range too ({@code POINT,FROM..TO}), so the run that resumes skips them and sends nothing twice.
 */
@Command(
    name = "send",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Send documents to a running neardup service in batches and print a summary.",
      "Reads what 'neardup dedup' reads: JSONL or a JSON array (id, text or fingerprint (16 hex"
          + " digits), optional timestamp), text files (one document per line, id FILE:LINE),"
          + " directories, gzip, - for stdin.",
      "Records that cannot be used, and documents the service refuses, are skipped and listed;"
          + " the other documents of their batch are stored. If the service fails, the output"
          + " names the first line not stored: run again with --resume-from it."
    })
public final class SendCommand implements Callable<Integer> {
  /** Built on first use, for an id with escapes: most runs never need an ObjectMapper. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private static final Pattern REFUSED = Pattern.compile("document (\\d+): (.*)", Pattern.DOTALL);

  /** Items (good and skipped) held before a batch is cut even if it has few good documents. */
  private static final int MAX_ITEMS = 10_000;

  @Mixin InputOptions input = new InputOptions();

  @Option(
      names = "--url",
      description =
          "The service (default ${DEFAULT-VALUE}). An http:// service is reached straight, over a"
              + " plain socket, unless the JVM's proxy settings name a proxy for it"
              + " (NEARDUP_JAVA_OPTS='-Dhttp.proxyHost=H -Dhttp.proxyPort=P'; localhost and"
              + " 127.* are left out by default): then through that proxy. HTTP_PROXY is not"
              + " read.")
  URI url = URI.create("http://127.0.0.1:8080");

  @Option(names = "--collection", description = "The collection (default ${DEFAULT-VALUE}).")
  String collection = "default";

  @Option(
      names = "--token",
      description = "Bearer token (default: env " + ServerConfig.TOKEN_ENV + ").")
  @Nullable String token;

  @Option(names = "--batch", description = "Documents per request (default ${DEFAULT-VALUE}).")
  int batch = 500;

  @Option(
      names = "--in-flight",
      description =
          "Batches sent at once (default ${DEFAULT-VALUE}). The service decides them in file"
              + " order all the same (it holds a batch until the one before it is decided), and"
              + " analyses the next batch while it stores and answers one; a batch sent again"
              + " after a refusal is decided after those sent meanwhile. If the service fails a"
              + " batch, the ones after it that it stored are counted and the resume point"
              + " printed skips them.")
  int inFlight = 2;

  @Option(
      names = "--show",
      description =
          "Print one line per document: none, duplicates or all (default ${DEFAULT-VALUE}).")
  String show = "none";

  @Option(
      names = "--retries",
      description = "Retries of a batch refused with 503 (default ${DEFAULT-VALUE}).")
  int retries = 20;

  @Option(
      names = "--resume-from",
      paramLabel = "[FILE:]LINE[,FROM..TO]...",
      description =
          "Skip everything before this location (what a failed run printed): earlier inputs and"
              + " the lines of FILE before LINE. LINE alone when there is one input. Each"
              + " ,FROM..TO after it (locations as FILE:LINE) also skips those records, both"
              + " included: batches the failed run had in flight that the service stored.")
  @Nullable String resumeFrom;

  @Spec CommandSpec spec;

  private PrintWriter out;
  private Rejects rejects;
  // Numbers the batches, so the service decides them in the order they are sent.
  private BatchSequence sequence;
  private long documents;
  private long fresh;
  private long duplicates;
  private long existing;
  private long expired;
  private long batches;
  private long retried;
  private long resumedPast;
  private long storedBefore;

  /** The first location of the first batch that failed, in file order, and its ordinal. */
  private @Nullable String failedAt;

  private long failedOrdinal;

  /**
   * The records of batches after the failed one that the service stored all the same (several were
   * in flight), as {@code FROM..TO} ranges by the ordinal of their first record: the resume point
   * skips them.
   */
  private final TreeMap<Long, String> storedAfterFailure = new TreeMap<>();

  private volatile @Nullable Throwable failure;

  /** Ends the reading early once a batch failed. */
  private static final class Stop extends IOException {
    private static final long serialVersionUID = 1L;
  }

  /** A record read, in file order: a document to send, or why it is skipped. */
  private static final class Item {
    final InputDocument source;
    final @Nullable Doc doc;
    @Nullable String error;

    Item(InputDocument source, @Nullable Doc doc, @Nullable String error) {
      this.source = source;
      this.doc = doc;
      this.error = error;
    }
  }

  public static void main(String[] args) {
    System.exit(Main.run(concat("send", args)));
  }

  private static String[] concat(String first, String[] rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  @Override
  public Integer call() throws Exception {
    if (batch < 1 || inFlight < 1) {
      throw new IllegalArgumentException("--batch and --in-flight must be >= 1");
    }
    if (!List.of("none", "duplicates", "all").contains(show)) {
      throw new IllegalArgumentException(
          "--show must be none, duplicates or all, got '" + show + "'");
    }
    Resume resume = Resume.parse(resumeFrom, input.inputs);
    out = spec.commandLine().getOut();
    DocumentSource source = input.open().withSendFields();
    String t = token != null ? token : System.getenv(ServerConfig.TOKEN_ENV);
    NeardupClient client =
        NeardupClient.builder(url).token(t).timeout(Duration.ofMinutes(5)).build();
    try {
      if (client.collection(collection).isEmpty()) {
        throw new IllegalArgumentException(
            "the service at " + url + " has no collection '" + collection + "'");
      }
    } catch (IOException e) {
      throw new IOException(describe(e)); // names the URL; the cause adds nothing a user needs
    }
    sequence = client.sequence();
    long t0 = System.nanoTime();
    Deque<CompletableFuture<Void>> pending = new ArrayDeque<>();
    try (Rejects r = input.rejects("send")) {
      rejects = r;
      List<Item> items = new ArrayList<>();
      int[] good = {0};
      byte[] idField = SendRecord.name(input.idField);
      byte[] textField = SendRecord.name(input.textField);
      try {
        Parallel.runRaw(
            source,
            raw -> item(source, raw, idField, textField),
            input.threads,
            done -> {
              for (Item item : done) {
                InputDocument d = item.source;
                if (failure != null) {
                  throw new Stop(); // stop reading after a failure; the summary says where
                }
                switch (resume.at(d.location(), d.ordinal())) {
                  case BEFORE -> {
                    resumedPast++;
                    continue;
                  }
                  case STORED -> {
                    storedBefore++;
                    continue;
                  }
                  case SEND -> {}
                }
                items.add(item);
                if (item.doc != null) {
                  good[0]++;
                }
                if (good[0] == batch || items.size() >= MAX_ITEMS) {
                  submit(client, new ArrayList<>(items), pending);
                  items.clear();
                  good[0] = 0;
                }
              }
            },
            () -> {});
      } catch (Stop stop) {
        items.clear();
      }
      if (!items.isEmpty() && failure == null) {
        try {
          submit(client, items, pending);
        } catch (Stop stop) {
          // the failure is reported below
        }
      }
      while (!pending.isEmpty()) {
        pending.removeFirst().join();
      }
      if (failure == null) {
        resume.checkReached(resumeFrom);
      }
      printSummary((System.nanoTime() - t0) / 1e9);
      r.flush();
      r.report(spec.commandLine().getErr());
    } finally {
      client.close();
    }
    if (failure != null) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("neardup send: error: " + describe(failure));
      // Ranges this run skipped (from --resume-from) that lie after the failed batch still hold
      // stored records: the new resume point keeps them, in file order with this run's.
      storedAfterFailure.putAll(resume.rangesAfter(failedOrdinal));
      String ranges = String.join(",", storedAfterFailure.values());
      String point = failedAt + (ranges.isEmpty() ? "" : "," + ranges);
      err.println(
          "neardup send: every record before "
              + failedAt
              + " is stored or listed as skipped"
              + (ranges.isEmpty()
                  ? ""
                  : ", and so are the records of the batches after it that the service stored ("
                      + ranges
                      + ")")
              + "; to carry on, run the same command with --resume-from "
              + point
              + " (if the failed batch was stored after all, the service answers 'exists' for"
              + " its documents)");
      err.flush();
      return 1;
    }
    return rejects.exitCode(input.failOnError);
  }

  /**
   * Reads a record into a document to send, or the reason it is skipped: a plain JSONL record's
   * text is sent as the record spells it ({@link SendRecord}), any other record is parsed as every
   * command parses it.
   */
  private static Item item(
      DocumentSource source, DocumentSource.RawDocument raw, byte[] idField, byte[] textField) {
    byte[] bytes = raw.bytes();
    if (raw.format() == DocumentSource.Format.JSONL && raw.error() == null && bytes != null) {
      SendRecord.Read r = SendRecord.read(bytes, idField, textField);
      if (r != null) {
        return new Item(
            new InputDocument(raw.ordinal(), r.idJson(), null, raw.location(), null, null),
            r.doc(),
            null);
      }
    }
    return item(source.parse(raw));
  }

  /** Turns a parsed record into a document to send, or the reason it is skipped. */
  private static Item item(InputDocument d) {
    if (!d.ok()) {
      return new Item(d, null, d.error());
    }
    String id = id(d.idJson());
    Doc doc;
    if (d.text() != null) {
      if (!FingerprintCommand.hasLetters(d.text())) {
        return new Item(d, null, "text has no letters or digits");
      }
      doc = Doc.text(id, d.text());
    } else {
      doc = Doc.fingerprint(id, d.fingerprint());
    }
    if (d.timestamp() != null) {
      doc = doc.at(Instant.ofEpochMilli(d.timestamp()));
    }
    return new Item(d, doc, null);
  }

  /** The id an id's JSON (a string or an integer, as DocumentSource writes it) stands for. */
  static String id(String idJson) {
    int n = idJson.length();
    if (n >= 2 && idJson.charAt(0) == '"' && idJson.indexOf('\\') < 0) {
      return idJson.substring(1, n - 1); // no escapes: the text between the quotes
    }
    if (n > 0 && idJson.charAt(0) != '"') {
      return idJson; // an integer
    }
    try {
      return Json.MAPPER.readTree(idJson).asText();
    } catch (IOException e) {
      throw new IllegalStateException("an id DocumentSource wrote is not JSON: " + idJson, e);
    }
  }

  /** Sends a batch, keeping at most inFlight unanswered and recording results in file order. */
  private void submit(
      NeardupClient client, List<Item> items, Deque<CompletableFuture<Void>> pending) throws Stop {
    while (pending.size() >= inFlight) {
      pending.removeFirst().join();
    }
    if (failure != null) {
      throw new Stop(); // nothing is sent after a failed batch, so a resume sends nothing twice
    }
    CompletableFuture<List<Result>> sent = send(client, items, 0);
    CompletableFuture<Void> previous =
        pending.isEmpty() ? CompletableFuture.completedFuture(null) : pending.peekLast();
    // Each batch is recorded after the one before it, so counts, --show lines and the errors file
    // follow the file, and the first failure in file order is the one reported.
    pending.addLast(
        previous
            .thenCombine(
                sent.handle((results, error) -> new Object[] {results, error}), (x, r) -> r)
            .thenAccept(
                r -> {
                  @SuppressWarnings("unchecked")
                  List<Result> results = (List<Result>) r[0];
                  record(items, results, (Throwable) r[1]);
                }));
    batches++;
  }

  /**
   * Sends the items' documents; a 400 naming one document marks that item refused and sends the
   * rest again (the service stores nothing of a refused batch). Completes with the results of the
   * documents finally stored, in order.
   */
  private CompletableFuture<List<Result>> send(
      NeardupClient client, List<Item> items, int attempt) {
    List<Item> live = new ArrayList<>();
    List<Doc> docs = new ArrayList<>();
    for (Item i : items) {
      if (i.doc != null && i.error == null) {
        live.add(i);
        docs.add(i.doc);
      }
    }
    if (docs.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return sequence
        .send(collection, docs)
        .exceptionallyCompose(
            e -> {
              Throwable c = unwrap(e);
              if (c instanceof NeardupException ne) {
                Matcher m = REFUSED.matcher(ne.error());
                if (ne.status() == 400 && m.matches()) {
                  int index = Integer.parseInt(m.group(1));
                  if (index >= 0 && index < live.size()) {
                    live.get(index).error = "refused by the service: " + m.group(2);
                    return send(client, items, attempt);
                  }
                }
                if (ne.isRetryable() && attempt < retries) {
                  long wait = Math.max(1, ne.retryAfterSeconds());
                  synchronized (this) {
                    retried++;
                  }
                  return CompletableFuture.supplyAsync(
                          () -> null, CompletableFuture.delayedExecutor(wait, TimeUnit.SECONDS))
                      .thenCompose(x -> send(client, items, attempt + 1));
                }
              }
              return CompletableFuture.failedFuture(c);
            });
  }

  private synchronized void record(
      List<Item> items, @Nullable List<Result> results, @Nullable Throwable error) {
    if (error != null) {
      if (failure == null) {
        failure = error;
        failedAt = Resume.point(items.get(0).source.location());
        failedOrdinal = items.get(0).source.ordinal();
      }
      return; // this batch is sent again on resume
    }
    if (failure != null) {
      // A batch after the failed one, stored all the same (it was in flight): counted here, and
      // skipped on resume.
      storedAfterFailure.put(
          items.get(0).source.ordinal(),
          Resume.point(items.get(0).source.location())
              + ".."
              + Resume.point(items.get(items.size() - 1).source.location()));
    }
    int next = 0;
    try {
      for (Item i : items) {
        if (i.error != null) {
          rejects.add(i.source.location(), i.source.idJson(), i.error);
          continue;
        }
        if (i.doc == null) {
          continue;
        }
        Result r = results.get(next++);
        count(r);
      }
    } catch (IOException e) {
      failure = e;
      failedAt = Resume.point(items.get(0).source.location());
    }
  }

  private void count(Result r) {
    documents++;
    switch (r.status()) {
      case "exists" -> existing++;
      case "expired" -> expired++;
      default -> {
        if (r.isNew()) {
          fresh++;
        } else {
          duplicates++;
        }
      }
    }
    boolean dup = !r.isNew() && r.stored();
    if (show.equals("all") || (show.equals("duplicates") && dup)) {
      out.println(
          r.id()
              + "\t"
              + (r.exists() ? "exists" : r.isNew() ? "new" : "duplicate")
              + "\t"
              + (r.cluster() == null ? "" : r.cluster()));
    }
  }

  private void printSummary(double seconds) {
    out.printf(
        Locale.ROOT,
        "sent %d documents in %d batches to %s/%s in %.1f s (%.0f documents/s): %d new, %d"
            + " duplicates, %d already stored, %d expired; %d skipped%s%s%n",
        documents,
        batches,
        url,
        collection,
        seconds,
        documents / Math.max(seconds, 1e-9),
        fresh,
        duplicates,
        existing,
        expired,
        rejects.count(),
        (resumedPast > 0 ? "; " + resumedPast + " records before --resume-from not read" : "")
            + (storedBefore > 0
                ? "; " + storedBefore + " records that the failed run stored not read"
                : ""),
        retried > 0 ? "; " + retried + " batches retried after 503" : "");
    out.flush();
  }

  private static Throwable unwrap(Throwable e) {
    Throwable c = e;
    while (c instanceof CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }

  /** What went wrong, naming the URL when the service could not be reached. */
  private String describe(Throwable e) {
    Throwable c = unwrap(e);
    for (Throwable x = c; x != null; x = x.getCause()) {
      if (x instanceof ConnectException) {
        return "cannot connect to the service at " + url + " (is 'neardup serve' running there?)";
      }
      if (x instanceof HttpTimeoutException) {
        return "the service at " + url + " did not answer in time: " + x.getMessage();
      }
    }
    if (c instanceof NeardupException) {
      return "the service at " + url + " answered " + c.getMessage();
    }
    return c instanceof IOException
        ? "talking to the service at " + url + " failed: " + c
        : String.valueOf(c);
  }

  /**
   * Where {@code --resume-from} says to start, and the ranges after it that a failed run stored.
   * Locations are compared as {@link #point} writes them, in the order the inputs are read.
   */
  private static final class Resume {
    /** What to do with a record. */
    enum Verdict {
      BEFORE,
      STORED,
      SEND
    }

    private final @Nullable String file;
    private final long line;
    private final List<String[]> stored;

    /** The ordinal of each stored range's first record, once read. */
    private final long[] entered;

    private boolean started;
    private boolean reachedOnce;
    private int range;
    private boolean inRange;

    private Resume(@Nullable String file, long line, boolean started, List<String[]> stored) {
      this.file = file;
      this.line = line;
      this.started = started;
      this.stored = stored;
      this.entered = new long[stored.size()];
      java.util.Arrays.fill(entered, -1);
    }

    static Resume parse(@Nullable String spec, List<java.nio.file.Path> inputs) {
      if (spec == null) {
        Resume r = new Resume(null, 0, true, List.of());
        r.reachedOnce = true;
        return r;
      }
      String[] parts = spec.split(",", -1);
      List<String[]> stored = new ArrayList<>();
      for (int i = 1; i < parts.length; i++) {
        int dots = parts[i].indexOf("..");
        if (dots <= 0 || dots + 2 >= parts[i].length()) {
          throw new IllegalArgumentException(
              "--resume-from: after the location, each ,FROM..TO names a range of stored records,"
                  + " got '"
                  + parts[i]
                  + "' in '"
                  + spec
                  + "'");
        }
        stored.add(new String[] {parts[i].substring(0, dots), parts[i].substring(dots + 2)});
      }
      String first = parts[0];
      int colon = first.lastIndexOf(':');
      String file = colon < 0 ? null : first.substring(0, colon);
      long line;
      try {
        line = Long.parseLong(first.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--resume-from must be FILE:LINE or LINE, got '" + spec + "'");
      }
      if (line < 1) {
        throw new IllegalArgumentException("--resume-from: lines count from 1, got " + line);
      }
      if (file == null && inputs.size() > 1) {
        throw new IllegalArgumentException(
            "--resume-from " + spec + ": with several inputs, say which: FILE:LINE");
      }
      return new Resume(file, line, false, stored);
    }

    /** A location as {@code --resume-from} takes it: a file of a directory is its line 1. */
    static String point(String location) {
      return line(location) > 0 ? location : location + ":1";
    }

    /** The line number ending {@code location}, or 0 when it ends with none. */
    private static long line(String location) {
      int colon = location.lastIndexOf(':');
      if (colon < 0 || colon == location.length() - 1) {
        return 0;
      }
      for (int i = colon + 1; i < location.length(); i++) {
        if (!Character.isDigit(location.charAt(i))) {
          return 0;
        }
      }
      try {
        return Long.parseLong(location.substring(colon + 1));
      } catch (NumberFormatException e) {
        return 0;
      }
    }

    /** Whether the record at {@code location}, the next one read, is sent or skipped. */
    Verdict at(String location, long ordinal) {
      if (!started) {
        long at = line(location);
        String name = at > 0 ? location.substring(0, location.lastIndexOf(':')) : location;
        at = Math.max(at, 1); // a file of a directory is one document: its line 1
        if ((file == null || file.equals(name)) && at >= line) {
          started = true;
          reachedOnce = true;
        } else {
          return Verdict.BEFORE;
        }
      }
      if (range == stored.size()) {
        return Verdict.SEND;
      }
      String p = point(location);
      if (!inRange && p.equals(stored.get(range)[0])) {
        inRange = true;
        entered[range] = ordinal;
      }
      if (!inRange) {
        return Verdict.SEND;
      }
      if (p.equals(stored.get(range)[1])) {
        inRange = false;
        range++;
      }
      return Verdict.STORED;
    }

    /**
     * The stored ranges that begin after the record {@code ordinal} or were not reached, keyed by
     * their first record's ordinal (the ones not reached after every ordinal, in their order).
     */
    Map<Long, String> rangesAfter(long ordinal) {
      Map<Long, String> out = new LinkedHashMap<>();
      for (int i = 0; i < stored.size(); i++) {
        if (entered[i] < 0 || entered[i] > ordinal) {
          long key = entered[i] >= 0 ? entered[i] : Long.MAX_VALUE - stored.size() + i;
          out.put(key, stored.get(i)[0] + ".." + stored.get(i)[1]);
        }
      }
      return out;
    }

    /** Fails if the input ended before the resume point or inside or before a stored range. */
    void checkReached(@Nullable String spec) {
      if (!reachedOnce) {
        throw new IllegalArgumentException(
            "--resume-from " + spec + ": no such location in the input");
      }
      if (range < stored.size()) {
        String[] r = stored.get(range);
        throw new IllegalArgumentException(
            "--resume-from "
                + spec
                + ": the input ended before the end of the stored range "
                + r[0]
                + ".."
                + r[1]);
      }
    }
  }
}
