// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The images come out stored, every entry with the same bytes, in the same order. */
class StoredImagesTest {
  @TempDir Path dir;

  private static final String SEG = "org/neardup/segment/jieba/" + JiebaImage.SEGMENTER;
  private static final String IDF = "org/neardup/segment/jieba/" + JiebaImage.IDF;

  private Map<String, byte[]> entries() {
    Random random = new Random(7);
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put(
        "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n".getBytes(StandardCharsets.UTF_8));
    entries.put("org/neardup/segment/jieba/", new byte[0]);
    byte[] image = new byte[300_000];
    random.nextBytes(image);
    entries.put(SEG, image);
    entries.put(
        "org/neardup/segment/jieba/A.class",
        "cafebabe".repeat(100).getBytes(StandardCharsets.US_ASCII));
    entries.put(IDF, "idf".repeat(50_000).getBytes(StandardCharsets.UTF_8));
    entries.put("z/last.txt", new byte[] {1, 2, 3});
    return entries;
  }

  private Path jar(Map<String, byte[]> entries) throws IOException {
    Path jar = dir.resolve("x.jar");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        ZipEntry z = new ZipEntry(e.getKey());
        z.setTime(1_700_000_000_000L);
        out.putNextEntry(z);
        out.write(e.getValue());
        out.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void rewrite_jarWithImages_imagesStoredEverythingElseTheSame() throws IOException {
    Map<String, byte[]> entries = entries();
    Path jar = jar(entries);
    assertThat(StoredImages.rewrite(jar)).isTrue();
    List<String> names = new ArrayList<>();
    try (ZipFile z = new ZipFile(jar.toFile())) {
      for (var e = z.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        names.add(entry.getName());
        try (InputStream in = z.getInputStream(entry)) {
          assertThat(in.readAllBytes()).as(entry.getName()).isEqualTo(entries.get(entry.getName()));
        }
        boolean image = entry.getName().equals(SEG) || entry.getName().equals(IDF);
        assertThat(entry.getMethod() == ZipEntry.STORED).as(entry.getName()).isEqualTo(image);
        assertThat(entry.getTime()).isEqualTo(1_700_000_000_000L);
      }
    }
    assertThat(names).containsExactlyElementsOf(entries.keySet());
    // Once stored, a second run has nothing to do.
    assertThat(StoredImages.rewrite(jar)).isFalse();
  }

  @Test
  void rewrite_jarWithoutImages_unchanged() throws IOException {
    Map<String, byte[]> entries = entries();
    entries.remove(SEG);
    entries.remove(IDF);
    Path jar = jar(entries);
    byte[] before = Files.readAllBytes(jar);
    assertThat(StoredImages.rewrite(jar)).isFalse();
    assertThat(Files.readAllBytes(jar)).isEqualTo(before);
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(jar);
    }
  }
}
