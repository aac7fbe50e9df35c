// SPDX-License-Identifier: Apache-2.0
package org.neardup.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.neardup.Deduplicator;
import org.neardup.Verdict;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * Reads one text per line from standard input and prints the lines that repeat an earlier one,
 * with the line they repeat: {@code java -cp ... org.neardup.examples.RepostFilter < posts.txt}.
 */
public final class RepostFilter {
  private final Deduplicator dedup =
      Deduplicator.builder().fingerprintSettings(FingerprintSettings.builder().build()).build();

  /** The line number (from 1) that {@code text} repeats, or 0 when it is new; stores it. */
  public long offer(long lineNumber, String text) {
    Verdict v = dedup.checkAndInsert(lineNumber, text);
    return v.isNew() ? 0 : v.cluster();
  }

  public static void main(String[] args) throws IOException {
    RepostFilter filter = new RepostFilter();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    long n = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      n++;
      long original = filter.offer(n, line);
      if (original != 0) {
        System.out.println("line " + n + " repeats line " + original);
      }
    }
  }
}
