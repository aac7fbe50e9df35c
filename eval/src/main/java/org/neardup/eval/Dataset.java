// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A labelled near-duplicate dataset in the layout of {@code shared/data/dev}: {@code docs.jsonl}
 * ({@code id, lang, len_class, text}) and {@code pairs.jsonl} ({@code a, b, jaccard, kind, lang,
 * len_class}), where a pair is a near-duplicate when its jaccard reaches the threshold. Pairs not
 * listed are below the dataset's floor and count as negatives.
 */
public final class Dataset {
  /** One document; {@code index} is its position in docs.jsonl. */
  public record Doc(int index, String id, String lang, String lenClass, String text) {}

  /** One listed pair, a < b by index. */
  public record Pair(int a, int b, double jaccard, String kind, String lang, String lenClass) {}

  /** The floor when {@code stats.json} does not give one: the published sets list J >= 0.5. */
  public static final double DEFAULT_FLOOR = 0.5;

  private final Path dir;
  private final List<Doc> docs;
  private final List<Pair> pairs;
  private final Map<Long, Pair> byKey;
  private final double floor;

  private Dataset(Path dir, List<Doc> docs, List<Pair> listed, double floor) {
    this.dir = dir;
    this.docs = docs;
    this.floor = floor;
    // A pair listed twice counts once, with its last line, as score.py's dict does.
    this.byKey = new LinkedHashMap<>(listed.size() * 2);
    for (Pair p : listed) {
      byKey.put(key(p.a, p.b), p);
    }
    this.pairs = List.copyOf(byKey.values());
  }

  /** A dataset from documents and pairs already in memory (for tests and generated sets). */
  static Dataset of(Path dir, List<Doc> docs, List<Pair> pairs, double floor) {
    return new Dataset(dir, List.copyOf(docs), pairs, floor);
  }

  /**
   * Reads {@code dir/docs.jsonl} and {@code dir/pairs.jsonl}.
   *
   * @throws IOException naming the file and line of anything malformed
   */
  public static Dataset read(Path dir) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Doc> docs = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    Path docsFile = dir.resolve("docs.jsonl");
    Path pairsFile = dir.resolve("pairs.jsonl");
    for (Path p : List.of(docsFile, pairsFile)) {
      if (!Files.isRegularFile(p)) {
        throw new IOException(
            p + ": missing; a dataset directory holds docs.jsonl and pairs.jsonl");
      }
    }
    try (BufferedReader r = Files.newBufferedReader(docsFile, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode d = parse(json, line, docsFile, n);
        String id = text(d, "id", docsFile, n);
        if (index.putIfAbsent(id, docs.size()) != null) {
          throw new IOException(docsFile + ":" + n + ": repeated id " + id);
        }
        docs.add(
            new Doc(
                docs.size(),
                id,
                d.path("lang").asText("?"),
                d.path("len_class").asText("?"),
                text(d, "text", docsFile, n)));
      }
    }
    List<Pair> pairs = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(pairsFile, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode p = parse(json, line, pairsFile, n);
        Integer a = index.get(text(p, "a", pairsFile, n));
        Integer b = index.get(text(p, "b", pairsFile, n));
        if (a == null || b == null) {
          throw new IOException(pairsFile + ":" + n + ": pair names an id missing from docs.jsonl");
        }
        if (!p.hasNonNull("jaccard")) {
          throw new IOException(pairsFile + ":" + n + ": missing field 'jaccard'");
        }
        pairs.add(
            new Pair(
                Math.min(a, b),
                Math.max(a, b),
                p.get("jaccard").asDouble(),
                p.path("kind").asText("?"),
                p.path("lang").asText("?"),
                p.path("len_class").asText("?")));
      }
    }
    return new Dataset(dir, List.copyOf(docs), pairs, readFloor(json, dir.resolve("stats.json")));
  }

  /** {@code manifest.floor} of stats.json when there is one, as score.py reads it. */
  private static double readFloor(ObjectMapper json, Path stats) throws IOException {
    if (!Files.isRegularFile(stats)) {
      return DEFAULT_FLOOR;
    }
    JsonNode floor;
    try {
      floor = json.readTree(stats.toFile()).path("manifest").path("floor");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException(stats + ": not JSON (" + e.getOriginalMessage() + ")", e);
    }
    return floor.isNumber() ? floor.asDouble() : DEFAULT_FLOOR;
  }

  private static JsonNode parse(ObjectMapper json, String line, Path file, int n)
      throws IOException {
    try {
      return json.readTree(line);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException(file + ":" + n + ": not JSON (" + e.getOriginalMessage() + ")", e);
    }
  }

  private static String text(JsonNode node, String field, Path file, int n) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      throw new IOException(file + ":" + n + ": missing field '" + field + "'");
    }
    return v.asText();
  }

  static long key(int a, int b) {
    int lo = Math.min(a, b);
    int hi = Math.max(a, b);
    return ((long) lo << 32) | (hi & 0xFFFFFFFFL);
  }

  public Path dir() {
    return dir;
  }

  public List<Doc> docs() {
    return docs;
  }

  /** The listed pairs, each once. */
  public List<Pair> pairs() {
    return pairs;
  }

  /**
   * The Jaccard similarity down to which every pair is listed: a pair that is not listed is below
   * it ({@code manifest.floor} of stats.json, else {@value #DEFAULT_FLOOR}).
   */
  public double floor() {
    return floor;
  }

  /** The listed pair of documents a and b (by index), or null when they are not listed. */
  public Pair pair(int a, int b) {
    return byKey.get(key(a, b));
  }
}
