// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionStats;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoredDocument;

/** A store whose inserts wait at a gate until the test opens it: holds requests in progress. */
final class GatedStore implements FingerprintStore {
  private final FingerprintStore delegate;
  final CountDownLatch gate = new CountDownLatch(1);
  final AtomicInteger waiting = new AtomicInteger();

  GatedStore(FingerprintStore delegate) {
    this.delegate = delegate;
  }

  void awaitWaiting(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (waiting.get() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only " + waiting.get() + " of " + n + " requests reached the store");
      }
      Thread.sleep(5);
    }
  }

  private void pass() {
    waiting.incrementAndGet();
    try {
      if (!gate.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("gate never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String kind() {
    return delegate.kind();
  }

  @Override
  public Collection create(String name, CollectionSettings settings) throws IOException {
    return new Gated(delegate.create(name, settings));
  }

  @Override
  public @Nullable Collection collection(String name) {
    Collection c = delegate.collection(name);
    return c == null ? null : new Gated(c);
  }

  @Override
  public List<Collection> collections() {
    List<Collection> out = new ArrayList<>();
    for (Collection c : delegate.collections()) {
      out.add(new Gated(c));
    }
    return out;
  }

  @Override
  public boolean drop(String name) throws IOException {
    return delegate.drop(name);
  }

  @Override
  public void sync() throws IOException {
    delegate.sync();
  }

  @Override
  public void checkpoint() throws IOException {
    delegate.checkpoint();
  }

  @Override
  public boolean isHealthy() {
    return delegate.isHealthy();
  }

  @Override
  public Map<String, Number> metrics() {
    return delegate.metrics();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  private final class Gated implements Collection {
    private final Collection c;

    Gated(Collection c) {
      this.c = c;
    }

    @Override
    public String name() {
      return c.name();
    }

    @Override
    public CollectionSettings settings() {
      return c.settings();
    }

    @Override
    public Analyzer analyzer() {
      return c.analyzer();
    }

    @Override
    public Outcome checkAndInsert(Document document) throws IOException {
      pass();
      return c.checkAndInsert(document);
    }

    @Override
    public List<Outcome> checkAndInsertAll(List<Document> documents) throws IOException {
      pass();
      return c.checkAndInsertAll(documents);
    }

    @Override
    public Outcome check(Analysis analysis) {
      return c.check(analysis);
    }

    @Override
    public Optional<StoredDocument> get(String id) {
      return c.get(id);
    }

    @Override
    public boolean delete(String id) throws IOException {
      return c.delete(id);
    }

    @Override
    public int expire() {
      return c.expire();
    }

    @Override
    public CollectionStats stats() {
      return c.stats();
    }
  }
}
