// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * How the commands that read a corpus (dedup, fingerprint, idf build, send) read it, and what they
 * do with records they cannot use ({@link Rejects}).
 */
final class InputOptions {
  @Parameters(
      arity = "1..*",
      paramLabel = "INPUT",
      description = "Files, directories or - (stdin).")
  List<Path> inputs = new ArrayList<>();

  @Option(
      names = "--format",
      paramLabel = "auto|jsonl|lines|files",
      description =
          "How to read the inputs: jsonl (one object per line, or a JSON array), lines (a document"
              + " per line, id FILE:LINE), files (a document per file). Default: by the file name"
              + " (.jsonl/.ndjson/.json, .txt, .html/.htm/.md), else by the content.")
  String format = "auto";

  @Option(
      names = "--errors",
      paramLabel = "FILE",
      description =
          "Write every skipped record here as JSONL: {\"location\": \"FILE:LINE\", \"id\": ...,"
              + " \"error\": ...}.")
  @Nullable Path errors;

  @Option(
      names = "--fail-on-error",
      description =
          "Exit with 1 when any record was skipped (the run still reads everything). Default:"
              + " skipped records are reported and the exit code is 0.")
  boolean failOnError;

  @Option(
      names = "--id-field",
      paramLabel = "NAME",
      description = "JSONL field holding the id. Default: ${DEFAULT-VALUE}.")
  String idField = "id";

  @Option(
      names = "--text-field",
      paramLabel = "NAME",
      description = "JSONL field holding the text. Default: ${DEFAULT-VALUE}.")
  String textField = "text";

  @Option(
      names = "--max-doc-bytes",
      paramLabel = "N",
      description =
          "Documents larger than this are rejected and reported. Default: ${DEFAULT-VALUE} (64 MiB).")
  int maxDocBytes = 64 << 20;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Worker threads. Default: all cores.")
  int threads = Runtime.getRuntime().availableProcessors();

  /**
   * Checks the options and opens the inputs.
   *
   * @throws IllegalArgumentException naming the option and the rule it breaks
   * @throws IOException naming the first input that is missing or unreadable
   */
  DocumentSource open() throws IOException {
    long stdin = inputs.stream().filter(DocumentSource::isStdin).count();
    if (stdin > 1) {
      throw new IllegalArgumentException("- (stdin) can be given once, got it " + stdin + " times");
    }
    if (threads < 1 || threads > 256) {
      throw new IllegalArgumentException("--threads must be in [1, 256], got " + threads);
    }
    if (maxDocBytes < 1 || maxDocBytes > SpillFile.MAX_RECORD) {
      throw new IllegalArgumentException(
          "--max-doc-bytes must be in [1, " + SpillFile.MAX_RECORD + "], got " + maxDocBytes);
    }
    DocumentSource.Format fmt;
    try {
      fmt = DocumentSource.Format.valueOf(format.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--format must be auto, jsonl, lines or files, got '" + format + "'");
    }
    return DocumentSource.open(inputs, fmt, idField, textField, maxDocBytes);
  }

  /** The list of skipped records for {@code command}, written to {@code --errors} if given. */
  Rejects rejects(String command) throws IOException {
    return Rejects.open(command, errors);
  }
}
