// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a child process to print a line of its own that says it is ready (for example {@code
 * neardup dev hbase}'s {@code ready}), reading its standard output on another thread so that a
 * process that never prints it cannot hold the test past the timeout.
 */
public final class ReadyLine {
  private ReadyLine() {}

  /**
   * Whether {@code process} printed {@code line} on a line of its own within {@code timeout}; false
   * when it closed its output first or the time ran out (the caller then stops it).
   */
  public static boolean await(Process process, String line, Duration timeout)
      throws InterruptedException {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Boolean> seen =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                for (String l = out.readLine(); l != null; l = out.readLine()) {
                  if (l.equals(line)) {
                    return true;
                  }
                }
                return false;
              } catch (IOException e) {
                return false;
              }
            });
    try {
      return seen.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }
}
