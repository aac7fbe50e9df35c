// SPDX-License-Identifier: Apache-2.0
package org.neardup.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every source file and script of the tree starts with the SPDX line: Java on its first line
 * ({@code // SPDX-License-Identifier: Apache-2.0}), scripts (shell, Python, Lua, and any file that
 * starts with #!) on their first line or the one after the #! line.
 */
class SourceHeadersTest {
  static final String SPDX = "SPDX-License-Identifier: Apache-2.0";

  /** Not ours: the development set's scorer, kept verbatim to count as the dataset does. */
  static final Set<String> EXEMPT = Set.of("eval/src/test/resources/score.py");

  static final Set<String> SKIPPED_DIRS =
      Set.of(".git", "target", "__pycache__", "node_modules", ".idea", "work", "out");

  static List<String> missingSpdx(Path root) throws IOException {
    List<String> missing = new ArrayList<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
            return !dir.equals(root) && (SKIPPED_DIRS.contains(name) || name.endsWith(".egg-info"))
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            String rel = root.relativize(file).toString().replace('\\', '/');
            if (!attrs.isRegularFile() || EXEMPT.contains(rel)) {
              return FileVisitResult.CONTINUE;
            }
            String problem = check(file);
            if (problem != null) {
              missing.add(rel + ": " + problem);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return missing;
  }

  /** Why {@code file} lacks its SPDX line, or null when it has it or needs none. */
  static String check(Path file) throws IOException {
    String name = file.getFileName().toString();
    boolean java = name.endsWith(".java");
    boolean script =
        name.endsWith(".sh") || name.endsWith(".py") || name.endsWith(".lua") || shebang(file);
    if (!java && !script) {
      return null;
    }
    List<String> head = new ArrayList<>();
    try (var lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String l = lines.readLine(); l != null && head.size() < 2; l = lines.readLine()) {
        head.add(l);
      }
    }
    if (java) {
      return !head.isEmpty() && head.get(0).equals("// " + SPDX)
          ? null
          : "the first line must be '// " + SPDX + "'";
    }
    int at = !head.isEmpty() && head.get(0).startsWith("#!") ? 1 : 0;
    String line = head.size() > at ? head.get(at) : "";
    return line.equals("# " + SPDX) || line.equals("-- " + SPDX)
        ? null
        : "line " + (at + 1) + " must be '# " + SPDX + "' (or '-- ' in Lua)";
  }

  private static boolean shebang(Path file) throws IOException {
    if (Files.size(file) < 2) {
      return false;
    }
    try (var in = Files.newInputStream(file)) {
      byte[] two = in.readNBytes(2);
      return two[0] == '#' && two[1] == '!';
    }
  }

  @Test
  void everySourceFileAndScript_startsWithTheSpdxLine() throws IOException {
    Path root = Release.root();
    assertThat(root.resolve("pom.xml")).exists();
    assertThat(missingSpdx(root)).isEmpty();
  }

  @Test
  void check_fileWithoutTheLine_isReported(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    Files.writeString(dir.resolve("A.java"), "package a;\n");
    Files.writeString(dir.resolve("B.java"), "// " + SPDX + "\npackage b;\n");
    Files.writeString(dir.resolve("run"), "#!/bin/sh\necho hi\n");
    Files.writeString(dir.resolve("ok"), "#!/bin/sh\n# " + SPDX + "\necho hi\n");
    Files.writeString(dir.resolve("x.py"), "print(1)\n");
    Files.writeString(dir.resolve("notes.txt"), "no header needed\n");
    Files.createDirectories(dir.resolve("target"));
    Files.writeString(dir.resolve("target/C.java"), "class C {}\n");
    assertThat(missingSpdx(dir))
        .extracting(s -> s.substring(0, s.indexOf(':')))
        .containsExactlyInAnyOrder("A.java", "run", "x.py");
  }
}
