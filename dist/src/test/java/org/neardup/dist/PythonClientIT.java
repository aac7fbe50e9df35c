// SPDX-License-Identifier: Apache-2.0
package org.neardup.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python client's suite (clients/python/tests, as the release ships it) against a real {@code
 * bin/neardup serve} of the release, and pip installing the client from the release's folder with
 * no package index. Fails the build when the suite fails, runs no test, or skips one.
 */
class PythonClientIT {
  @TempDir Path work;

  /** The python3 of the release's PATH (ProcessBuilder looks programs up in this JVM's PATH). */
  private static String python(Release r) {
    return r.pathDir.resolve("python3").toString();
  }

  @Test
  void pythonSuite_againstTheReleasesService_passesEveryTest() throws Exception {
    Release r = Release.get();
    assertThat(r.pathDir.resolve("python3")).as("python3 on the PATH").exists();
    Path client = r.home.resolve("clients/python");
    try (Service s =
        Service.start(
            r,
            work.resolve("data"),
            Map.of("NEARDUP_TOKEN", "py-t0ken"),
            "--max-queued-bytes",
            "65536",
            "--max-in-flight",
            "2")) {
      ProcessBuilder pb =
          r.command(client, List.of(python(r), "-m", "unittest", "discover", "-s", "tests", "-v"));
      pb.environment()
          .putAll(
              Map.of(
                  "NEARDUP_URL",
                  s.url,
                  "NEARDUP_TOKEN",
                  "py-t0ken",
                  "PYTHONPATH",
                  client.resolve("src").toString(),
                  "PYTHONDONTWRITEBYTECODE",
                  "1"));
      Release.Run run = Release.Run.of(pb, 600);
      String report = run.err();
      assertThat(run.exit()).as("%s", run).isZero();
      Matcher ran = Pattern.compile("Ran (\\d+) tests?").matcher(report);
      assertThat(ran.find()).as("%s", run).isTrue();
      assertThat(Integer.parseInt(ran.group(1))).as("tests run").isGreaterThanOrEqualTo(14);
      assertThat(report).as("%s", run).contains("\nOK").doesNotContain("skipped");
      s.stop();
    }
  }

  @Test
  void pipInstall_noIndexNoBuildIsolation_installsAnImportablePackage() throws Exception {
    Release r = Release.get();
    Path target = work.resolve("site");
    ProcessBuilder pip =
        r.command(
            work,
            List.of(
                python(r),
                "-m",
                "pip",
                "install",
                "--no-index",
                "--no-build-isolation",
                "--no-cache-dir",
                "--disable-pip-version-check",
                "--target",
                target.toString(),
                r.home.resolve("clients/python").toString()));
    pip.environment().put("PIP_CONFIG_FILE", "/dev/null");
    Release.Run run = Release.Run.of(pip, 300);
    assertThat(run.exit()).as("%s", run).isZero();
    ProcessBuilder py =
        r.command(
            work,
            List.of(
                python(r),
                "-c",
                "import neardup, dataclasses;"
                    + " print(neardup.__version__, neardup.__file__,"
                    + " dataclasses.is_dataclass(neardup.Result))"));
    py.environment().put("PYTHONPATH", target.toString());
    Release.Run imported = Release.Run.of(py, 60);
    assertThat(imported.exit()).as("%s", imported).isZero();
    assertThat(imported.out()).startsWith("0.1.0 " + target.resolve("neardup")).contains("True");
  }
}
