// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A fault-injection file layer that simulates a power cut: it remembers, for every byte written and
 * every name created, renamed or deleted, whether a completed fsync covers it (a {@code force} of
 * the file for its bytes, a {@link #syncDirectory} of its directory for its name), and on {@link
 * #powerCut()} puts the files back as a disk would have them after losing power: every write not
 * covered is undone (the old bytes back, the old length), every name change not covered reverted.
 * The real fsyncs are not made: the page cache is the simulated disk's volatile cache.
 *
 * <p>The cut comes at a chosen operation (the {@code cutAt}-th write, force or name change, counted
 * from the start): that operation and every later one fail with {@link PowerCut}, as if the machine
 * had stopped there. One lock orders every operation, so the bookkeeping is exact.
 *
 * <p>{@link #skipForces} makes forces of matching files do nothing (a log that skips its fsync).
 */
final class PowerCutFiles extends FileLayer {
  /** What every operation throws once the power is cut. */
  static final class PowerCut extends IOException {
    private static final long serialVersionUID = 1L;

    PowerCut() {
      super("simulated power cut");
    }
  }

  private record Undo(long position, byte[] old, long oldSize) {}

  /** Writes of one file not yet covered by a force, under its current name. */
  private static final class FileState {
    Path path;
    final List<Undo> undo = new ArrayList<>();

    FileState(Path path) {
      this.path = path;
    }
  }

  private sealed interface DirOp permits Created, Moved, Deleted {}

  private record Created(Path path) implements DirOp {}

  private record Moved(Path from, Path to, byte[] oldTo) implements DirOp {}

  private record Deleted(Path path, byte[] durable) implements DirOp {}

  private final Object lock = new Object();
  private final long cutAt;
  private final Map<Path, FileState> files = new HashMap<>();
  private final List<DirOp> dirOps = new ArrayList<>();
  private long ops;
  private boolean cut;
  private String cutDuring = "";
  private Predicate<Path> skipForces = p -> false;
  private int forcesSkipped;
  private boolean cutAfterSkippedForce;
  private Predicate<String> cutOn = what -> true;
  private Predicate<String> uncheckedNext = what -> false;
  private long matched;

  /**
   * @param cutAt the operation (1-based) at which the power goes, or Long.MAX_VALUE for never
   */
  PowerCutFiles(long cutAt) {
    this.cutAt = cutAt;
  }

  /**
   * Counts only the operations whose description matches for {@code cutAt}: {@code "write NAME"}
   * (at the channel's position), {@code "pwrite NAME"} (at a given one), {@code "force NAME"},
   * {@code "truncate NAME"}, {@code "open NAME"}, {@code "rename NAME"}, {@code "delete NAME"},
   * {@code "sync directory"}.
   */
  PowerCutFiles cutOn(Predicate<String> what) {
    synchronized (lock) {
      this.cutOn = what;
    }
    return this;
  }

  /**
   * Forces of files matching {@code p} do nothing from now on; with {@code thenCut}, the power goes
   * at the first operation after the first skipped force (the writes it acknowledged are then lost,
   * unless the test misses it).
   */
  PowerCutFiles skipForces(Predicate<Path> p, boolean thenCut) {
    synchronized (lock) {
      this.skipForces = p;
      this.cutAfterSkippedForce = thenCut;
    }
    return this;
  }

  /**
   * Skips one force: the {@code nth} (1-based) of files matching {@code p}, then cuts the power at
   * the next operation.
   */
  PowerCutFiles skipOneForce(Predicate<Path> p, int nth) {
    int[] seen = {0};
    return skipForces(f -> p.test(f) && ++seen[0] == nth, true);
  }

  /**
   * The next operation that matches (see {@link #cutOn}) throws an unchecked exception (a bug, not
   * a disk error).
   */
  void failNextUnchecked(Predicate<String> what) {
    synchronized (lock) {
      uncheckedNext = what;
    }
  }

  boolean isCut() {
    synchronized (lock) {
      return cut;
    }
  }

  long operations() {
    synchronized (lock) {
      return ops;
    }
  }

  int forcesSkipped() {
    synchronized (lock) {
      return forcesSkipped;
    }
  }

  /** What the operation the power went during was, e.g. "write snapshot-…ndsnap.tmp". */
  String cutDuring() {
    synchronized (lock) {
      return cutDuring;
    }
  }

  /** Counts an operation; throws if the power is (or goes) off. Caller holds the lock. */
  private void tick(String what) throws PowerCut {
    if (cut) {
      throw new PowerCut();
    }
    ops++;
    if (uncheckedNext.test(what)) {
      uncheckedNext = w -> false;
      throw new IllegalStateException("an unchecked failure injected into " + what);
    }
    if (cutOn.test(what)) {
      matched++;
    }
    // (and at the latest after 100,000 operations, so that a run whose operation never comes
    // ends)
    if (matched >= cutAt || (cutAfterSkippedForce && forcesSkipped > 0) || ops >= 100_000) {
      cut = true;
      cutDuring = what;
      throw new PowerCut();
    }
  }

  private FileState state(Path p) {
    return files.computeIfAbsent(p.toAbsolutePath().normalize(), FileState::new);
  }

  /**
   * Cuts the power now if it is still on, and puts every file as a disk would have it: uncovered
   * writes undone, uncovered name changes reverted (the newest first).
   */
  void powerCut() throws IOException {
    synchronized (lock) {
      if (!cut) {
        cut = true;
        cutDuring = "(after the run)";
      }
      for (FileState f : files.values()) {
        if (f.undo.isEmpty() || !Files.exists(f.path)) {
          continue;
        }
        try (RandomAccessFile raf = new RandomAccessFile(f.path.toFile(), "rw")) {
          for (int i = f.undo.size() - 1; i >= 0; i--) {
            Undo u = f.undo.get(i);
            raf.seek(u.position());
            raf.write(u.old());
            raf.setLength(u.oldSize());
          }
        }
        f.undo.clear();
      }
      for (int i = dirOps.size() - 1; i >= 0; i--) {
        DirOp op = dirOps.get(i);
        if (op instanceof Created c) {
          Files.deleteIfExists(c.path());
        } else if (op instanceof Moved m) {
          if (Files.exists(m.to())) {
            Files.move(m.to(), m.from());
          }
          if (m.oldTo() != null) {
            Files.write(m.to(), m.oldTo());
          }
        } else if (op instanceof Deleted d) {
          Files.write(d.path(), d.durable());
        }
      }
      dirOps.clear();
      files.clear();
    }
  }

  /** The file's content as the disk holds it: the current bytes with uncovered writes undone. */
  private static byte[] durableImage(Path p, FileState f) throws IOException {
    byte[] b = Files.readAllBytes(p);
    for (int i = f.undo.size() - 1; i >= 0; i--) {
      Undo u = f.undo.get(i);
      long end = Math.max(b.length, u.position() + u.old().length);
      if (end > b.length) {
        b = Arrays.copyOf(b, (int) end);
      }
      System.arraycopy(u.old(), 0, b, (int) u.position(), u.old().length);
      b = Arrays.copyOf(b, (int) u.oldSize());
    }
    return b;
  }

  // --- the layer --------------------------------------------------------------------------------

  @Override
  FileChannel open(Path file, OpenOption... options) throws IOException {
    synchronized (lock) {
      tick("open " + file.getFileName());
      Path p = file.toAbsolutePath().normalize();
      Set<OpenOption> o = Set.of(options);
      boolean existed = Files.exists(p);
      byte[] old =
          existed
                  && o.contains(StandardOpenOption.TRUNCATE_EXISTING)
                  && o.contains(StandardOpenOption.WRITE)
              ? Files.readAllBytes(p)
              : null;
      FileChannel real = FileChannel.open(p, options);
      FileState f = state(p);
      if (!existed) {
        dirOps.add(new Created(p));
      } else if (old != null) {
        f.undo.add(new Undo(0, old, old.length));
      }
      return new Channel(real, FileChannel.open(p, StandardOpenOption.READ), f);
    }
  }

  @Override
  void syncDirectory(Path dir) throws IOException {
    synchronized (lock) {
      tick("sync directory");
      Path d = dir.toAbsolutePath().normalize();
      dirOps.removeIf(
          op ->
              d.equals(
                  (op instanceof Created c
                          ? c.path()
                          : op instanceof Moved m ? m.to() : ((Deleted) op).path())
                      .getParent()));
    }
  }

  @Override
  void move(Path from, Path to, CopyOption... options) throws IOException {
    synchronized (lock) {
      tick("rename " + from.getFileName());
      Path f = from.toAbsolutePath().normalize();
      Path t = to.toAbsolutePath().normalize();
      byte[] oldTo = null;
      if (Files.exists(t)) {
        FileState ts = files.remove(t);
        oldTo = ts == null ? Files.readAllBytes(t) : durableImage(t, ts);
      }
      Files.move(f, t, options);
      FileState s = files.remove(f);
      if (s != null) {
        s.path = t;
        files.put(t, s);
      }
      dirOps.add(new Moved(f, t, oldTo));
    }
  }

  @Override
  boolean deleteIfExists(Path file) throws IOException {
    synchronized (lock) {
      tick("delete " + file.getFileName());
      Path p = file.toAbsolutePath().normalize();
      if (!Files.exists(p)) {
        return false;
      }
      FileState s = files.remove(p);
      byte[] durable = s == null ? Files.readAllBytes(p) : durableImage(p, s);
      Files.delete(p);
      dirOps.add(new Deleted(p, durable));
      return true;
    }
  }

  /** A channel whose writes, truncations and forces go through the bookkeeping. */
  private final class Channel extends FileChannel {
    private final FileChannel d;
    private final FileChannel reader; // the file may be open for writing only
    private final FileState f;

    Channel(FileChannel d, FileChannel reader, FileState f) {
      this.d = d;
      this.reader = reader;
      this.f = f;
    }

    private String name() {
      return f.path.getFileName().toString();
    }

    /** Records the bytes a write of n bytes at pos replaces. Caller holds the lock. */
    private void recordWrite(long pos, int n) throws IOException {
      long size = d.size();
      int keep = (int) Math.max(0, Math.min(pos + n, size) - pos);
      ByteBuffer old = ByteBuffer.allocate(keep);
      while (old.hasRemaining()) {
        if (reader.read(old, pos + old.position()) < 0) {
          break;
        }
      }
      f.undo.add(new Undo(pos, Arrays.copyOf(old.array(), old.position()), size));
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      synchronized (lock) {
        tick("write " + name());
        recordWrite(d.position(), src.remaining());
        return d.write(src);
      }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      synchronized (lock) {
        tick("pwrite " + name());
        recordWrite(position, src.remaining());
        return d.write(src, position);
      }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long n = 0;
      for (int i = offset; i < offset + length; i++) {
        n += write(srcs[i]);
      }
      return n;
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      synchronized (lock) {
        tick("truncate " + name());
        long old = d.size();
        if (size < old) {
          ByteBuffer tail = ByteBuffer.allocate((int) (old - size));
          while (tail.hasRemaining() && reader.read(tail, size + tail.position()) >= 0) {
            // read it all
          }
          f.undo.add(new Undo(size, tail.array(), old));
        }
        d.truncate(size);
        return this;
      }
    }

    @Override
    public void force(boolean metaData) throws IOException {
      synchronized (lock) {
        tick("force " + name());
        if (skipForces.test(f.path)) {
          forcesSkipped++;
          return;
        }
        f.undo.clear();
      }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return d.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return d.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return d.read(dst, position);
    }

    @Override
    public long position() throws IOException {
      return d.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      d.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return d.size();
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) {
      throw new UnsupportedOperationException("not simulated");
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) {
      throw new UnsupportedOperationException("not simulated");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
      throw new UnsupportedOperationException("not simulated");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return d.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return d.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      try {
        d.close();
      } finally {
        reader.close();
      }
    }
  }
}
