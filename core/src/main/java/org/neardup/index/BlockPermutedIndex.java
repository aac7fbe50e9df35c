// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntToLongFunction;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;

/**
 * The fast {@link HammingIndex}: Manku's permuted sorted tables, one per block combination of a
 * {@link BlockScheme}, in immutable segments behind a small mutable add buffer.
 *
 * <p><b>Thread safety.</b> Exactly one writer thread at a time may call {@link #add}, {@link
 * #addAll}, {@link #remove}, {@link #forceMerge} and {@link #awaitMerges} (callers serialise
 * writers themselves); any number of reader threads may call {@link #search}, {@link #nearest},
 * {@link #any}, {@link #size}, {@link #segmentCount} and {@link #ramBytesUsed} concurrently with
 * it, without locks. A reader sees every entry whose add completed before its call began, never a
 * half-written entry, and never an entry twice.
 *
 * <p><b>Background work.</b> Full add buffers become segments, and segments merge, on a daemon
 * thread shared by all indexes ({@code neardup-index-merge}); the writer never waits for a freeze
 * or a merge. A full buffer is swapped for a fresh one and searched as it is until its segment is
 * ready; a merge's inputs are searched until its output replaces them; a remove made meanwhile is
 * carried over into the output. Nothing needs closing. {@link #awaitMerges} waits for the
 * background work to finish (tests, bulk loads, benchmarks); {@link #forceMerge} waits for it and
 * then merges everything in the caller's thread.
 *
 * <p><b>Cost</b>, n entries, T tables, default scheme and k = 3: a search looks up one key per
 * table and segment and compares about {@code T * n / 2^16} stored fingerprints (some 600 at 10M)
 * with one XOR and popcount each; it allocates nothing (each thread reuses one search state). An
 * index fed by single adds holds a base segment and one or two small ones ({@link MergePolicy}).
 * For k beyond {@link BlockScheme#exactUpTo()} it probes every key within {@link
 * BlockScheme#keyErrors(int)} flips, or scans when that would cost more. {@link #add} is O(1) in
 * the writer's thread, plus about 10-15 entry copies per add in the background. Memory (see {@link
 * Segment}): for the default scheme {@code 10 + 4 (T - 1)} = 22 bytes per entry when a segment's
 * docIds span less than 2^32 (26 otherwise), for other schemes {@code 14 + 6 (T - 1)}, plus 256 KiB
 * of directory per table and segment, the add buffers, for schemes with keys wider than 16 bits a
 * fine directory of 2-4 bytes per entry and table in segments of 2M entries or more, and while a
 * merge runs, its output.
 */
public final class BlockPermutedIndex implements HammingIndex {
  /*
   * A state is (segments, frozen buffers, active buffer), published through the volatile field
   * `state`; a reader searches the one state it read. Segments are immutable apart from tombstone
   * bits; the active buffer is append-only and publishes its size through a volatile int; frozen
   * buffers are full and never appended to again. Each entry lives in exactly one part of a state.
   *
   * Who changes what: the writer appends to the active buffer without a lock. Every other change
   * happens under `lock`: replacing the state (the writer swapping buffers or adding bulk
   * segments, a job publishing its output), setting a tombstone in a segment or frozen buffer, and
   * starting or finishing a job. The writer holds the lock for microseconds (a find and a bit; an
   * array copy); a job holds it only to publish.
   *
   * A job (Job) freezes one frozen buffer into a segment, merges two segments, or compacts one.
   * Started under the lock, it marks its inputs busy by giving each a RemovalLog. It runs in two
   * executor steps: build, then publish. Build reads a snapshot of each input's tombstones and
   * builds the output from the entries live in the snapshot, outside the lock. Publish, under the
   * lock: for each logged remove whose entry was live in the snapshot (so the output holds a copy
   * of it), marks one live copy of that (fingerprint, docId) dead in the output; then swaps the
   * inputs for the output in one new state and asks MergePolicy for the next jobs. The log starts
   * before the snapshot is read, so every remove is either in the snapshot or in the log; copies of
   * a pair are interchangeable, so the output's live multiset equals the inputs' at publication.
   *
   * Every match is reported exactly once: an entry x within k of query q is reported from table t
   * only if t is the first table whose key differs from q's in at most e = keyErrors(k) bits, the
   * same rule that decides whether table t's probes reach x [1]. In a segment, a match found in a
   * record table is reported once for all its copies (equal values are adjacent) by looking its
   * fingerprint up in table 0, which holds the docIds and tombstones.
   *
   * Invariants (checkInvariants, under the lock): each segment's own invariants (see Segment); each
   * buffer's (see AddBuffer); size == live entries of all parts; every segment holds at most
   * Segment.MAX_SIZE entries, and at least one live one unless a job reads it; frozen buffers are
   * full; a part is busy (removals != null) iff it is an input of exactly one running job, and
   * every frozen buffer is busy unless a job failed; jobs == running.length; with no job running,
   * MergePolicy selects nothing.
   *
   * [1] Manku, Jain, Das Sarma. Detecting Near-Duplicates for Web Crawling. WWW 2007, section 3.
   */

