// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Golden segmentations written by {@code segment-jieba/data/make_golden.py} with Python jieba
 * 0.42.1: one Han run per line, its words separated by single spaces.
 */
final class Golden {
  /** Real text: 29,268 distinct runs, 200,000 chars. */
  static final String REAL = "golden-jieba-0.42.1.txt.gz";

  /** 5,000 random runs built to hit corner cases (make_golden.py --synthetic). */
  static final String SYNTHETIC = "golden-synthetic-jieba-0.42.1.txt.gz";

  private Golden() {}

  /** A committed golden file, as lists of words. */
  static List<List<String>> resource(String name) {
    InputStream in = Golden.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("test resource " + name + " is missing");
    }
    return read(in);
  }

  static List<List<String>> read(Path path) {
    try {
      return read(Files.newInputStream(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<List<String>> read(InputStream raw) {
    List<List<String>> runs = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(new GZIPInputStream(raw), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isEmpty()) {
          runs.add(List.of(line.split(" ", -1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return runs;
  }
}
