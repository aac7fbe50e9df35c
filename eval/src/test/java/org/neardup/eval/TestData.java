// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** The tiny dataset of the test resources and the scorer script, for the eval tests. */
final class TestData {
  private TestData() {}

  /** {@code src/test/resources/tiny}: 18 short texts written for these tests (see make.py). */
  static Path tinyDir() {
    try {
      return Path.of(TestData.class.getResource("/tiny/docs.jsonl").toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Dataset tiny() {
    try {
      return Dataset.read(tinyDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The official scorer when this checkout sits next to the team's shared directory ({@code
   * ../shared/data/score.py} from the repository root), else the copy in the test resources.
   */
  static Path scorePy() {
    Path official = officialScorePy();
    if (official != null) {
      return official;
    }
    try {
      return Path.of(TestData.class.getResource("/score.py").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static @Nullable Path officialScorePy() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path p = dir.resolve("shared/data/score.py");
      if (Files.isRegularFile(p)) {
        return p;
      }
    }
    return null;
  }

  /** Whether {@code python3 --version} runs. */
  static boolean hasPython() {
    try {
      Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