  /**
   * Largest add buffer. For adds alone 2^16, 2^17 and 2^18 were indistinguishable within the noise
   * of a shared 2-core box (5M adds: 0.7-2.3M/s, 1.4-1.7M/s and 0.6-1.6M/s). With searches
   * interleaved one for one with adds onto a 10M base (the service's check-and-insert), a smaller
   * buffer wins: its chains are shorter and its heads stay in cache, and the extra freezes and
   * small merges cost less than that saves. 3M adds, alternating runs: searches 2.67-2.89 us and
   * adds 0.14-0.17 us at 2^15, against 2.95-2.97 and 0.20 at 2^17, with the same process CPU.
   */
  static final int DEFAULT_BUFFER_CAPACITY = 1 << 15;

  private static final int INITIAL_BUFFER_CAPACITY = 1 << 10;

  private static final MatchConsumer NONE = (docId, fingerprint, distance) -> {};

  private static final Job[] NO_JOBS = new Job[0];

  private final BlockScheme scheme;
  private final RecordLayout layout;
  private final int tables;
  private final IndexSearch search;
  private final int maxBufferCapacity;
  private final Executor executor;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition quiet = lock.newCondition();
  private volatile State state;
  private volatile long size;
  // Running jobs (queued, building or waiting to publish); replaced under the lock, read by
  // ramBytesUsed without it.
  private volatile Job[] running = NO_JOBS;
  private @Nullable Throwable failure; // guarded by lock: the first job that failed

  private static final class State {
    final Segment[] segments;
    final AddBuffer[] frozen; // full buffers whose segments jobs are building, oldest first
    final AddBuffer buffer;

    State(Segment[] segments, AddBuffer[] frozen, AddBuffer buffer) {
      this.segments = segments;
      this.frozen = frozen;
      this.buffer = buffer;
    }
  }

  private BlockPermutedIndex(BlockScheme scheme, int maxBufferCapacity, Executor executor) {
    this.scheme = scheme;
    this.layout = new RecordLayout(scheme);
    this.tables = scheme.tables();
    this.maxBufferCapacity = maxBufferCapacity;
    this.executor = executor;
    search = new IndexSearch(scheme, layout);
    state = new State(new Segment[0], new AddBuffer[0], new AddBuffer(scheme, initialCapacity()));
  }

  /** An empty index with the {@linkplain BlockScheme#DEFAULT default} scheme. */
  public static BlockPermutedIndex create() {
    return create(BlockScheme.DEFAULT);
  }

  /** An empty index with the given scheme. */
  public static BlockPermutedIndex create(BlockScheme scheme) {
    Checks.checkArgument(scheme != null, "scheme must not be null");
    return new BlockPermutedIndex(scheme, DEFAULT_BUFFER_CAPACITY, MergeThreads.shared());
  }

  /**
   * An empty index whose add buffer holds at most {@code bufferCapacity} entries before it becomes
   * a segment. Small buffers exercise segments and merges in tests.
   */
  static BlockPermutedIndex create(BlockScheme scheme, int bufferCapacity) {
    return create(scheme, bufferCapacity, MergeThreads.shared());
  }

