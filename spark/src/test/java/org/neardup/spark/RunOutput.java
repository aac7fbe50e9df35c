// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Reads the outputs of a run, the Spark job's or {@code neardup dedup}'s, for comparison. */
final class RunOutput {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RunOutput() {}

  /**
   * The sorted lines of output {@code name}: the Spark job's part files (directory {@code name}),
   * or {@code neardup dedup}'s {@code name.jsonl}.
   */
  static List<String> lines(Path dir, String name) throws IOException {
    List<String> out = new ArrayList<>();
    if (Files.isDirectory(dir.resolve(name))) {
      try (Stream<Path> parts = Files.list(dir.resolve(name))) {
        for (Path p : (Iterable<Path>) parts.sorted()::iterator) {
          if (p.getFileName().toString().startsWith("part-")) {
            out.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
          }
        }
      }
    } else {
      out.addAll(Files.readAllLines(dir.resolve(name + ".jsonl"), StandardCharsets.UTF_8));
    }
    Collections.sort(out);
    return out;
  }

  /** The lines whose {@code field}, as JSON ({@code "abc"}, {@code 42}), is one of {@code ids}. */
  static List<String> only(List<String> lines, String field, Set<String> ids) throws IOException {
    List<String> out = new ArrayList<>();
    for (String l : lines) {
      if (ids.contains(JSON.readTree(l).get(field).toString())) {
        out.add(l);
      }
    }
    return out;
  }

  /** {@code id} as JSON, as {@link #only} compares ids. */
  static String json(String id) throws IOException {
    return JSON.writeValueAsString(id);
  }
}
