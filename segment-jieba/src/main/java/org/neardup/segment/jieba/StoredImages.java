// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites a jar so that {@link JiebaImage}'s two images are stored in it uncompressed: reading a
 * stored entry is a copy, where inflating the 12.3 MB of both cost 55-75 ms of a process's CPU
 * before its first fingerprint (docs/BENCHMARKS.md). The jar grows by about 6 MB. Every other entry
 * keeps its bytes, order, time and compression method.
 *
 * <p>Run by the build after the jar is made (segment-jieba's jar, the CLI's shaded jar): {@code
 * StoredImages JAR...}. A jar without the images is left as it is. Public only for the build to run
 * {@link #main}; not an API.
 */
public final class StoredImages {
  private static final String DIR = "org/neardup/segment/jieba/";

  private StoredImages() {}

  /** Rewrites each jar named in {@code args}. */
  public static void main(String[] args) throws IOException {
    for (String jar : args) {
      rewrite(Path.of(jar));
    }
  }

  private static boolean hasCompressedImage(Path jar) throws IOException {
    try (ZipFile in = new ZipFile(jar.toFile())) {
      for (String name : new String[] {DIR + JiebaImage.SEGMENTER, DIR + JiebaImage.IDF}) {
        ZipEntry e = in.getEntry(name);
        if (e != null && e.getMethod() != ZipEntry.STORED) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean isImage(String entryName) {
    return entryName.equals(DIR + JiebaImage.SEGMENTER) || entryName.equals(DIR + JiebaImage.IDF);
  }

  /** Rewrites {@code jar} in place (through a temporary file); returns whether it changed. */
  static boolean rewrite(Path jar) throws IOException {
    if (!hasCompressedImage(jar)) {
      return false;
    }
    Path tmp = jar.resolveSibling(jar.getFileName() + ".stored.tmp");
    boolean changed = false;
    try (ZipFile in = new ZipFile(jar.toFile());
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(tmp))) {
      for (Enumeration<? extends ZipEntry> e = in.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        byte[] data;
        try (InputStream s = in.getInputStream(entry)) {
          data = s.readAllBytes();
        }
        ZipEntry copy = new ZipEntry(entry.getName());
        copy.setTime(entry.getTime());
        if (entry.getExtra() != null) {
          copy.setExtra(entry.getExtra());
        }
        if (entry.getComment() != null) {
          copy.setComment(entry.getComment());
        }
        boolean store =
            entry.getMethod() == ZipEntry.STORED
                || (isImage(entry.getName()) && !entry.isDirectory());
        changed |= store && entry.getMethod() != ZipEntry.STORED;
        if (store) {
          CRC32 crc = new CRC32();
          crc.update(data);
          copy.setMethod(ZipEntry.STORED);
          copy.setSize(data.length);
          copy.setCompressedSize(data.length);
          copy.setCrc(crc.getValue());
        } else {
          copy.setMethod(ZipEntry.DEFLATED);
        }
        out.putNextEntry(copy);
        out.write(data);
        out.closeEntry();
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    if (changed) {
      Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } else {
      Files.delete(tmp);
    }
    return changed;
  }
}