  /**
   * As {@link #create(BlockScheme, int)}, running background jobs on {@code executor}: tests pass
   * one that runs them when told, to force interleavings. Each job takes two {@code execute} calls,
   * one to build its output and one to publish it; the executor must run every task it accepts, in
   * any order and any thread, or reject it (the index then stops merging and {@link #awaitMerges}
   * throws).
   */
  static BlockPermutedIndex create(BlockScheme scheme, int bufferCapacity, Executor executor) {
    Checks.checkArgument(scheme != null, "scheme must not be null");
    Checks.checkArgument(
        bufferCapacity >= 1 && Integer.bitCount(bufferCapacity) == 1,
        "bufferCapacity must be a power of two >= 1, got %s",
        (long) bufferCapacity);
    Checks.checkArgument(executor != null, "executor must not be null");
    return new BlockPermutedIndex(scheme, bufferCapacity, executor);
  }

  /** The scheme this index was created with. */
  public BlockScheme scheme() {
    return scheme;
  }

  /**
   * The number of immutable segments (not counting the add buffer, nor full buffers waiting for
   * their segment).
   */
  public int segmentCount() {
    return state.segments.length;
  }

  /** The number of full add buffers waiting for a background job to make them a segment. */
  int frozenCount() {
    return state.frozen.length;
  }

  // ---------------------------------------------------------------------------------------------
  // Writer

  @Override
  public void add(long fingerprint, long docId) {
    AddBuffer b = state.buffer;
    if (b.size == b.capacity) {
      b = makeRoom();
    }
    b.append(scheme, fingerprint, docId);
    size = size + 1;
  }

  /**
   * Adds {@code fingerprints[i], docIds[i]} for {@code from <= i < to}. A large range is sorted
   * into a segment directly in the caller's thread (radix sort, several million entries per
   * second), much faster than adding one by one; merging it with other segments happens in the
   * background.
   *
   * @throws IllegalArgumentException if the arrays' lengths differ or the range is out of bounds
   */
  @Override
  public void addAll(long[] fingerprints, long[] docIds, int from, int to) {
    checkBulk(fingerprints, docIds, from, to);
    if (to - from < maxBufferCapacity) {
      for (int i = from; i < to; i++) {
        add(fingerprints[i], docIds[i]);
      }
      return;
    }
    for (int start = from; start < to; ) {
      int end = (int) Math.min(to, (long) start + Segment.MAX_SIZE);
      addSegment(
          Segment.build(
              layout,
              Arrays.copyOfRange(fingerprints, start, end),
              Arrays.copyOfRange(docIds, start, end)));
      start = end;
    }
  }

  /**
   * As {@link #addAll} over the whole arrays, but takes them over instead of copying them: they
   * become the new segment's work space (sorted in place), and the caller must not use them
   * afterwards. For a bulk build whose caller made the arrays for this call only (a store's open,
   * where the copies cost 16 bytes per entry of transient heap).
   *
   * @throws IllegalArgumentException if the arrays' lengths differ
   */
  public void addAllOwned(long[] fingerprints, long[] docIds) {
    checkBulk(fingerprints, docIds, 0, fingerprints == null ? 0 : fingerprints.length);
    if (fingerprints.length < maxBufferCapacity || fingerprints.length > Segment.MAX_SIZE) {
      addAll(fingerprints, docIds, 0, fingerprints.length);
      return;
    }
    addSegment(Segment.build(layout, fingerprints, docIds));
  }

  /**
   * Adds an image's entries as one segment, as {@link #addAllOwned} would have built it from the
   * same entries, without sorting anything. The image is used up: its segment becomes this index's.
   *
   * @throws IllegalArgumentException if the image was made for another scheme, or is used up
   */
  public void addImage(IndexImage image) {
    Checks.checkArgument(
        image.scheme().equals(scheme),
        "the image's scheme %s is not this index's %s",
        image.scheme(),
        scheme);
    Segment seg = image.take();
    if (seg.size > 0) {
      addSegment(seg);
    }
  }

