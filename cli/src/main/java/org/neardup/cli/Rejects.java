// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The records a command skipped, under the one rule every command that reads a corpus follows: a
 * record that cannot be used (malformed JSON, a missing or mistyped field, invalid UTF-8, too
 * large, a text without letters or digits, one the service refused) is skipped and the run goes on;
 * each is written to {@code --errors FILE} as {@code {"location": "FILE:LINE", "id": …, "error":
 * "…"}}, the count and the first {@value #SHOWN} go to stderr at the end; the exit code is 0, or 1
 * with {@code --fail-on-error} when any was skipped.
 *
 * <p>Not thread-safe: commands add from the thread that collects results in input order.
 */
final class Rejects implements AutoCloseable {
  static final int SHOWN = 5;

  /**
   * Built on first use: a run that skips nothing never needs an ObjectMapper (see DocumentSource).
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final String command;
  private final @Nullable Path file;
  private final @Nullable OutputStream out;
  private final List<String> first = new ArrayList<>();
  private long count;

  private Rejects(String command, @Nullable Path file, @Nullable OutputStream out) {
    this.command = command;
    this.file = file;
    this.out = out;
  }

  /**
   * Starts the list, creating (or emptying) {@code file} when it is given.
   *
   * @throws IOException naming the file when it cannot be written
   */
  static Rejects open(String command, @Nullable Path file) throws IOException {
    OutputStream out = null;
    if (file != null) {
      try {
        out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
      } catch (IOException e) {
        throw new IOException("--errors " + file + ": cannot write (" + e + ")", e);
      }
    }
    return new Rejects(command, file, out);
  }

  /** Records one skipped record. */
  void add(String location, @Nullable String idJson, String reason) throws IOException {
    count++;
    if (first.size() < SHOWN) {
      first.add(location + ": " + reason);
    }
    if (out != null) {
      ObjectNode n = Json.MAPPER.createObjectNode();
      n.put("location", location);
      if (idJson != null) {
        n.set("id", Json.MAPPER.readTree(idJson));
      } else {
        n.putNull("id");
      }
      n.put("error", reason);
      out.write(Json.MAPPER.writeValueAsBytes(n));
      out.write('\n');
    }
  }

  long count() {
    return count;
  }

  /** Writes what is buffered, so the file is complete up to here even if the run stops. */
  void flush() throws IOException {
    if (out != null) {
      out.flush();
    }
  }

  /** Prints the count and the first few to {@code err}; nothing when none was skipped. */
  void report(PrintWriter err) {
    if (count == 0) {
      return;
    }
    err.printf(
        Locale.ROOT,
        "neardup %s: %,d %s skipped%s%n",
        command,
        count,
        count == 1 ? "record" : "records",
        file != null
            ? ", all listed in " + file
            : count > first.size() ? " (--errors FILE lists them all), e.g." : ":");
    for (String f : first) {
      err.println("  " + f);
    }
    err.flush();
  }

  /** 1 when records were skipped and {@code failOnError} asks to fail for it, else 0. */
  int exitCode(boolean failOnError) {
    return failOnError && count > 0 ? 1 : 0;
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }
}
