// SPDX-License-Identifier: Apache-2.0
package org.neardup.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release unpacked in a temporary directory runs with nothing but java on the PATH: no Maven,
 * no source tree, no JAVA_HOME.
 */
class DistributionIT {
  @TempDir Path work;

  @Test
  void layout_isBinLibLicenseNoticeReadmeSystemd() throws IOException {
    Release r = Release.get();
    assertThat(r.home.resolve("bin/neardup")).isExecutable();
    assertThat(Files.getPosixFilePermissions(r.home.resolve("bin/neardup")))
        .contains(PosixFilePermission.OTHERS_EXECUTE);
    assertThat(r.home.resolve("bin/java-defaults.sh")).isRegularFile();
    for (String f : List.of("LICENSE", "NOTICE", "README.md", "systemd/neardup.service")) {
      assertThat(r.home.resolve(f)).isRegularFile();
    }
    assertThat(r.home.resolve("clients/python/pyproject.toml")).isRegularFile();
    try (Stream<Path> lib = Files.list(r.home.resolve("lib"))) {
      List<String> jars = lib.map(p -> p.getFileName().toString()).collect(Collectors.toList());
      assertThat(jars).contains("neardup-cli-" + r.version + ".jar");
      assertThat(jars).allMatch(j -> j.endsWith(".jar"));
      // No test code: no JUnit, no AssertJ, no testkit.
      assertThat(jars)
          .noneMatch(
              j -> j.startsWith("junit") || j.startsWith("assertj") || j.contains("testkit"));
    }
  }

  @Test
  void help_runsWithoutMavenOrSourceTree() throws IOException {
    Release r = Release.get();
    assertThat(Release.which("mvn")).as("this test is meaningful where mvn exists").isNotNull();
    Release.Run run = r.neardup(work, Map.of(), "--help");
    assertThat(run.exit()).as("%s", run).isZero();
    assertThat(run.out()).contains("Usage: neardup").contains("dedup").contains("serve");
    Release.Run version = r.neardup(work, Map.of(), "--version");
    assertThat(version.exit()).as("%s", version).isZero();
    assertThat(version.out()).contains(r.version);
  }

  /**
   * bin/neardup makes a class-data archive in the user's cache on first use (bin/cds.sh), since
   * lib/ may be read-only, and runs with it: the same output as without it.
   */
  @Test
  void fingerprint_classDataArchive_madeInTheCacheAndSameOutput() throws IOException {
    Release r = Release.get();
    Files.writeString(
        work.resolve("one.jsonl"),
        "{\"id\": \"x\", \"text\": \"今天上午，市政府召开新闻发布会，介绍了江南style的新进展 and more.\"}\n");
    Release.Run with = r.neardup(work, Map.of(), "fingerprint", "one.jsonl");
    assertThat(with.exit()).as("%s", with).isZero();
    Path cache = r.scratch.resolve(".cache/neardup");
    Path archive;
    try (Stream<Path> files = Files.list(cache)) {
      List<Path> archives =
          files.filter(p -> p.toString().endsWith(".jsa")).collect(Collectors.toList());
      assertThat(archives).hasSize(1);
      archive = archives.get(0);
      assertThat(Files.size(archive)).isPositive();
    }
    // With -Xshare:on the JVM stops instead of running without an archive it cannot map (another
    // class path, another JDK): the archive bin/neardup made must be one this JDK maps.
    Release.Run mapped =
        Release.Run.of(
            r.command(
                work,
                List.of(
                    r.pathDir.resolve("java").toString(),
                    "-Xshare:on",
                    "-XX:SharedArchiveFile=" + archive,
                    "-cp",
                    r.home.toRealPath() + "/lib/*",
                    "org.neardup.cli.Main",
                    "fingerprint",
                    "one.jsonl")),
            300);
    assertThat(mapped.exit()).as("%s", mapped).isZero();
    assertThat(mapped.out()).isEqualTo(with.out());
    Release.Run again = r.neardup(work, Map.of(), "fingerprint", "one.jsonl");
    Release.Run without = r.neardup(work, Map.of("NEARDUP_CDS", "0"), "fingerprint", "one.jsonl");
    assertThat(again.out())
        .isEqualTo(with.out())
        .isEqualTo(without.out())
        .startsWith("{\"id\":\"x\"");
  }

