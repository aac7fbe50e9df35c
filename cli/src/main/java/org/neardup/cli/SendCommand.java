// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.neardup.client.Doc;
import org.neardup.client.NeardupClient;
import org.neardup.client.NeardupException;
import org.neardup.client.Result;
import org.neardup.server.ServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code neardup send}: sends a file's documents to a running service in batches and prints a
 * summary. JSONL lines are objects with {@code id} and {@code text} (or {@code fingerprint}) and an
 * optional {@code timestamp}; in a text file each non-blank line is a document whose id is {@code
 * FILE:LINE}. Example: {@code neardup send news.jsonl --collection news}.
 */
@Command(
    name = "send",
    mixinStandardHelpOptions = true,
    description = {
      "Send a JSONL or text file to a running neardup service in batches and print a summary.",
      "JSONL: one object per line with id, text (or fingerprint, 16 hex digits), optional"
          + " timestamp. Text: one document per line, id FILE:LINE."
    })
public final class SendCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Parameters(index = "0", paramLabel = "FILE", description = "The file to send; - for stdin.")
  String file;

  @Option(names = "--url", description = "The service (default ${DEFAULT-VALUE}).")
  URI url = URI.create("http://127.0.0.1:8080");

  @Option(names = "--collection", description = "The collection (default ${DEFAULT-VALUE}).")
  String collection = "default";

  @Option(
      names = "--token",
      description = "Bearer token (default: env " + ServerConfig.TOKEN_ENV + ").")
  String token;

  @Option(
      names = "--format",
      description = "jsonl, text or auto: by the file name (default ${DEFAULT-VALUE}).")
  String format = "auto";

  @Option(names = "--batch", description = "Documents per request (default ${DEFAULT-VALUE}).")
  int batch = 500;

  @Option(
      names = "--in-flight",
      description =
          "Batches sent at once (default ${DEFAULT-VALUE}). With more than one, batches may be"
              + " decided out of file order, so of two copies in different batches either may"
              + " come out as the new one.")
  int inFlight = 1;

  @Option(names = "--id-field", description = "JSONL field of the id (default ${DEFAULT-VALUE}).")
  String idField = "id";

  @Option(
      names = "--text-field",
      description = "JSONL field of the text (default ${DEFAULT-VALUE}).")
  String textField = "text";

  @Option(
      names = "--show",
      description =
          "Print one line per document: none, duplicates or all (default ${DEFAULT-VALUE}).")
  String show = "none";

  @Option(
      names = "--retries",
      description = "Retries of a batch refused with 503 (default ${DEFAULT-VALUE}).")
  int retries = 20;

  private final PrintStream out;

  private long documents;
  private long fresh;
  private long duplicates;
  private long existing;
  private long expired;
  private long batches;
  private long retried;

  public SendCommand() {
    this(System.out);
  }

  SendCommand(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cmd = new CommandLine(new SendCommand());
    cmd.setExecutionExceptionHandler(
        (e, c, p) -> {
          c.getErr().println("neardup send: error: " + e.getMessage());
          return 1;
        });
    System.exit(cmd.execute(args));
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
    boolean jsonl =
        switch (format) {
          case "jsonl", "ndjson", "json" -> true;
          case "text", "txt" -> false;
          case "auto" ->
              file.endsWith(".jsonl") || file.endsWith(".ndjson") || file.endsWith(".json");
          default ->
              throw new IllegalArgumentException(
                  "--format must be jsonl, text or auto, got '" + format + "'");
        };
    String t = token != null ? token : System.getenv(ServerConfig.TOKEN_ENV);
    NeardupClient client =
        NeardupClient.builder(url).token(t).timeout(Duration.ofMinutes(5)).build();
    if (client.collection(collection).isEmpty()) {
      throw new IllegalArgumentException(
          "the service at " + url + " has no collection '" + collection + "'");
    }
    long t0 = System.nanoTime();
    Deque<CompletableFuture<Void>> pending = new ArrayDeque<>();
    try (BufferedReader in =
        file.equals("-")
            ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
            : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
      List<Doc> docs = new ArrayList<>(batch);
      String line;
      long lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        docs.add(jsonl ? parse(line, lineNo) : Doc.text(file + ":" + lineNo, line));
        if (docs.size() == batch) {
          submit(client, docs, pending);
          docs = new ArrayList<>(batch);
        }
      }
      if (!docs.isEmpty()) {
        submit(client, docs, pending);
      }
    }
    while (!pending.isEmpty()) {
      join(pending.removeFirst());
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    out.printf(
        Locale.ROOT,
        "sent %d documents in %d batches to %s/%s in %.1f s (%.0f documents/s): %d new, %d"
            + " duplicates, %d already stored, %d expired%s%n",
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
        retried > 0 ? "; " + retried + " batches retried after 503" : "");
    return 0;
  }

  private Doc parse(String line, long lineNo) {
    String where = file + ":" + lineNo + ": ";
    JsonNode n;
    try {
      n = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where + "malformed JSON: " + e.getOriginalMessage(), e);
    }
    if (!n.isObject()) {
      throw new IllegalArgumentException(where + "expected a JSON object");
    }
    JsonNode id = n.get(idField);
    if (id == null || !(id.isTextual() || id.isIntegralNumber())) {
      throw new IllegalArgumentException(
          where + "field '" + idField + "' (the id) is missing or not a string");
    }
    JsonNode text = n.get(textField);
    JsonNode fp = n.get("fingerprint");
    Doc d;
    if (text != null && text.isTextual()) {
      d = Doc.text(id.asText(), text.textValue());
    } else if (fp != null && fp.isTextual() && fp.textValue().length() == 16) {
      try {
        d = Doc.fingerprint(id.asText(), Long.parseUnsignedLong(fp.textValue(), 16));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(where + "field 'fingerprint' must be 16 hex digits", e);
      }
    } else {
      throw new IllegalArgumentException(
          where
              + "field '"
              + textField
              + "' (a string) or 'fingerprint' (16 hex digits) is required");
    }
    JsonNode ts = n.get("timestamp");
    if (ts != null && !ts.isNull()) {
      if (ts.isIntegralNumber()) {
        d = d.at(Instant.ofEpochMilli(ts.longValue()));
      } else if (ts.isTextual()) {
        try {
          d = d.at(Instant.parse(ts.textValue()));
        } catch (java.time.format.DateTimeParseException e) {
          throw new IllegalArgumentException(
              where + "field 'timestamp' is not an ISO-8601 instant", e);
        }
      } else {
        throw new IllegalArgumentException(
            where + "field 'timestamp' must be epoch milliseconds or ISO-8601");
      }
    }
    return d;
  }

  /** Sends a batch, keeping at most inFlight unanswered and printing results in file order. */
  private void submit(NeardupClient client, List<Doc> docs, Deque<CompletableFuture<Void>> pending)
      throws IOException {
    while (pending.size() >= inFlight) {
      join(pending.removeFirst());
    }
    CompletableFuture<List<Result>> sent = send(client, docs, 0);
    CompletableFuture<Void> previous =
        pending.isEmpty() ? CompletableFuture.completedFuture(null) : pending.peekLast();
    // Results are counted and printed in order: each batch waits for the one before.
    pending.addLast(
        sent.thenCombine(
            previous,
            (results, ignored) -> {
              record(results);
              return null;
            }));
    batches++;
  }

  private CompletableFuture<List<Result>> send(NeardupClient client, List<Doc> docs, int attempt) {
    return client
        .batchAsync(collection, docs)
        .exceptionallyCompose(
            e -> {
              Throwable c =
                  e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
              if (c instanceof NeardupException
                  && ((NeardupException) c).isRetryable()
                  && attempt < retries) {
                long wait = Math.max(1, ((NeardupException) c).retryAfterSeconds());
                synchronized (this) {
                  retried++;
                }
                return CompletableFuture.supplyAsync(
                        () -> null, CompletableFuture.delayedExecutor(wait, TimeUnit.SECONDS))
                    .thenCompose(x -> send(client, docs, attempt + 1));
              }
              return CompletableFuture.failedFuture(c);
            });
  }

  private synchronized void record(List<Result> results) {
    for (Result r : results) {
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
  }

  private static void join(CompletableFuture<Void> f) throws IOException {
    try {
      f.join();
    } catch (CompletionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(c);
    }
  }
}
