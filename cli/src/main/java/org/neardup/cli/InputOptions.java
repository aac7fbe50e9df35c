// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** How the commands that read a corpus (dedup, fingerprint, idf build) read it. */
final class InputOptions {
  @Parameters(
      arity = "1..*",
      paramLabel = "INPUT",
      description = "Files, directories or - (stdin).")
  List<Path> inputs = new ArrayList<>();

  @Option(
      names = "--format",
      paramLabel = "auto|jsonl|lines|files",
      description = "How to read the inputs. Default: by file extension.")
  String format = "auto";

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
      description = "Worker threads. Default: all cores (${DEFAULT-VALUE}).")
  int threads = Runtime.getRuntime().availableProcessors();

  /**
   * Checks the options and opens the inputs.
   *
   * @throws IllegalArgumentException naming the option and the rule it breaks
   * @throws IOException naming the first input that is missing or unreadable
   */
  DocumentSource open() throws IOException {
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
}
