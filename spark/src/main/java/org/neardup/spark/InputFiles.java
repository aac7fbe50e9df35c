// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The inputs of a run, expanded on the driver into files in the order {@code neardup dedup} reads
 * them: the arguments in order; a glob's matches and a directory's files (every .txt, .html, .htm
 * and .md below, each one document) in path order. The input order decides the representatives, so
 * it must not depend on how a file system lists a directory.
 */
final class InputFiles {
  /** How a file is read. */
  enum Format {
    AUTO,
    JSONL,
    LINES,
    FILES,
    PARQUET;

    static Format parse(String s) {
      try {
        return valueOf(s.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--format must be auto, jsonl, lines, files or parquet, got '" + s + "'");
      }
    }
  }

  /**
   * One input file.
   *
   * @param path where it is (a Hadoop path)
   * @param name how ids and messages name it: the argument as given, or the matched path
   * @param relative for a file found in a directory, its path below the directory (its id)
   */
  record File(String path, String name, String relative, Format format, long size, boolean gzip)
      implements Serializable {}

  private InputFiles() {}

  static List<File> expand(List<String> args, Format format, Configuration conf)
      throws IOException {
    if (args.isEmpty()) {
      throw new IOException("no input given");
    }
    List<File> files = new ArrayList<>();
    for (String arg : args) {
      Path p = new Path(arg);
      FileSystem fs = p.getFileSystem(conf);
      FileStatus[] matches = fs.globStatus(p);
      if (matches == null || matches.length == 0) {
        throw new FileNotFoundException(arg + ": no such file or directory");
      }
      boolean literal = matches.length == 1 && !hasGlob(arg);
      java.util.Arrays.sort(matches, Comparator.comparing(s -> s.getPath().toString()));
      for (FileStatus m : matches) {
        String name = literal ? arg : m.getPath().toUri().getPath();
        if (m.isDirectory()) {
          if (format != Format.AUTO && format != Format.FILES) {
            throw new IOException(
                name
                    + ": is a directory, but --format is "
                    + format.name().toLowerCase(Locale.ROOT));
          }
          List<LocatedFileStatus> found = new ArrayList<>();
          RemoteIterator<LocatedFileStatus> it = fs.listFiles(m.getPath(), true);
          while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            if (f.isFile() && isDocumentFile(f.getPath().getName())) {
              found.add(f);
            }
          }
          found.sort(Comparator.comparing(s -> s.getPath().toString()));
          String base = m.getPath().toUri().getPath();
          for (LocatedFileStatus f : found) {
            String full = f.getPath().toUri().getPath();
            String rel = full.substring(base.length() + 1);
            String location = (name.endsWith("/") ? name : name + "/") + rel;
            files.add(
                new File(
                    f.getPath().toString(), location, rel, Format.FILES, f.getLen(), isGzip(rel)));
          }
        } else {
          files.add(
              new File(
                  m.getPath().toString(),
                  name,
                  m.getPath().getName(),
                  formatOf(m.getPath().getName(), format),
                  m.getLen(),
                  isGzip(m.getPath().getName())));
        }
      }
    }
    return files;
  }

  private static boolean hasGlob(String s) {
    return s.indexOf('*') >= 0 || s.indexOf('?') >= 0 || s.indexOf('[') >= 0 || s.indexOf('{') >= 0;
  }

  private static boolean isGzip(String name) {
    return name.toLowerCase(Locale.ROOT).endsWith(".gz");
  }

  private static boolean isDocumentFile(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".gz")) {
      n = n.substring(0, n.length() - 3);
    }
    return n.endsWith(".txt") || n.endsWith(".html") || n.endsWith(".htm") || n.endsWith(".md");
  }

  static Format formatOf(String fileName, Format format) {
    if (format != Format.AUTO) {
      return format;
    }
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    if (name.endsWith(".parquet")) {
      return Format.PARQUET;
    }
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson") || name.endsWith(".json")) {
      return Format.JSONL;
    }
    if (name.endsWith(".html") || name.endsWith(".htm") || name.endsWith(".md")) {
      return Format.FILES;
    }
    return Format.LINES;
  }
}
