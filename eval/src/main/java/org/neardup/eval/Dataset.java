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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

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

  /** What {@link #read(Path, Skips)} does with a line it cannot use. */
  @FunctionalInterface
  public interface Skips {
    /**
     * Called once per unusable line, in file order; throw to stop reading.
     *
     * @param location {@code FILE:LINE}
     * @param idJson the document's id as JSON when it could be read, else null
     * @param reason what is wrong with it
     */
    void skipped(String location, @Nullable String idJson, String reason) throws IOException;
  }

  /**
   * Reads {@code dir/docs.jsonl} and {@code dir/pairs.jsonl}, refusing any malformed line.
   *
   * @throws IOException naming the file and line of anything malformed
   */
  public static Dataset read(Path dir) throws IOException {
    return read(
        dir,
        (location, id, reason) -> {
          throw new IOException(location + ": " + reason);
        });
  }

  /**
   * Reads {@code dir/docs.jsonl} and {@code dir/pairs.jsonl}, handing each unusable line to {@code
   * skips}: a document line that is not JSON, lacks its id or text or repeats an id, and a pair
   * line that is not JSON, lacks a field or names a document that is missing or was skipped. The
   * dataset holds the rest, so scores are computed on the documents read and the pairs among them.
   *
   * @throws IOException if a file is missing, or from {@code skips}
   */
  public static Dataset read(Path dir, Skips skips) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Doc> docs = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    Set<String> skippedIds = new HashSet<>();
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
        String where = docsFile + ":" + n;
        JsonNode d = parse(json, line);
        if (d == null) {
          skips.skipped(where, null, notJson(json, line));
          continue;
        }
        String id = text(d, "id");
        if (id == null) {
          skips.skipped(where, null, "missing field 'id'");
          continue;
        }
        String text = text(d, "text");
        if (text == null || index.containsKey(id)) {
          skippedIds.add(id);
          skips.skipped(
              where,
              d.get("id").toString(),
              text == null ? "missing field 'text'" : "repeated id " + id);
          continue;
        }
        index.put(id, docs.size());
        docs.add(
            new Doc(
                docs.size(),
                id,
                d.path("lang").asText("?"),
                d.path("len_class").asText("?"),
                text));
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
        String where = pairsFile + ":" + n;
        JsonNode p = parse(json, line);
        if (p == null) {
          skips.skipped(where, null, notJson(json, line));
          continue;
        }
        String aId = text(p, "a");
        String bId = text(p, "b");
        if (aId == null || bId == null) {
          skips.skipped(where, null, "missing field '" + (aId == null ? "a" : "b") + "'");
          continue;
        }
        Integer a = index.get(aId);
        Integer b = index.get(bId);
        if (a == null || b == null) {
          String missing = a == null ? aId : bId;
          skips.skipped(
              where,
              null,
              skippedIds.contains(missing)
                  ? "pair names document " + missing + ", which was skipped"
                  : "pair names an id missing from docs.jsonl");
          continue;
        }
        if (!p.hasNonNull("jaccard")) {
          skips.skipped(where, null, "missing field 'jaccard'");
          continue;
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

  private static @Nullable JsonNode parse(ObjectMapper json, String line) {
    try {
      JsonNode n = json.readTree(line);
      return n != null && n.isObject() ? n : null;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return null;
    }
  }

  /** Why a line {@link #parse} refused is not a JSON object. */
  private static String notJson(ObjectMapper json, String line) {
    try {
      JsonNode n = json.readTree(line);
      return "expected a JSON object, got " + (n == null ? "nothing" : n.getNodeType());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      com.fasterxml.jackson.core.JsonLocation l = e.getLocation();
      return "not JSON"
          + (l == null ? "" : " at column " + l.getColumnNr())
          + " ("
          + e.getOriginalMessage()
              .replaceAll("\\[Source: [^\\]]*?; line: \\d+, column: (\\d+)\\]", "column $1")
          + ")";
    }
  }

  private static @Nullable String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asText();
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