  /** Publishes a segment the writer built, and starts the merges it makes due. */
  private void addSegment(Segment seg) {
    List<Job> next;
    lock.lock();
    try {
      State s = state;
      state = new State(append(s.segments, seg), s.frozen, s.buffer);
      next = planLocked();
    } finally {
      lock.unlock();
    }
    size = size + seg.live(); // an image may hold dead entries
    submitAll(next);
  }

  static void checkBulk(long[] fingerprints, long[] docIds, int from, int to) {
    Checks.checkArgument(fingerprints != null, "fingerprints must not be null");
    Checks.checkArgument(docIds != null, "docIds must not be null");
    Checks.checkArgument(
        fingerprints.length == docIds.length,
        "fingerprints.length must equal docIds.length, got %s and %s",
        (long) fingerprints.length,
        (long) docIds.length);
    Checks.checkArgument(
        from >= 0 && from <= to && to <= fingerprints.length,
        "need 0 <= from <= to <= length (%s), got from = %s, to = %s",
        (long) fingerprints.length,
        (long) from,
        (long) to);
  }

  @Override
  public boolean remove(long fingerprint, long docId) {
    // No job reads the active buffer, and only the writer changes it: no lock.
    if (state.buffer.remove(scheme, fingerprint, docId)) {
      size = size - 1;
      return true;
    }
    List<Job> next = null;
    lock.lock();
    try {
      State s = state;
      AddBuffer[] frozen = s.frozen;
      boolean found = false;
      for (int i = frozen.length - 1; i >= 0 && !found; i--) {
        AddBuffer fb = frozen[i];
        int j = fb.find(scheme, fingerprint, docId);
        if (j >= 0) {
          fb.markDead(j);
          if (fb.removals != null) {
            fb.removals.add(j);
          }
          found = true;
        }
      }
      Segment[] segs = s.segments;
      for (int i = segs.length - 1; i >= 0 && !found; i--) {
        Segment seg = segs[i];
        int at = seg.find(fingerprint, docId);
        if (at >= 0) {
          seg.markDead(at);
          found = true;
          if (seg.removals != null) {
            seg.removals.add(at); // for the job reading seg to carry over
          } else if (seg.live() == 0) {
            state = new State(remove(segs, i), frozen, s.buffer);
            next = planLocked(); // the neighbours of the dropped segment may now merge
          } else if (seg.deadCount * 2L > seg.size) {
            next = planLocked(); // compact a mostly dead segment: amortised O(1) per removal
          }
        }
      }
      if (!found) {
        return false;
      }
    } finally {
      lock.unlock();
    }
    size = size - 1;
    if (next != null) {
      submitAll(next);
    }
    return true;
  }

  /**
   * Waits for the background work of this index to finish: every full buffer frozen into a segment
   * and every merge the {@link MergePolicy} asks for done. Writer only, as adds would start new
   * work.
   *
   * @throws IllegalStateException if a background job failed (the index still answers correctly,
   *     from the parts that job could not replace, but merges no more)
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitMerges() throws InterruptedException {
    lock.lock();
    try {
      while (running.length > 0) {
        quiet.await();
      }
      checkNotFailed();
    } finally {
      lock.unlock();
    }
  }

  private void checkNotFailed() {
    if (failure != null) {
      throw new IllegalStateException("a background merge of this index failed", failure);
    }
  }

  /**
   * Merges every segment and the add buffers into one segment, which makes searches as fast as
   * after a bulk load. Synchronous: waits (uninterruptibly) for the background work to finish, then
   * merges in the caller's thread. Writer only; costs O(n) time and a second copy of the index
   * while it runs.
   *
   * @throws IllegalStateException if a background job failed
   */
  public void forceMerge() {
    lock.lock();
    try {
      while (running.length > 0) {
        quiet.awaitUninterruptibly();
      }
      checkNotFailed();
    } finally {
      lock.unlock();
    }
    // No job runs now, and none starts until this writer adds or removes again: the parts are
    // ours to read, tombstones included.
    State s = state;
    List<Segment> parts = new ArrayList<>(Arrays.asList(s.segments));
    for (AddBuffer b : s.frozen) {
      parts.add(Segment.fromBuffer(layout, b));
    }
    if (s.buffer.live() > 0) {
      parts.add(Segment.fromBuffer(layout, s.buffer));
    }
    parts.removeIf(seg -> seg.live() == 0);
    // Merge the two smallest while they fit: each entry is copied O(log parts) times.
    parts.sort((a, b) -> Integer.compare(a.live(), b.live()));
    while (parts.size() > 1
        && (long) parts.get(0).live() + parts.get(1).live() <= Segment.MAX_SIZE) {
      Segment merged = SegmentMerge.merge(layout, parts.remove(0), parts.remove(0));
      int at = 0;
      while (at < parts.size() && parts.get(at).live() < merged.live()) {
        at++;
      }
      parts.add(at, merged);
    }
    if (parts.size() == 1 && parts.get(0).deadCount > 0) {
      parts.set(0, SegmentMerge.merge(layout, parts.get(0), null));
    }
    lock.lock();
    try {
      state =
          new State(
              parts.toArray(new Segment[0]),
              new AddBuffer[0],
              new AddBuffer(scheme, initialCapacity()));
    } finally {
      lock.unlock();
    }
  }

