// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings.RetentionBasis;
import org.neardup.store.Document;
import org.neardup.testkit.ManualClock;
import org.neardup.testkit.Texts;

/** The store the image tests ({@link IndexImageOpenTest}, {@link BandImageOpenTest}) open. */
final class ImageTestStores {
  private ImageTestStores() {}

  /** What a test does where the fill checkpoints: the documents so far are n0 .. n(n - 1). */
  interface AtCheckpoint {
    void run(EmbeddedStore s, Collection news, int n) throws IOException;
  }

  /**
   * Fills the store: a checkpointed part (two collections, "news" verifying with documents that
   * expire 30 minutes after arrival, "plain" without verification), then a log tail of inserts
   * (edits of earlier texts) and deletes. Every text goes to {@code texts}.
   */
  static void fill(
      EmbeddedStore s, ManualClock clock, List<String> texts, long seed, AtCheckpoint atCheckpoint)
      throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    Collection news =
        s.create(
            "news",
            StoreTesting.SETTINGS
                .withRetention(Duration.ofMinutes(30))
                .withRetentionBasis(RetentionBasis.ARRIVAL));
    Collection plain = s.create("plain", StoreTesting.SETTINGS.withVerify(false));
    int n = 0;
    for (int minute = 0; minute < 20; minute++) {
      List<Document> a = new ArrayList<>();
      List<Document> b = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String previous = texts.isEmpty() ? null : texts.get(r.nextInt(texts.size()));
        String text =
            previous != null && r.nextInt(3) == 0 ? Texts.edit(r, previous) : Texts.text(r, 15);
        texts.add(text);
        a.add(StoreTesting.doc(news, "n" + n, text));
        b.add(StoreTesting.doc(plain, "p" + n, text));
        n++;
      }
      news.checkAndInsertAll(a);
      plain.checkAndInsertAll(b);
      clock.advance(Duration.ofMinutes(1));
    }
    for (int i = 0; i < 30; i++) {
      news.delete("n" + r.nextInt(n));
      plain.delete("p" + r.nextInt(n));
    }
    atCheckpoint.run(s, news, n);
    // The log after the images: inserts, deletes of documents the images hold.
    for (int i = 0; i < 50; i++) {
      String text = Texts.edit(r, texts.get(r.nextInt(texts.size())));
      texts.add(text);
      news.checkAndInsert(StoreTesting.doc(news, "n" + n, text));
      plain.checkAndInsert(StoreTesting.doc(plain, "p" + n, text));
      n++;
      news.delete("n" + r.nextInt(n));
      plain.delete("p" + r.nextInt(n));
    }
  }

  /** Every text's outcome in both collections, then edits of them (candidates by band too). */
  static List<Object> answers(EmbeddedStore s, List<String> texts) throws IOException {
    SplittableRandom r = new SplittableRandom(9);
    List<Object> out = new ArrayList<>();
    for (String name : List.of("news", "plain")) {
      Collection c = s.collection(name);
      for (String t : texts) {
        out.add(c.check(c.analyzer().analyze(t)));
        out.add(c.check(c.analyzer().analyze(Texts.edit(r, t))));
      }
      out.add(c.stats().documents());
    }
    return out;
  }
}
