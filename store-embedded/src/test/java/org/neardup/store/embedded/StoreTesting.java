// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;

/** Shared helpers of the embedded store's tests. */
final class StoreTesting {
  static final CollectionSettings SETTINGS =
      CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON);

  private StoreTesting() {}

  static Document doc(Collection c, String id, String text) {
    return new Document(id, c.analyzer().analyze(text));
  }

  /** Files in dir whose names match the glob-free suffix, sorted. */
  static List<Path> files(Path dir, String suffix) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().forEach(out::add);
    }
    return out;
  }

  static Path onlyFile(Path dir, String suffix) throws IOException {
    List<Path> f = files(dir, suffix);
    if (f.size() != 1) {
      throw new AssertionError("expected one *" + suffix + " in " + dir + ", found " + f);
    }
    return f.get(0);
  }

  static Path lastFile(Path dir, String suffix) throws IOException {
    List<Path> f = files(dir, suffix);
    return f.get(f.size() - 1);
  }
}