  private int initialCapacity() {
    return Math.min(INITIAL_BUFFER_CAPACITY, maxBufferCapacity);
  }

  /** The active buffer is full: grow it, or swap in a fresh one and freeze it in the background. */
  private AddBuffer makeRoom() {
    AddBuffer b = state.buffer;
    if (b.capacity < maxBufferCapacity) {
      AddBuffer grown = b.grow(scheme); // only the writer touches the active buffer
      lock.lock();
      try {
        State s = state;
        state = new State(s.segments, s.frozen, grown);
      } finally {
        lock.unlock();
      }
      return grown;
    }
    // This index has filled a buffer, so more adds are likely: skip the regrowth.
    AddBuffer fresh = new AddBuffer(scheme, maxBufferCapacity);
    Job job = null;
    lock.lock();
    try {
      State s = state;
      if (b.live() == 0) {
        state = new State(s.segments, s.frozen, fresh);
      } else {
        state = new State(s.segments, append(s.frozen, b), fresh);
        if (failure == null) {
          job = startLocked(new Segment[0], b);
        }
      }
    } finally {
      lock.unlock();
    }
    if (job != null) {
      submit(job);
    }
    return fresh;
  }

  // --- background jobs

  /** Starts the jobs MergePolicy selects among idle segments; under the lock. */
  private List<Job> planLocked() {
    assert lock.isHeldByCurrentThread();
    if (failure != null) {
      return List.of();
    }
    Segment[] segs = state.segments;
    int idle = 0;
    for (Segment seg : segs) {
      if (seg.removals == null) {
        idle++;
      }
    }
    if (idle < 1) {
      return List.of();
    }
    Segment[] candidates = new Segment[idle];
    int[] live = new int[idle];
    int[] sizes = new int[idle];
    int c = 0;
    for (Segment seg : segs) {
      if (seg.removals == null) {
        candidates[c] = seg;
        live[c] = seg.live();
        sizes[c++] = seg.size;
      }
    }
    List<int[]> groups = MergePolicy.select(live, sizes, Segment.MAX_SIZE);
    List<Job> jobs = new ArrayList<>(groups.size());
    for (int[] g : groups) {
      Segment[] inputs = new Segment[g.length];
      for (int i = 0; i < g.length; i++) {
        inputs[i] = candidates[g[i]];
      }
      jobs.add(startLocked(inputs, null));
    }
    return jobs;
  }

  /** Marks the inputs busy and registers a job; under the lock. Submit it after unlocking. */
  private Job startLocked(Segment[] inputs, @Nullable AddBuffer frozen) {
    for (Segment seg : inputs) {
      assert seg.removals == null;
      seg.removals = new RemovalLog();
    }
    if (frozen != null) {
      assert frozen.removals == null;
      frozen.removals = new RemovalLog();
    }
    Job job = new Job(inputs, frozen);
    Job[] r = Arrays.copyOf(running, running.length + 1);
    r[r.length - 1] = job;
    running = r;
    return job;
  }

