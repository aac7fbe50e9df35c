// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.server.ServerConfig;

/**
 * {@code neardup serve}'s options have one definition: the help {@code serve --help} prints is
 * {@link ServerConfig#usage()}, every option it names is one {@link ServerConfig#parse} takes, the
 * defaults it states are the ones the code uses, and the README's synopsis names no other option.
 */
class ServeOptionsTest {
  @TempDir Path tmp;

  private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--([a-z][a-z-]+)");

  private static Set<String> options(String text) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = OPTION.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void serveHelp_isTheServersUsage() {
    CliRunner r = CliRunner.run("serve", "--help");
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(r.out.strip()).isEqualTo(ServerConfig.usage().strip());
    assertThat(CliRunner.run("serve", "-h").out.strip()).isEqualTo(ServerConfig.usage().strip());
  }

  @Test
  void everyOptionInTheHelp_isParsed() throws IOException {
    Path token = Files.writeString(tmp.resolve("token"), "t\n");
    Map<String, String> values =
        Map.ofEntries(
            Map.entry("data", tmp.toString()),
            Map.entry("host", "127.0.0.1"),
            Map.entry("port", "0"),
            Map.entry("token", "t"),
            Map.entry("token-file", token.toString()),
            Map.entry("fsync", "interval"),
            Map.entry("fsync-interval", "10ms"),
            Map.entry("collection", "c"),
            Map.entry("store", "embedded"),
            Map.entry("store-option", "snapshot-bytes=1000000"),
            Map.entry("retention", "48h"),
            Map.entry("retention-basis", "arrival"),
            Map.entry("k", "4"),
            Map.entry("max-distance", "4"),
            Map.entry("threshold", "0.7"),
            Map.entry("verify", "true"),
            Map.entry("preset", "web"),
            Map.entry("numbers", "fold"),
            Map.entry("html", "main"),
            Map.entry("volatile-lines", "drop"),
            Map.entry("top-n", "32"),
            Map.entry("sketch-capacity", "1024"),
            Map.entry("scheme", "5:2"),
            Map.entry("lexicon", "none"),
            Map.entry("han", "keep"),
            Map.entry("max-request-bytes", "100000"),
            Map.entry("max-batch", "10"),
            Map.entry("max-in-flight", "10"),
            Map.entry("max-queued-bytes", "3000000000"),
            Map.entry("workers", "3"),
            Map.entry("io-threads", "3"),
            Map.entry("shutdown-timeout", "5s"),
            Map.entry("max-collections", "5"),
            Map.entry("max-k", "8"),
            Map.entry("request-timeout", "5s"),
            Map.entry("idle-timeout", "5s"));
    Set<String> named = options(ServerConfig.usage());
    named.removeAll(
        Set.of("help", "user-dict", "idf", "tls-cert", "tls-key")); // need files or exit
    assertThat(values.keySet()).containsAll(named);
    for (String o : named) {
      ServerConfig.parse(new String[] {"--" + o, values.get(o)}, Map.of());
    }
  }

  @Test
  void defaultsStatedInTheHelp_areTheCodes() {
    ServerConfig c = ServerConfig.parse(new String[0], Map.of());
    int cores = Runtime.getRuntime().availableProcessors();
    String usage = ServerConfig.usage();
    assertThat(usage).contains("--workers N             worker threads (1 per core, at least 2;");
    assertThat(usage).contains("on a pool of as many threads of their own (the singles pool)");
    assertThat(c.workerThreads()).isEqualTo(Math.max(2, cores));
    assertThat(usage).contains("--io-threads N          I/O threads (1 per core, at least 2)");
    assertThat(c.ioThreads()).isEqualTo(Math.max(2, cores));
    assertThat(usage).contains("(" + c.maxInFlight() + ")").contains("(" + c.maxBatch() + ")");
    assertThat(usage).contains("(" + c.maxRequestBytes() + ")");
    assertThat(usage).contains("(" + c.maxQueuedBytes() + ")");
    assertThat(usage).contains("(" + c.port() + ")").contains("(" + c.host() + ")");
    assertThat(usage).contains("(" + c.defaults().analysis().topN() + ")");
    assertThat(usage).contains("(" + c.defaults().analysis().sketchCapacity() + ")");
    assertThat(usage).contains("(" + c.guards().maxK() + ")");
    assertThat(usage).contains("(" + c.guards().maxCollections() + ")");
  }

  @Test
  void readmeSynopsis_namesOnlyOptionsOfTheHelp() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    String readme = Files.readString(root.resolve("server/README.md"), StandardCharsets.UTF_8);
    int start = readme.indexOf("neardup serve [");
    assertThat(start).as("server/README.md has the serve synopsis").isPositive();
    String synopsis = readme.substring(start, readme.indexOf("neardup send", start));
    Set<String> usage = options(ServerConfig.usage());
    assertThat(usage).containsAll(options(synopsis));
    usage.removeAll(Set.of("help", "max-distance")); // a synopsis leaves out help and aliases
    assertThat(options(synopsis)).containsAll(usage);
  }

  @Test
  void badOption_exit2WithTheReason() {
    CliRunner r = CliRunner.run("serve", "--workers", "many");
    assertThat(r.exitCode).as(r.toString()).isEqualTo(2);
    assertThat(r.err).contains("--workers must be an integer, got 'many'");
    r = CliRunner.run("serve", "--store", "redis", "--data", "x");
    assertThat(r.exitCode).as(r.toString()).isEqualTo(2);
    assertThat(r.err).contains("--data is an option of the embedded store");
  }
}
