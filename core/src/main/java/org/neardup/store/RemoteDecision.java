// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Deduplicator;
import org.neardup.decide.Candidates;
import org.neardup.decide.Decision;
import org.neardup.decide.MatchSet;
import org.neardup.decide.Verifier;
import org.neardup.store.Outcome.Status;

/**
 * What every store whose index lives in a backend (Redis, HBase) does around the shared {@link
 * Decision}: the checks of its input, the decision for a collection's settings over the candidates
 * it fetched, and the outcome in the caller's terms (ids instead of ordinals). The stores differ
 * only in how they fetch candidates and commit; this is the part they share. Immutable and
 * thread-safe.
 */
public final class RemoteDecision {
  private final Decision decision;

  /** The decision of a collection with these settings. */
  public RemoteDecision(CollectionSettings settings) {
    this.decision =
        new Decision(
            new Verifier(settings.maxDistance(), settings.threshold(), settings.verify()),
            Deduplicator.DEFAULT_MAX_MATCHES);
  }

  /** The shared decision rules. */
  public Decision decision() {
    return decision;
  }

  /** The rule for each candidate (which count, which pass). */
  public Verifier verifier() {
    return decision.verifier();
  }

  /** The near-duplicates among a query's candidates, in ordinal order. */
  public MatchSet decide(Analysis query, Candidates candidates) {
    MatchSet m = decision.newMatchSet();
    decision.verify(query, candidates, m);
    return m;
  }

  /** The matches a verdict lists, best first, named by {@code idOf(ordinal)}. */
  public static List<Outcome.Match> reported(MatchSet m, LongFunction<String> idOf) {
    if (m.isEmpty()) {
      return List.of();
    }
    int[] order = m.reported();
    List<Outcome.Match> out = new ArrayList<>(order.length);
    for (int i : order) {
      out.add(new Outcome.Match(idOf.apply(m.ordinal(i)), m.distance(i), m.similarity(i)));
    }
    return out;
  }

  /**
   * The id representing the cluster the query would join: that of the earliest root among the
   * matches ({@code rootIdOf(root)}), or null for a new document.
   */
  public static @Nullable String cluster(MatchSet m, LongFunction<String> rootIdOf) {
    long[] roots = m.joinedRoots();
    return roots.length == 0 ? null : rootIdOf.apply(roots[0]);
  }

  /** The outcome of a decision: new when nothing matched, the matches named by {@code idOf}. */
  public static Outcome outcome(
      Status status,
      @Nullable String id,
      long fingerprint,
      MatchSet m,
      @Nullable String cluster,
      LongFunction<String> idOf) {
    return new Outcome(status, id, m.isEmpty(), fingerprint, cluster, reported(m, idOf));
  }

  /** The outcome of a document already stored under its id. */
  public static Outcome exists(String id, long fingerprint, String cluster) {
    return new Outcome(Status.EXISTS, id, false, fingerprint, cluster, List.of());
  }

  /**
   * Checks a document's id: not empty, at most {@link Collection#MAX_ID_BYTES} bytes of UTF-8.
   * Every store checks ids with this (the embedded store too).
   *
   * @param position its position in a batch (named in the message), or -1 for a single document
   * @return the id's UTF-8 bytes
   * @throws IllegalArgumentException naming the rule and the actual length
   */
  public static byte[] checkId(String id, int position) {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException(at(position) + "id must not be empty");
    }
    byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
    int n = utf8.length;
    if (n > Collection.MAX_ID_BYTES) {
      throw new IllegalArgumentException(
          at(position)
              + "id must be at most "
              + Collection.MAX_ID_BYTES
              + " bytes of UTF-8, got "
              + n);
    }
    return utf8;
  }

  /**
   * Checks an analysis has something to fingerprint.
   *
   * @param position as for {@link #checkId}
   */
  public static void checkAnalysis(Analysis a, int position) {
    Objects.requireNonNull(a, "analysis");
    if (a.isEmpty()) {
      throw new IllegalArgumentException(at(position) + "text has no letters or digits");
    }
  }

  /**
   * Checks every document of a batch ({@link #checkId}, {@link #checkAnalysis}) before any is
   * stored.
   */
  public static void checkAll(List<Document> documents) {
    for (int i = 0; i < documents.size(); i++) {
      checkId(documents.get(i).id(), i);
      checkAnalysis(documents.get(i).analysis(), i);
    }
  }

  private static String at(int position) {
    return position < 0 ? "" : "document " + position + ": ";
  }
}