  private void submitAll(List<Job> jobs) {
    for (Job job : jobs) {
      submit(job);
    }
  }

  private void submit(Job job) {
    try {
      executor.execute(job);
    } catch (RejectedExecutionException e) {
      job.fail(e);
    }
  }

  /**
   * One background job: freezes a full buffer, or merges two segments, or compacts one. Runs in two
   * executor steps (build, then publish), so that a test executor can interleave the writer between
   * them.
   */
  final class Job implements Runnable {
    private final Segment[] inputs;
    private final @Nullable AddBuffer frozen;
    private final long cost;
    private long @Nullable [][] snapshots; // tombstones the output was built from, per input
    private @Nullable Segment output;
    private volatile boolean built;
    volatile long outputBytes; // counted by ramBytesUsed while the output is not in the state

    Job(Segment[] inputs, @Nullable AddBuffer frozen) {
      this.inputs = inputs;
      this.frozen = frozen;
      long c = frozen == null ? 0 : frozen.size;
      for (Segment seg : inputs) {
        c += seg.size;
      }
      cost = c;
    }

    /** Executors that order jobs run the smallest value first: publications, then cheap jobs. */
    long priority() {
      return built ? -1 : cost;
    }

    @Override
    public void run() {
      if (!built) {
        try {
          build();
        } catch (Throwable e) { // OutOfMemoryError included: the inputs stay searchable
          fail(e);
          return;
        }
        built = true;
        submit(this);
      } else {
        try {
          publish();
        } catch (Throwable e) {
          fail(e);
        }
      }
    }

    private void build() {
      if (frozen != null) {
        long[] dead = Segment.snapshot(frozen.dead);
        snapshots = new long[][] {dead};
        int live = frozen.size - Segment.popcount(dead);
        if (live > 0) {
          outputBytes = Segment.estimateBytes(layout, live);
          output = Segment.fromBuffer(layout, frozen, dead);
        }
        return;
      }
      long[][] snaps = new long[inputs.length][];
      long live = 0;
      for (int i = 0; i < inputs.length; i++) {
        snaps[i] = Segment.snapshot(inputs[i].dead);
        live += inputs[i].size - Segment.popcount(snaps[i]);
      }
      snapshots = snaps;
      if (live > 0) {
        outputBytes = Segment.estimateBytes(layout, live);
        output =
            SegmentMerge.merge(
                layout,
                inputs[0],
                snaps[0],
                inputs.length > 1 ? inputs[1] : null,
                inputs.length > 1 ? snaps[1] : null);
      }
    }

    private void publish() {
      List<Job> next;
      lock.lock();
      try {
        long[][] snaps = snapshots;
        Segment out = output;
        if (frozen != null) {
          long[] frozenFps = frozen.fps;
          long[] frozenIds = frozen.ids;
          carryOver(frozen.removals, snaps[0], j -> frozenFps[j], j -> frozenIds[j], out);
          frozen.removals = null;
        }
        for (int i = 0; i < inputs.length; i++) {
          carryOver(inputs[i].removals, snaps[i], inputs[i]::fp, inputs[i].ids::get, out);
          inputs[i].removals = null;
        }
        if (out != null && out.live() == 0) {
          out = null;
        }
        State s = state;
        Segment[] segs = without(s.segments, inputs);
        if (out != null) {
          segs = append(segs, out);
        }
        AddBuffer[] fro = s.frozen;
        if (frozen != null) {
          fro = without(fro, frozen);
        }
        state = new State(segs, fro, s.buffer);
        next = planLocked();
        finishLocked();
      } finally {
        lock.unlock();
      }
      submitAll(next);
    }

    /** The inputs stay in the state, idle; this index starts no more jobs. */
    void fail(Throwable e) {
      lock.lock();
      try {
        if (failure == null) {
          failure = e;
        }
        if (frozen != null) {
          frozen.removals = null;
        }
        for (Segment seg : inputs) {
          seg.removals = null;
        }
        finishLocked();
      } finally {
        lock.unlock();
      }
    }