  /** The release has no Spark: bin/neardup spark says how to run the job instead. */
  @Test
  void spark_notInTheRelease_saysWhereItIs() throws IOException {
    Release.Run run = Release.get().neardup(work, Map.of(), "spark", "dedup", "x.jsonl");
    assertThat(run.exit()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("spark-submit").contains("neardup-spark.jar");
  }

  @Test
  void dedup_smallCorpus_findsTheRepost() throws IOException {
    Release r = Release.get();
    String base =
        "The night train to Lisbon left twenty minutes late, and nobody on the platform seemed"
            + " surprised. A porter shrugged, lit a cigarette and said the same thing happens"
            + " every Tuesday.";
    Files.writeString(
        work.resolve("docs.jsonl"),
        String.join(
            "\n",
            "{\"id\": \"a\", \"text\": \"" + base + "\"}",
            "{\"id\": \"b\", \"text\": \"Our bakery opens at 7 am and closes at 6 pm, Monday to"
                + " Saturday. Fresh rye bread every morning, croissants until they run out.\"}",
            "{\"id\": \"c\", \"text\": \"" + base + " Read more at example.org/travel\"}",
            "{\"id\": \"d\", \"text\": \"今天上午，市政府召开新闻发布会，介绍了今年城市公共交通建设的最新进展。\"}",
            ""),
        StandardCharsets.UTF_8);
    Release.Run run = r.neardup(work, Map.of(), "dedup", "docs.jsonl", "--out", "out", "--json");
    assertThat(run.exit()).as("%s", run).isZero();
    assertThat(run.out()).contains("\"documents\":4").contains("\"duplicates\":1");
    List<String> dups = Files.readAllLines(work.resolve("out/duplicates.jsonl"));
    assertThat(dups).hasSize(1);
    assertThat(dups.get(0)).startsWith("{\"id\": \"c\"");
  }

  @Test
  void serve_tokenAndSigterm_answersThenDrainsAndExits143() throws Exception {
    Release r = Release.get();
    Path data = work.resolve("data");
    try (Service s = Service.start(r, data, Map.of("NEARDUP_TOKEN", "t0ken"))) {
      assertThat(s.listening).contains("0 documents");
      HttpClient http = HttpClient.newHttpClient();
      HttpRequest.Builder health =
          HttpRequest.newBuilder(URI.create(s.url + "/health")).timeout(Duration.ofSeconds(30));
      assertThat(http.send(health.build(), HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(401);
      HttpResponse<String> ok =
          http.send(
              health.header("Authorization", "Bearer t0ken").build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(ok.statusCode()).isEqualTo(200);
      HttpResponse<String> insert =
          http.send(
              HttpRequest.newBuilder(URI.create(s.url + "/v1/collections/default/documents"))
                  .header("Authorization", "Bearer t0ken")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"id\": \"a\", \"text\": \"A text that the service stores and keeps"
                              + " across a restart.\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(insert.statusCode()).as(insert.body()).isEqualTo(200);
      // What systemd does on stop: SIGTERM, then the exit code neardup.service counts as success.
      assertThat(s.stop()).isEqualTo(143);
      assertThat(s.stderr()).contains("neardup: stopped in");
    }
    try (Service again = Service.start(r, data, Map.of())) {
      assertThat(again.listening).contains("1 documents");
      again.stop();
    }
  }

  @Test
  void systemdUnit_verifiesCleanly() throws IOException {
    Release r = Release.get();
    Path analyze = Release.which("systemd-analyze");
    assertThat(analyze).as("systemd-analyze (Debian: apt-get install systemd)").isNotNull();
    // The unit as installed, but with ExecStart pointing at this unpacked release, which
    // systemd-analyze requires to exist.
    String unit =
        Release.read(r.home.resolve("systemd/neardup.service"))
            .replace("/opt/neardup/bin/neardup", r.home.resolve("bin/neardup").toString());
    Path copy = work.resolve("neardup.service");
    Files.writeString(copy, unit, StandardCharsets.UTF_8);
    ProcessBuilder pb = new ProcessBuilder(analyze.toString(), "verify", copy.toString());
    pb.environment().put("SYSTEMD_LOG_LEVEL", "notice");
    Release.Run run = Release.Run.of(pb, 120);
    assertThat(run.exit()).as("%s", run).isZero();
    // systemd-analyze exits 0 on unknown keys and bad values, and says so: nothing may be said.
    assertThat(run.out() + run.err()).as("%s", run).isBlank();
    assertThat(unit)
        .contains("TimeoutStopSec=120")
        .contains("--shutdown-timeout 30s")
        .contains("SuccessExitStatus=143")
        .contains("Restart=on-failure")
        .contains("EnvironmentFile=-/etc/neardup/neardup.env");
  }
}
