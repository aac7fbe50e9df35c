// SPDX-License-Identifier: Apache-2.0
package org.neardup.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * What the release bundles is listed in build/legal/bundled-licences.csv, each under a licence
 * whose text the release carries, and every bundled NOTICE reaches the release's NOTICE; the same
 * for the single jar cli/target/neardup.jar. Every jar of ours carries LICENSE and NOTICE.
 */
class BundledLicencesIT {
  /**
   * The licences whose texts LICENSE (the project's plus build/legal/LICENSE-third-party) holds.
   */
  private static final Map<String, String> LICENCE_TEXTS =
      Map.of(
          "Apache-2.0", "Apache License",
          "MIT", "Permission is hereby granted, free of charge",
          "BSD-3-Clause", "Neither the name of the copyright holder",
          "BSD-2-Clause", "BSD 2-Clause License",
          "CC0-1.0", "creativecommons.org/publicdomain/zero/1.0",
          "LicenseRef-Public-Domain", "released into the public domain");

  static Map<String, String> listed() throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (String line :
        Files.readAllLines(Release.root().resolve("build/legal/bundled-licences.csv"))) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int comma = line.indexOf(',');
      assertThat(comma).as("line '%s': groupId:artifactId,licence", line).isPositive();
      String previous = out.put(line.substring(0, comma).trim(), line.substring(comma + 1).trim());
      assertThat(previous).as("listed twice: %s", line).isNull();
    }
    return out;
  }

  /**
   * groupId:artifactId of each jar in lib/, by file name: dependency:list wrote what the release
   * bundles to target/bundled-artifacts.txt, and the file names in lib/ must be exactly those.
   */
  static Map<String, String> libJars(Release r) throws IOException {
    Map<String, String> byFile = new TreeMap<>();
    Pattern line =
        Pattern.compile("^\\s*([^:\\s]+):([^:\\s]+):jar:([^:\\s]+):(compile|runtime)\\b.*");
    for (String l : Files.readAllLines(Paths.get(System.getProperty("neardup.bundled", "none")))) {
      Matcher m = line.matcher(l);
      if (m.matches()) {
        byFile.put(m.group(2) + "-" + m.group(3) + ".jar", m.group(1) + ":" + m.group(2));
      }
    }
    assertThat(byFile).as("target/bundled-artifacts.txt").isNotEmpty();
    Set<String> files;
    try (Stream<Path> lib = Files.list(r.home.resolve("lib"))) {
      files =
          lib.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
    }
    assertThat(files).isEqualTo(byFile.keySet());
    return byFile;
  }

  static Set<String> classes(Path jar) throws IOException {
    try (JarFile j = new JarFile(jar.toFile())) {
      return j.stream()
          .map(ZipEntry::getName)
          .filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  static String entry(JarFile jar, String name) throws IOException {
    ZipEntry z = jar.getEntry(name);
    if (z == null) {
      return null;
    }
    try (InputStream in = jar.getInputStream(z)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void release_bundlesExactlyTheListedArtifacts_eachUnderALicenceWhoseTextItCarries()
      throws IOException {
    Release r = Release.get();
    Map<String, String> listed = listed();
    Set<String> bundled = new TreeSet<>();
    for (String c : libJars(r).values()) {
      if (!c.startsWith("org.neardup:")) {
        bundled.add(c);
      }
    }
    Set<String> unlisted = new TreeSet<>(bundled);
    unlisted.removeAll(listed.keySet());
    assertThat(unlisted)
        .as(
            "bundled in lib/ but not in build/legal/bundled-licences.csv: add each with its"
                + " licence, after reading it")
        .isEmpty();
    // Listed but not bundled: fine (a module of another branch, or optional), only reported.
    Set<String> notBundled = new TreeSet<>(listed.keySet());
    notBundled.removeAll(bundled);
    if (!notBundled.isEmpty()) {
      System.err.println("listed in build/legal/bundled-licences.csv, not bundled: " + notBundled);
    }

    String licence = Release.read(r.home.resolve("LICENSE"));
    for (Map.Entry<String, String> e : listed.entrySet()) {
      for (String id : e.getValue().split(" OR | AND ")) {
        assertThat(LICENCE_TEXTS)
            .as("%s is under %s, a licence this test does not know yet", e.getKey(), id)
            .containsKey(id);
        assertThat(licence)
            .as("LICENSE holds the text of %s (%s)", id, e.getKey())
            .contains(LICENCE_TEXTS.get(id));
      }
      if (!e.getValue().equals("Apache-2.0")) {
        assertThat(licence)
            .as("LICENSE names %s, which is not under Apache-2.0", e.getKey())
            .contains(e.getKey());
      }
    }
  }

  @Test
  void release_noticeHoldsEveryBundledNotice_andEveryJarOfOursCarriesLicenseAndNotice()
      throws IOException {
    Release r = Release.get();
    String notice = Release.read(r.home.resolve("NOTICE"));
    assertThat(notice).startsWith(Release.read(Release.root().resolve("NOTICE")));
    for (Map.Entry<String, String> e : libJars(r).entrySet()) {
      Path jar = r.home.resolve("lib").resolve(e.getKey());
      try (JarFile j = new JarFile(jar.toFile())) {
        String own = entry(j, "META-INF/NOTICE");
        if (own == null) {
          own = entry(j, "META-INF/NOTICE.txt");
        }
        if (own == null) {
          own = entry(j, "META-INF/NOTICE.md");
        }
        if (e.getValue().startsWith("org.neardup:")) {
          assertThat(entry(j, "META-INF/LICENSE")).as("%s LICENSE", jar).contains("Apache License");
          assertThat(own).as("%s NOTICE", jar).contains("neardup");
        } else if (own != null) {
          assertLinesIn(own, notice, jar.getFileName() + " META-INF/NOTICE", "NOTICE");
        }
      }
    }
  }

  @Test
  void shadedJar_bundlesTheSameArtifacts_withMergedLicenceAndNotice() throws IOException {
    Release r = Release.get();
    Path shaded = Release.root().resolve("cli/target/neardup.jar");
    assertThat(shaded).exists();
    Set<String> inShaded = new TreeSet<>();
    try (JarFile j = new JarFile(shaded.toFile())) {
      for (Enumeration<? extends ZipEntry> e = j.entries(); e.hasMoreElements(); ) {
        String n = e.nextElement().getName();
        assertThat(n).as("test code in neardup.jar").doesNotStartWith("org/junit/");
        assertThat(n).doesNotStartWith("org/assertj/").doesNotStartWith("org/neardup/testkit/");
        if (n.endsWith(".class") && !n.endsWith("module-info.class")) {
          inShaded.add(n);
        }
      }
      String licence = entry(j, "META-INF/LICENSE");
      assertThat(licence).isEqualTo(Release.read(r.home.resolve("LICENSE")));
      String notice = entry(j, "META-INF/NOTICE");
      assertThat(notice).isEqualTo(Release.read(r.home.resolve("NOTICE")));
      // jieba's MIT notice, with the data it covers.
      assertThat(entry(j, "org/neardup/segment/jieba/NOTICE.txt"))
          .contains("Sun Junyi")
          .contains("Permission is hereby granted");
    }
    // The same code: the classes of lib/'s jars are those of neardup.jar.
    Set<String> inLib = new TreeSet<>();
    for (String file : libJars(r).keySet()) {
      inLib.addAll(classes(r.home.resolve("lib").resolve(file)));
    }
    Set<String> onlyShaded = new TreeSet<>(inShaded);
    onlyShaded.removeAll(inLib);
    Set<String> onlyLib = new TreeSet<>(inLib);
    onlyLib.removeAll(inShaded);
    assertThat(onlyShaded).as("classes in neardup.jar from no jar of lib/").isEmpty();
    assertThat(onlyLib).as("classes of lib/ missing from neardup.jar").isEmpty();
  }

  private static void assertLinesIn(String part, String whole, String what, String where) {
    Set<String> wholeLines =
        whole.lines().map(String::strip).collect(Collectors.toCollection(TreeSet::new));
    List<String> missing =
        part.lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty() && !wholeLines.contains(l))
            .collect(Collectors.toList());
    assertThat(missing)
        .as("lines of %s missing from %s (add them to build/legal/NOTICE-third-party)", what, where)
        .isEmpty();
  }
}
