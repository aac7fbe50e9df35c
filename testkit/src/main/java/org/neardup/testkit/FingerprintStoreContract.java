// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionSettings.RetentionBasis;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.Outcome.Status;
import org.neardup.store.StoredDocument;

/**
 * What every {@link FingerprintStore} must do, as a JUnit 5 suite: subclass it once per store and
 * implement {@link #open}. The store under test must keep what it stored between a {@link
 * FingerprintStore#close()} and the next {@link #open} of the same test, and start empty in each
 * test.
 *
 * <p>Collections use no lexicon (each Han character is a word), so the suite needs no dictionary.
 */
public abstract class FingerprintStoreContract {

  /** Settings every test starts from: k = 3, Jaccard 0.8, no lexicon, kept forever. */
  protected static final CollectionSettings SETTINGS =
      CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON);

  private static final long SEED = 0x5eed_2025L;

  protected final ManualClock clock = new ManualClock();
  private final List<FingerprintStore> opened = new ArrayList<>();

  /**
   * Opens the store under test on this test's data with this clock: empty on the first call of a
   * test, holding what earlier calls stored once they were closed.
   */
  protected abstract FingerprintStore open(InstantSource clock) throws IOException;

  /**
   * Whether {@link #open} may be called again while a store it returned is open, giving a second
   * instance on the same backend (another service node on the same Redis, say). Stores that can
   * answer true must, and then pass {@link
   * #checkAndInsert_twoInstancesOnOneBackend_exactlyOneNewPerGroup}; a store whose backend admits
   * one instance at a time answers false and says why.
   */
  protected boolean opensTwice() {
    return false;
  }

  /**
   * How many times the concurrency tests' time limits (60 s for one instance, 120 s for two) a
   * store may take: above 1 for a store whose every commit is a few round trips to a server that
   * shares the test machine's cores (a mini-cluster in the test JVM), so that a loaded machine does
   * not fail it. The limits only stop a hung test; what the tests check does not change.
   */
  protected int timeLimitScale() {
    return 1;
  }

  /** Opens the store and closes it after the test. */
  protected final FingerprintStore store() throws IOException {
    FingerprintStore s = open(clock);
    opened.add(s);
    return s;
  }

  @AfterEach
  void closeStores() throws IOException {
    for (FingerprintStore s : opened) {
      s.close();
    }
  }

  protected static Document doc(Collection c, String id, String text) {
    return new Document(id, c.analyzer().analyze(text));
  }

  // --- collections -------------------------------------------------------------------------

  @Test
  public void create_newName_isListedAndFound() throws IOException {
    FingerprintStore s = store();
    Collection news = s.create("news", SETTINGS);
    s.create("blogs", SETTINGS.withMaxDistance(2));
    assertThat(news.name()).isEqualTo("news");
    assertThat(s.collection("news")).isNotNull();
    assertThat(s.collection("missing")).isNull();
    assertThat(s.collections()).extracting(Collection::name).containsExactly("blogs", "news");
    assertThat(s.collection("blogs").settings().maxDistance()).isEqualTo(2);
  }

  @Test
  public void create_takenName_throwsIllegalArgument() throws IOException {
    FingerprintStore s = store();
    s.create("news", SETTINGS);
    assertThatThrownBy(() -> s.create("news", SETTINGS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("news");
  }

  @Test
  public void create_badName_throwsIllegalArgumentAndCreatesNothing() throws IOException {
    FingerprintStore s = store();
    for (String bad : new String[] {"", "../etc", "a/b", "-x", "x".repeat(65), "a b", "名字"}) {
      assertThatThrownBy(() -> s.create(bad, SETTINGS))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("collection name");
    }
    assertThat(s.collections()).isEmpty();
  }

  @Test
  public void create_unknownLexicon_throwsIllegalArgumentAndCreatesNothing() throws IOException {
    FingerprintStore s = store();
    assertThatThrownBy(() -> s.create("news", SETTINGS.withLexicon("no-such-lexicon")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-lexicon");
    assertThat(s.collections()).isEmpty();
  }

  @Test
  public void drop_existing_removesItAndLaterCallsThrow() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    c.checkAndInsert(doc(c, "a", "some text that is long enough to matter here"));
    assertThat(s.drop("news")).isTrue();
    assertThat(s.drop("news")).isFalse();
    assertThat(s.collection("news")).isNull();
    assertThatThrownBy(() -> c.checkAndInsert(doc(c, "b", "another text entirely here")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("news");
    // A new collection of the same name starts empty.
    Collection again = s.create("news", SETTINGS);
    assertThat(again.get("a")).isEmpty();
    assertThat(again.stats().documents()).isZero();
  }

  @Test
  public void collections_areIndependent() throws IOException {
    FingerprintStore s = store();
    Collection a = s.create("a", SETTINGS);
    Collection b = s.create("b", SETTINGS);
    String text = Texts.text(new SplittableRandom(SEED), 40);
    assertThat(a.checkAndInsert(doc(a, "x", text)).isNew()).isTrue();
    assertThat(b.checkAndInsert(doc(b, "x", text)).isNew()).isTrue();
    assertThat(a.checkAndInsert(doc(a, "y", text)).isNew()).isFalse();
  }

  // --- check-and-insert --------------------------------------------------------------------

  @Test
  public void checkAndInsert_copies_firstIsNewOthersJoinItsCluster() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    SplittableRandom r = new SplittableRandom(SEED);
    String text = Texts.text(r, 40);
    Outcome first = c.checkAndInsert(doc(c, "u1", text));
    assertThat(first.status()).isEqualTo(Status.STORED);
    assertThat(first.isNew()).isTrue();
    assertThat(first.id()).isEqualTo("u1");
    assertThat(first.cluster()).isEqualTo("u1");
    assertThat(first.matches()).isEmpty();
    assertThat(first.fingerprint()).isEqualTo(c.analyzer().analyze(text).fingerprint());

    Outcome copy = c.checkAndInsert(doc(c, "u2", text));
    assertThat(copy.isNew()).isFalse();
    assertThat(copy.cluster()).isEqualTo("u1");
    assertThat(copy.matches()).hasSize(1);
    assertThat(copy.matches().get(0).id()).isEqualTo("u1");
    assertThat(copy.matches().get(0).distance()).isZero();
    assertThat(copy.matches().get(0).similarity()).isEqualTo(1.0);

    Outcome edited = c.checkAndInsert(doc(c, "u3", Texts.edit(r, text)));
    assertThat(edited.isNew()).isFalse();
    assertThat(edited.cluster()).isEqualTo("u1");
    assertThat(edited.matches())
        .extracting(Outcome.Match::id)
        .containsExactlyInAnyOrder("u1", "u2");

    Outcome other = c.checkAndInsert(doc(c, "u4", Texts.text(r, 40)));
    assertThat(other.isNew()).isTrue();
    assertThat(other.cluster()).isEqualTo("u4");
    assertThat(c.stats().documents()).isEqualTo(4);
    assertThat(c.stats().inserted()).isEqualTo(4);
    assertThat(c.stats().duplicates()).isEqualTo(2);
  }

  @Test
  public void checkAndInsert_storedId_answersExistsAndChangesNothing() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    SplittableRandom r = new SplittableRandom(SEED);
    String text = Texts.text(r, 30);
    Outcome first = c.checkAndInsert(doc(c, "u1", text));
    Outcome again = c.checkAndInsert(doc(c, "u1", Texts.text(r, 30)));
    assertThat(again.status()).isEqualTo(Status.EXISTS);
    assertThat(again.stored()).isFalse();
    assertThat(again.fingerprint()).isEqualTo(first.fingerprint());
    assertThat(again.cluster()).isEqualTo("u1");
    assertThat(c.stats().documents()).isEqualTo(1);
    assertThat(c.get("u1").orElseThrow().fingerprint()).isEqualTo(first.fingerprint());
  }

  @Test
  public void checkAndInsert_invalidInput_throwsIllegalArgumentAndStoresNothing()
      throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    assertThatThrownBy(() -> c.checkAndInsert(doc(c, "u1", " ... !!! ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("letters");
    assertThatThrownBy(() -> c.checkAndInsert(doc(c, "", "a real text with words")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("id");
    String longId = "x".repeat(Collection.MAX_ID_BYTES + 1);
    assertThatThrownBy(() -> c.checkAndInsert(doc(c, longId, "a real text with words")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(Collection.MAX_ID_BYTES));
    assertThat(c.stats().documents()).isZero();
    assertThat(c.get("u1")).isEmpty();
  }

  @Test
  public void checkAndInsertAll_oneInvalid_storesNothing() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    SplittableRandom r = new SplittableRandom(SEED);
    List<Document> docs =
        List.of(
            doc(c, "a", Texts.text(r, 30)),
            doc(c, "b", Texts.text(r, 30)),
            doc(c, "c", "?!?! ..."));
    assertThatThrownBy(() -> c.checkAndInsertAll(docs))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2");
    assertThat(c.stats().documents()).isZero();
    assertThat(c.get("a")).isEmpty();
  }

  @Test
  public void checkAndInsertAll_sameAnswersAsOneByOne() throws IOException {
    FingerprintStore s = store();
    Collection batch = s.create("batch", SETTINGS);
    Collection single = s.create("single", SETTINGS);
    SplittableRandom r = new SplittableRandom(SEED);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      texts.add(Texts.text(r, 30));
    }
    List<Document> docs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      String t = texts.get(r.nextInt(texts.size()));
      docs.add(doc(batch, "d" + (i % 90), r.nextBoolean() ? t : Texts.edit(r, t)));
    }
    List<Outcome> together = batch.checkAndInsertAll(docs);
    List<Outcome> apart = new ArrayList<>();
    for (Document d : docs) {
      apart.add(single.checkAndInsert(d));
    }
    assertThat(together).isEqualTo(apart);
    assertThat(together).extracting(Outcome::status).contains(Status.EXISTS);
  }

  @Test
  public void check_storesNothing() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    String text = Texts.text(new SplittableRandom(SEED), 30);
    Analysis a = c.analyzer().analyze(text);
    Outcome before = c.check(a);
    assertThat(before.status()).isEqualTo(Status.CHECKED);
    assertThat(before.isNew()).isTrue();
    assertThat(before.cluster()).isNull();
    assertThat(before.id()).isNull();
    c.checkAndInsert(new Document("u1", a));
    Outcome after = c.check(a);
    assertThat(after.isNew()).isFalse();
    assertThat(after.cluster()).isEqualTo("u1");
    assertThat(c.stats().documents()).isEqualTo(1);
    assertThat(c.stats().checked()).isEqualTo(2);
  }

  @Test
  public void checkAndInsert_withoutVerification_matchesFingerprintsWithinK() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("fps", SETTINGS.withVerify(false).withMaxDistance(3));
    long fp = 0x0123_4567_89ab_cdefL;
    assertThat(c.checkAndInsert(new Document("a", Analysis.ofFingerprint(fp, 1))).isNew()).isTrue();
    Outcome near = c.checkAndInsert(new Document("b", Analysis.ofFingerprint(fp ^ 0b111, 1)));
    assertThat(near.isNew()).isFalse();
    assertThat(near.matches())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.id()).isEqualTo("a");
              assertThat(m.distance()).isEqualTo(3);
              assertThat(m.similarity()).isNaN();
            });
    // 4 bits from a, 7 from b: beyond k of both.
    Outcome far = c.checkAndInsert(new Document("c", Analysis.ofFingerprint(fp ^ 0xF000, 1)));
    assertThat(far.isNew()).isTrue();
  }

  @Test
  public void checkAndInsertAsync_decidedInCallOrder_completesWithTheOutcome() throws Exception {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    SplittableRandom r = new SplittableRandom(SEED);
    String text = Texts.text(r, 30);
    // b is decided after a even if a is not durable yet when b is called.
    java.util.concurrent.CompletableFuture<Outcome> a = c.checkAndInsertAsync(doc(c, "a", text));
    java.util.concurrent.CompletableFuture<Outcome> b = c.checkAndInsertAsync(doc(c, "b", text));
    java.util.concurrent.CompletableFuture<List<Outcome>> all =
        c.checkAndInsertAllAsync(List.of(doc(c, "c", text), doc(c, "a", Texts.text(r, 30))));
    assertThat(a.get(30, TimeUnit.SECONDS).isNew()).isTrue();
    assertThat(b.get(30, TimeUnit.SECONDS).isNew()).isFalse();
    assertThat(b.get().cluster()).isEqualTo("a");
    assertThat(all.get(30, TimeUnit.SECONDS))
        .extracting(Outcome::status)
        .containsExactly(Status.STORED, Status.EXISTS);
    assertThat(c.get("c").orElseThrow().cluster()).isEqualTo("a");
    assertThatThrownBy(() -> c.checkAndInsertAsync(doc(c, "", text)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // --- get and delete ----------------------------------------------------------------------

  @Test
  public void get_storedAndMissing() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    String text = Texts.text(new SplittableRandom(SEED), 30);
    long t = clock.millis() - 60_000;
    c.checkAndInsert(new Document("https://example.com/a?x=1", c.analyzer().analyze(text), t));
    c.checkAndInsert(doc(c, "b", text));
    StoredDocument a = c.get("https://example.com/a?x=1").orElseThrow();
    assertThat(a.timestamp()).isEqualTo(t);
    assertThat(a.fingerprint()).isEqualTo(c.analyzer().analyze(text).fingerprint());
    assertThat(a.expiresAt()).isEqualTo(Long.MAX_VALUE);
    StoredDocument b = c.get("b").orElseThrow();
    assertThat(b.timestamp()).isEqualTo(clock.millis());
    assertThat(b.cluster()).isEqualTo("https://example.com/a?x=1");
    assertThat(c.get("missing")).isEmpty();
  }

  @Test
  public void delete_stopsMatchingAndFreesTheId() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    String text = Texts.text(new SplittableRandom(SEED), 30);
    c.checkAndInsert(doc(c, "a", text));
    assertThat(c.delete("a")).isTrue();
    assertThat(c.delete("a")).isFalse();
    assertThat(c.get("a")).isEmpty();
    assertThat(c.stats().documents()).isZero();
    assertThat(c.stats().deleted()).isEqualTo(1);
    assertThat(c.checkAndInsert(doc(c, "b", text)).isNew()).isTrue();
    assertThat(c.checkAndInsert(doc(c, "a", text)).status()).isEqualTo(Status.STORED);
  }

  // --- retention ---------------------------------------------------------------------------

  @Test
  public void expire_byArrival_oldDocumentsStopMatching() throws IOException {
    FingerprintStore s = store();
    Collection c =
        s.create(
            "news",
            SETTINGS
                .withRetention(Duration.ofHours(48))
                .withRetentionBasis(RetentionBasis.ARRIVAL));
    SplittableRandom r = new SplittableRandom(SEED);
    String old = Texts.text(r, 30);
    String young = Texts.text(r, 30);
    c.checkAndInsert(doc(c, "old", old));
    clock.advance(Duration.ofHours(24));
    c.checkAndInsert(doc(c, "young", young));
    clock.advance(Duration.ofHours(24).plusMillis(1));
    assertThat(c.expire()).isEqualTo(1);
    assertThat(c.get("old")).isEmpty();
    assertThat(c.get("young")).isPresent();
    assertThat(c.check(c.analyzer().analyze(old)).isNew()).isTrue();
    assertThat(c.check(c.analyzer().analyze(young)).isNew()).isFalse();
    assertThat(c.stats().expired()).isEqualTo(1);
    assertThat(c.stats().documents()).isEqualTo(1);
  }

  @Test
  public void checkAndInsert_timestampOutsideWindow_isCheckedButNotStored() throws IOException {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS.withRetention(Duration.ofHours(48)));
    SplittableRandom r = new SplittableRandom(SEED);
    String text = Texts.text(r, 30);
    long now = clock.millis();
    c.checkAndInsert(new Document("fresh", c.analyzer().analyze(text), now - 1000));
    Outcome stale =
        c.checkAndInsert(
            new Document("stale", c.analyzer().analyze(text), now - Duration.ofDays(3).toMillis()));
    assertThat(stale.status()).isEqualTo(Status.EXPIRED);
    assertThat(stale.isNew()).isFalse();
    assertThat(stale.cluster()).isEqualTo("fresh");
    assertThat(c.get("stale")).isEmpty();
    // By timestamp: a document published 47 h ago expires in 1 h, whatever its arrival.
    c.checkAndInsert(
        new Document(
            "aged",
            c.analyzer().analyze(Texts.text(r, 30)),
            now - Duration.ofHours(47).toMillis()));
    assertThat(c.get("aged").orElseThrow().expiresAt())
        .isEqualTo(now + Duration.ofHours(1).toMillis());
    clock.advance(Duration.ofHours(1));
    assertThat(c.expire()).isEqualTo(1);
    assertThat(c.get("aged")).isEmpty();
    assertThat(c.get("fresh")).isPresent();
  }

  // --- concurrency -------------------------------------------------------------------------

  @Test
  public void checkAndInsert_concurrentCopies_exactlyOneNewPerGroup() throws Exception {
    FingerprintStore s = store();
    Collection c = s.create("news", SETTINGS);
    int groups = 200;
    int copies = 8;
    SplittableRandom r = new SplittableRandom(SEED);
    List<Document> docs = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      String text = Texts.text(r, 30);
      for (int i = 0; i < copies; i++) {
        docs.add(doc(c, g + "-" + i, text));
      }
    }
    Collections.shuffle(docs, new Random(SEED));
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    ConcurrentHashMap<String, Outcome> outcomes = new ConcurrentHashMap<>();
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = next.getAndIncrement(); i < docs.size(); i = next.getAndIncrement()) {
                  outcomes.put(docs.get(i).id(), c.checkAndInsert(docs.get(i)));
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(60L * timeLimitScale(), TimeUnit.SECONDS);
    }
    pool.shutdown();
    for (int g = 0; g < groups; g++) {
      int fresh = 0;
      @Nullable String newId = null;
      for (int i = 0; i < copies; i++) {
        Outcome o = outcomes.get(g + "-" + i);
        if (o.isNew()) {
          fresh++;
          newId = o.id();
        }
      }
      assertThat(fresh).as("new documents in group %s", g).isEqualTo(1);
      for (int i = 0; i < copies; i++) {
        assertThat(outcomes.get(g + "-" + i).cluster()).isEqualTo(newId);
      }
    }
    assertThat(c.stats().documents()).isEqualTo((long) groups * copies);
  }

  /**
   * Two instances of the store on one backend, as two service nodes, receive near-copies at the
   * same time: exactly one of each group is new, whichever instance it reached. A store that
   * serialises check-and-insert with a lock in its own process fails this, since each instance has
   * its own.
   */
  @Test
  public void checkAndInsert_twoInstancesOnOneBackend_exactlyOneNewPerGroup() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        opensTwice(), "this store admits one instance per backend at a time (see opensTwice)");
    FingerprintStore one = store();
    FingerprintStore two = store();
    Collection a = one.create("news", SETTINGS);
    Collection b = two.collection("news");
    assertThat(b).as("the collection created through the first instance").isNotNull();
    int groups = 150;
    int copies = 8;
    SplittableRandom r = new SplittableRandom(SEED + 1);
    List<Document> docs = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      // 80 words: two different one-word edits of a text are still above the threshold.
      String text = Texts.text(r, 80);
      for (int i = 0; i < copies; i++) {
        docs.add(doc(a, g + "-" + i, i % 2 == 0 ? text : Texts.edit(r, text)));
      }
    }
    Collections.shuffle(docs, new Random(SEED));
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    ConcurrentHashMap<String, Outcome> outcomes = new ConcurrentHashMap<>();
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Collection mine = t % 2 == 0 ? a : b;
      futures.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = next.getAndIncrement(); i < docs.size(); i = next.getAndIncrement()) {
                  outcomes.put(docs.get(i).id(), mine.checkAndInsert(docs.get(i)));
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(120L * timeLimitScale(), TimeUnit.SECONDS);
    }
    pool.shutdown();
    for (int g = 0; g < groups; g++) {
      int fresh = 0;
      @Nullable String newId = null;
      for (int i = 0; i < copies; i++) {
        Outcome o = outcomes.get(g + "-" + i);
        if (o.isNew()) {
          fresh++;
          newId = o.id();
        }
      }
      assertThat(fresh).as("new documents in group %s", g).isEqualTo(1);
      for (int i = 0; i < copies; i++) {
        assertThat(outcomes.get(g + "-" + i).cluster()).isEqualTo(newId);
        assertThat(b.get(g + "-" + i).orElseThrow().cluster()).isEqualTo(newId);
      }
    }
    assertThat(a.stats().documents()).isEqualTo((long) groups * copies);
    assertThat(b.stats().documents()).isEqualTo((long) groups * copies);
  }

  // --- durability --------------------------------------------------------------------------

  @Test
  public void reopen_keepsCollectionsDocumentsAndClusters() throws IOException {
    SplittableRandom r = new SplittableRandom(SEED);
    String text = Texts.text(r, 30);
    String other = Texts.text(r, 30);
    CollectionSettings fpSettings =
        SETTINGS.withVerify(false).withRetention(Duration.ofHours(2)).withMaxDistance(2);
    FingerprintStore s = open(clock);
    Collection c = s.create("news", SETTINGS);
    c.checkAndInsert(doc(c, "a", text));
    c.checkAndInsert(doc(c, "b", text));
    c.checkAndInsert(doc(c, "gone", other));
    c.delete("gone");
    s.create("fps", fpSettings);
    s.create("dropped", SETTINGS);
    s.drop("dropped");
    s.close();

    FingerprintStore again = store();
    assertThat(again.collections()).extracting(Collection::name).containsExactly("fps", "news");
    assertThat(again.collection("fps").settings()).isEqualTo(fpSettings);
    Collection c2 = again.collection("news");
    assertThat(c2.get("a").orElseThrow().cluster()).isEqualTo("a");
    assertThat(c2.get("b").orElseThrow().cluster()).isEqualTo("a");
    assertThat(c2.get("gone")).isEmpty();
    assertThat(c2.stats().documents()).isEqualTo(2);
    Outcome o = c2.checkAndInsert(doc(c2, "c", text));
    assertThat(o.isNew()).isFalse();
    assertThat(o.cluster()).isEqualTo("a");
    assertThat(c2.checkAndInsert(doc(c2, "a", other)).status()).isEqualTo(Status.EXISTS);
  }

  @Test
  public void reopen_afterRetention_doesNotBringExpiredDocumentsBack() throws IOException {
    FingerprintStore s = open(clock);
    Collection c =
        s.create(
            "news",
            SETTINGS.withRetention(Duration.ofHours(1)).withRetentionBasis(RetentionBasis.ARRIVAL));
    String text = Texts.text(new SplittableRandom(SEED), 30);
    c.checkAndInsert(doc(c, "a", text));
    s.close();
    clock.advance(Duration.ofHours(2));
    FingerprintStore again = store();
    Collection c2 = again.collection("news");
    c2.expire();
    assertThat(c2.get("a")).isEmpty();
    assertThat(c2.check(c2.analyzer().analyze(text)).isNew()).isTrue();
  }
}