    private void finishLocked() {
      outputBytes = 0;
      Job[] r = running;
      Job[] rest = new Job[r.length - 1];
      int o = 0;
      for (Job j : r) {
        if (j != this) {
          rest[o++] = j;
        }
      }
      assert o == rest.length;
      running = rest;
      if (rest.length == 0) {
        quiet.signalAll();
      }
    }

    boolean inputsIn(State s) {
      for (Segment seg : inputs) {
        if (!Arrays.asList(s.segments).contains(seg)) {
          return false;
        }
      }
      return frozen == null || Arrays.asList(s.frozen).contains(frozen);
    }

    boolean reads(Object part) {
      if (part == frozen) {
        return true;
      }
      for (Segment seg : inputs) {
        if (seg == part) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Carries the removes logged for one input over into the output: a logged entry that was live in
   * the snapshot has a copy in the output, which dies now.
   */
  private static void carryOver(
      @Nullable RemovalLog log,
      long[] snapshot,
      IntToLongFunction fps,
      IntToLongFunction ids,
      @Nullable Segment out) {
    if (log == null) {
      return;
    }
    for (int r = 0; r < log.size(); r++) {
      int at = log.get(r);
      if (!Segment.isSet(snapshot, at)) {
        boolean found = out != null && out.removeCopy(fps.applyAsLong(at), ids.applyAsLong(at));
        if (!found) {
          throw new IllegalStateException("carried-over remove found no live copy");
        }
      }
    }
  }

  private static Segment[] append(Segment[] segs, Segment seg) {
    Segment[] next = Arrays.copyOf(segs, segs.length + 1);
    next[segs.length] = seg;
    return next;
  }

  private static AddBuffer[] append(AddBuffer[] bufs, AddBuffer b) {
    AddBuffer[] next = Arrays.copyOf(bufs, bufs.length + 1);
    next[bufs.length] = b;
    return next;
  }

  private static Segment[] remove(Segment[] segs, int i) {
    Segment[] next = new Segment[segs.length - 1];
    System.arraycopy(segs, 0, next, 0, i);
    System.arraycopy(segs, i + 1, next, i, segs.length - i - 1);
    return next;
  }

  private static Segment[] without(Segment[] segs, Segment[] gone) {
    Segment[] next = new Segment[segs.length - gone.length];
    int o = 0;
    for (Segment seg : segs) {
      boolean keep = true;
      for (Segment g : gone) {
        keep &= seg != g;
      }
      if (keep) {
        next[o++] = seg;
      }
    }
    Checks.checkState(o == next.length, "a job's input is missing from the state");
    return next;
  }

  private static AddBuffer[] without(AddBuffer[] bufs, AddBuffer gone) {
    AddBuffer[] next = new AddBuffer[bufs.length - 1];
    int o = 0;
    for (AddBuffer b : bufs) {
      if (b != gone) {
        Checks.checkState(o < next.length, "a job's buffer is missing from the state");
        next[o++] = b;
      }
    }
    return next;
  }

  // ---------------------------------------------------------------------------------------------
  // Readers

  @Override
  public int search(long query, int maxDistance, MatchConsumer out) {
    Checks.checkMaxDistance(maxDistance, 64);
    Checks.checkArgument(out != null, "out must not be null");
    return run(query, maxDistance, out, Integer.MAX_VALUE);
  }

  @Override
  public int nearest(long query, int maxDistance, MatchConsumer out) {
    Checks.checkMaxDistance(maxDistance, 64);
    Checks.checkArgument(out != null, "out must not be null");
    Nearest best = new Nearest();
    run(query, maxDistance, best, Integer.MAX_VALUE);
    if (best.distance < 0) {
      return -1;
    }
    out.accept(best.docId, best.fingerprint, best.distance);
    return best.distance;
  }

  @Override
  public boolean any(long query, int maxDistance) {
    Checks.checkMaxDistance(maxDistance, 64);
    return run(query, maxDistance, NONE, 1) > 0;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public long ramBytesUsed() {
    Job[] r = running; // outputs under construction, read first: then a job that publishes
    State s = state; // meanwhile is counted twice rather than not at all
    long bytes = 128 + s.buffer.ramBytesUsed();
    for (AddBuffer b : s.frozen) {
      bytes += b.ramBytesUsed();
    }
    for (Segment seg : s.segments) {
      bytes += seg.ramBytesUsed();
    }
    for (Job job : r) {
      bytes += job.outputBytes;
    }
    return bytes;
  }

  @Override
  public int maxSupportedDistance() {
    return 64;
  }

  /** Tracks the nearest match: smallest distance, then smallest docId, then fingerprint. */
  static final class Nearest implements MatchConsumer {
    int distance = -1;
    long docId;
    long fingerprint;

    @Override
    public void accept(long docId, long fingerprint, int distance) {
      if (this.distance < 0
          || distance < this.distance
          || (distance == this.distance
              && (docId < this.docId
                  || (docId == this.docId
                      && Long.compareUnsigned(fingerprint, this.fingerprint) < 0)))) {
        this.distance = distance;
        this.docId = docId;
        this.fingerprint = fingerprint;
      }
    }
  }

  private int run(long q, int k, MatchConsumer out, int limit) {
    State s = state;
    return search.run(s.segments, s.frozen, s.buffer, q, k, out, limit);
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Checks every invariant of the index and its parts; tests call it after each scenario. Writer
   * only (it reads writer-private counters); holds the lock, so jobs cannot publish meanwhile. O(n
   * log n) per table.
   *
   * @throws IllegalStateException describing the first broken invariant
   */
  void checkInvariants() {
    lock.lock();
    try {
      State s = state;
      Job[] r = running;
      long live = s.buffer.live();
      s.buffer.checkInvariants(scheme);
      Checks.checkState(s.buffer.removals == null, "the active buffer is busy");
      for (AddBuffer b : s.frozen) {
        b.checkInvariants(scheme);
        live += b.live();
        Checks.checkState(b.size == b.capacity, "frozen buffer not full: %s", b.size);
        checkBusy(b, b.removals != null, r);
        Checks.checkState(
            b.removals != null || failure != null, "a frozen buffer has no job to freeze it");
      }
      for (Segment seg : s.segments) {
        seg.checkInvariants(layout);
        live += seg.live();
        Checks.checkState(seg.size <= Segment.MAX_SIZE, "segment too large: %s", seg.size);
        checkBusy(seg, seg.removals != null, r);
        Checks.checkState(
            seg.live() > 0 || seg.removals != null, "an idle segment has no live entry");
      }
      Checks.checkState(live == size, "size is %s but %s entries are live", size, live);
      for (Job job : r) {
        Checks.checkState(job.inputsIn(s), "a running job's input is not in the state");
      }
      if (r.length == 0 && failure == null) {
        int n = s.segments.length;
        int[] lives = new int[n];
        int[] sizes = new int[n];
        for (int i = 0; i < n; i++) {
          lives[i] = s.segments[i].live();
          sizes[i] = s.segments[i].size;
        }
        Checks.checkState(
            MergePolicy.select(lives, sizes, Segment.MAX_SIZE).isEmpty(),
            "no job runs but the merge policy has work: %s",
            this);
      }
    } finally {
      lock.unlock();
    }
  }

  private static void checkBusy(Object part, boolean busy, Job[] running) {
    int readers = 0;
    for (Job job : running) {
      if (job.reads(part)) {
        readers++;
      }
    }
    Checks.checkState(
        readers == (busy ? 1 : 0), "a part is busy = %s but read by %s jobs", busy, readers);
  }

  @Override
  public String toString() {
    State s = state;
    StringBuilder segs = new StringBuilder();
    for (Segment seg : s.segments) {
      segs.append(segs.length() == 0 ? "" : ", ").append(seg.size);
    }
    return "BlockPermutedIndex{scheme="
        + scheme
        + ", size="
        + size
        + ", segments=["
        + segs
        + "], frozen="
        + s.frozen.length
        + ", buffered="
        + s.buffer.size
        + ", jobs="
        + running.length
        + "}";
  }
}
