// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.neardup.Analysis;
import org.neardup.Deduplicator;
import org.neardup.Match;
import org.neardup.Verdict;
import org.neardup.cluster.Clusters;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * The decision parts fed with candidates fetched from outside the engine (a keyed store in memory
 * laid out as a networked store lays out its backend: a set of ordinals per block key and per band
 * key) give the same verdicts as the embedded engine on the same sequence of inserts and removals.
 */
class DecisionEquivalenceTest {

  /** A networked store's layout, in memory: keys to ordinals, per-ordinal data, clusters. */
  private static final class KeyedStore {
    final CandidateKeys keys;
    final Decision decision;
    final Map<Integer, Set<Integer>> blocks = new HashMap<>();
    final Map<Long, Set<Integer>> bands = new HashMap<>();
    final List<Long> fingerprints = new ArrayList<>();
    final List<byte[]> sketches = new ArrayList<>();
    final List<Analysis> analyses = new ArrayList<>();
    final Map<Long, Integer> ordinals = new HashMap<>();
    final Clusters clusters = new Clusters(16);
    final CandidateTable table = new CandidateTable();
    final MatchSet matches;

    KeyedStore(int k, double threshold, boolean verify, int maxMatches) {
      keys = new CandidateKeys(k);
      decision = new Decision(new Verifier(k, threshold, verify), maxMatches);
      matches = decision.newMatchSet();
    }

    Verdict checkAndInsert(long docId, Analysis a) {
      table.clear();
      for (int key : keys.blockKeys(a.fingerprint())) {
        for (int o : blocks.getOrDefault(key, Set.of())) {
          add(o, false);
        }
      }
      for (long key : CandidateKeys.bandKeys(a)) {
        for (int o : bands.getOrDefault(key, Set.of())) {
          add(o, true);
        }
      }
      matches.clear();
      decision.verify(a, table, matches);
      int[] reported = matches.reported();
      List<Match> listed = new ArrayList<>();
      for (int i : reported) {
        listed.add(
            new Match(docIdOf(matches.ordinal(i)), matches.distance(i), matches.similarity(i)));
      }
      List<Long> joined = new ArrayList<>();
      for (long root : matches.joinedRoots()) {
        joined.add(docIdOf(root));
      }
      int ordinal = clusters.add();
      fingerprints.add(a.fingerprint());
      sketches.add(decision.verifier().verifies() ? a.sketch().shingles().encode() : null);
      analyses.add(a);
      docIds.add(docId);
      ordinals.put(docId, ordinal);
      for (int key : keys.blockKeys(a.fingerprint())) {
        blocks.computeIfAbsent(key, x -> new LinkedHashSet<>()).add(ordinal);
      }
      for (long key : CandidateKeys.bandKeys(a)) {
        bands.computeIfAbsent(key, x -> new LinkedHashSet<>()).add(ordinal);
      }
      for (int i = 0; i < matches.size(); i++) {
        clusters.union(ordinal, (int) matches.ordinal(i));
      }
      return new Verdict(
          matches.isEmpty(), a.fingerprint(), docIdOf(clusters.find(ordinal)), listed, joined);
    }

    final List<Long> docIds = new ArrayList<>();

    long docIdOf(long ordinal) {
      return docIds.get((int) ordinal);
    }

    private void add(int o, boolean viaBand) {
      table.add(o, fingerprints.get(o), clusters.find(o), sketches.get(o), viaBand);
    }

    void remove(long docId) {
      int o = ordinals.remove(docId);
      Analysis a = analyses.get(o);
      for (int key : keys.blockKeys(a.fingerprint())) {
        blocks.get(key).remove(o);
      }
      for (long key : CandidateKeys.bandKeys(a)) {
        bands.get(key).remove(o);
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"true, 3, 100", "true, 3, 2", "false, 6, 100", "false, 3, 1"})
  void sameSequence_sameVerdictsAsTheEngine(boolean verify, int k, int maxMatches) {
    Deduplicator engine =
        Deduplicator.builder()
            .fingerprintSettings(FingerprintSettings.builder().build())
            .verify(verify)
            .maxDistance(k)
            .maxMatches(maxMatches)
            .build();
    KeyedStore keyed = new KeyedStore(k, engine.threshold(), verify, maxMatches);
    SplittableRandom r = new SplittableRandom(0x5eedL + k + maxMatches);
    List<String> bases = new ArrayList<>();
    List<Long> stored = new ArrayList<>();
    int duplicates = 0;
    for (long docId = 0; docId < 3000; docId++) {
      String text;
      if (bases.isEmpty() || r.nextInt(3) == 0) {
        text = words(r, 30 + r.nextInt(30));
        bases.add(text);
      } else {
        text = edit(r, bases.get(r.nextInt(bases.size())), r.nextInt(6));
      }
      Analysis a = engine.analyzer().analyze(text);
      Verdict expected = engine.checkAndInsert(docId, a);
      Verdict actual = keyed.checkAndInsert(docId, a);
      assertThat(actual).as("verdict of document %s", docId).isEqualTo(expected);
      duplicates += expected.isNew() ? 0 : 1;
      stored.add(docId);
      if (r.nextInt(10) == 0) {
        long victim = stored.remove(r.nextInt(stored.size()));
        assertThat(engine.remove(victim)).isTrue();
        keyed.remove(victim);
      }
    }
    // The sequence exercised both answers and clusters of several members.
    assertThat(duplicates).isBetween(500, 2500);
  }

  private static final String[] WORDS = {
    "river",
    "mountain",
    "city",
    "council",
    "budget",
    "school",
    "garden",
    "market",
    "train",
    "music",
    "winter",
    "summer",
    "doctor",
    "bridge",
    "festival",
    "library",
    "harbor",
    "forest",
    "公园",
    "学校",
    "预算",
    "城市",
    "音乐",
    "医生",
    "图书馆",
    "港口",
    "森林",
    "博物馆"
  };

  private static String words(SplittableRandom r, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(WORDS[r.nextInt(WORDS.length)]).append(r.nextInt(500)).append(' ');
    }
    return b.toString();
  }

  private static String edit(SplittableRandom r, String text, int edits) {
    String[] w = text.split(" ");
    for (int i = 0; i < edits; i++) {
      w[r.nextInt(w.length)] = "edit" + r.nextInt(100000);
    }
    return String.join(" ", w);
  }
}
