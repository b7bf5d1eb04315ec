package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.StorageFailedException;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentFile;
import dev.chartwell.engine.internal.segment.SegmentFileException;
import dev.chartwell.engine.internal.source.Schema;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.source.SourceStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One source's files: its write-ahead log, its segment files and its manifest (see {@code
 * docs/storage.md} for the layout and the commit protocol).
 *
 * <pre>
 * &lt;dir&gt;/manifest-&lt;generation&gt;   the published state ({@link Manifest})
 * &lt;dir&gt;/wal/                   the write-ahead log ({@link WriteAheadLog})
 * &lt;dir&gt;/segments/&lt;id&gt;.seg      sealed segments ({@link SegmentFile})
 * </pre>
 *
 * A segment is written to {@code <id>.seg.tmp}, forced, renamed and the directory forced; then a
 * manifest listing it and the log position its events reach is published; then the log files it
 * covers are deleted. A dropped source first deletes its manifests (after which a restart deletes
 * whatever is left), then its files once no query reads them.
 */
public final class SourceFiles implements SourceStorage {
  private static final String SEGMENTS = "segments";
  private static final String WAL = "wal";
  private static final String SEGMENT_SUFFIX = ".seg";
  private static final String TEMPORARY = ".tmp";

  private volatile Path dir; // moves once, when the source is dropped
  private final StorageContext context;
  private final boolean forces;
  private WriteAheadLog wal; // set before the storage is used

  /** The most one write to the log takes (a batch's records beyond it take several writes). */
  private static final long WRITE_BYTES = 64L << 20;

  private final AtomicInteger files = new AtomicInteger();
  private Manifest manifest; // guarded by this
  private long truncatable; // guarded by this: the log position of the manifest before it
  private volatile boolean dropped;
  private volatile RuntimeException failure;
  private volatile Consumer<Segment> onCorrupt = s -> {};

  private SourceFiles(Path dir, StorageContext context, Manifest manifest) {
    this.dir = dir;
    this.context = context;
    this.forces = context.policy().mode() != FsyncPolicy.Mode.NEVER;
    this.manifest = manifest;
  }

  /**
   * Creates the files of a new source: its directories and a first, empty manifest.
   *
   * @param dir the source's directory (must not exist)
   * @param spec the definition, with its id
   * @param context what the engine's storages share
   * @return the storage
   * @throws IOException when the files cannot be created
   */
  public static SourceFiles create(Path dir, SourceSpec spec, StorageContext context)
      throws IOException {
    OwnerOnly.createDirectories(dir.resolve(SEGMENTS));
    Durable.forceDirectory(dir.getParent());
    Manifest first = new Manifest(1, spec, 0, 0, spec.columns(), List.of());
    first.publish(dir);
    SourceFiles files = new SourceFiles(dir, context, first);
    files.wal = WriteAheadLog.openAfter(dir.resolve(WAL), context.policy(), 0);
    return files;
  }

  /**
   * What {@link #open} found: the storage, the published definition and state, and the segments
   * that verified (each with one reference for the source).
   *
   * @param files the storage
   * @param manifest the newest manifest that verifies
   * @param segments the listed segment files that opened, oldest first
   */
  public record Opened(SourceFiles files, Manifest manifest, List<Segment> segments) {
    /**
     * @return the source's published state
     */
    public SourceCore.Restored restored() {
      return new SourceCore.Restored(
          manifest.columns(), segments, manifest.nextSegmentId(), manifest.logPosition());
    }
  }

  /** A source directory whose manifests all fail to verify: it cannot be opened. */
  public static final class UnreadableException extends IOException {
    private static final long serialVersionUID = 1L;

    UnreadableException(String message) {
      super(message);
    }
  }

  /**
   * Opens a source's files after a restart: reads the newest manifest that verifies, deletes what
   * an interrupted publication or drop left, opens every listed segment file (checking header,
   * footer and table of contents; a file that fails is moved to quarantine and reported, and the
   * manifest republished without it) and recovers the write-ahead log (cutting a torn tail).
   *
   * @param dir the source's directory
   * @param context what the engine's storages share
   * @return what was found, or {@code null} when the directory holds no manifest at all (a source
   *     whose creation or drop was interrupted: the caller deletes it)
   * @throws UnreadableException when manifests exist but none verifies
   * @throws IOException when the files cannot be read
   */
  public static Opened open(Path dir, StorageContext context) throws IOException {
    // The log's lock first: nothing in the folder is read, deleted or recovered before it is ours.
    DirectoryLock walLock = WriteAheadLog.lock(dir.resolve(WAL), context.policy());
    Manifest m;
    try {
      if (!Manifest.exists(dir)) {
        walLock.close();
        return null;
      }
      List<String> problems = new ArrayList<>();
      m = Manifest.readLatest(dir, problems::add).orElse(null);
      problems.forEach(context::report);
      if (m == null) {
        throw new UnreadableException(
            "no manifest of source directory " + dir + " verifies: " + String.join("; ", problems));
      }
      Manifest.removeTemporaries(dir);
    } catch (IOException | RuntimeException e) {
      walLock.close();
      throw e;
    }
    Path segmentsDir = dir.resolve(SEGMENTS);
    SourceFiles files = new SourceFiles(dir, context, m);
    List<Segment> segments = new ArrayList<>();
    try {
      OwnerOnly.createDirectories(segmentsDir);
      removeUnlisted(segmentsDir, m);
      List<Manifest.SegmentEntry> kept = new ArrayList<>();
      for (Manifest.SegmentEntry e : m.segments()) {
        Path file = segmentsDir.resolve(e.file());
        if (!Files.exists(file)) {
          context.report(
              "source "
                  + m.spec().id()
                  + ": segment file "
                  + file
                  + " is listed but missing; its"
                  + " events are gone");
          continue;
        }
        try {
          long size = Files.size(file);
          if (size != e.length()) {
            throw new SegmentFileException(
                file, "it is " + size + " bytes, the manifest says " + e.length());
          }
          segments.add(files.opened(SegmentFile.open(file, e.id(), files::corrupt)));
          kept.add(e);
        } catch (IOException ex) {
          context.quarantine(file, m.spec().id(), ex.getMessage());
        }
      }
      DirectoryLock lock = walLock;
      walLock = null; // openLog owns it now
      files.wal = openLog(dir, context, m, lock);
      if (kept.size() != m.segments().size()) {
        Manifest next = m.next(m.logPosition(), m.nextSegmentId(), m.columns(), kept);
        next.publish(dir);
        files.manifest = next;
      }
      return new Opened(files, files.manifest, segments);
    } catch (IOException | RuntimeException e) {
      segments.forEach(s -> s.retire(null));
      closeQuietly(files.wal, walLock, e);
      throw e;
    }
  }

  /** After a failed open: releases the log (and its lock) or the lock alone, whichever it holds. */
  private static void closeQuietly(WriteAheadLog wal, DirectoryLock lock, Exception failure) {
    try {
      if (wal != null) {
        wal.close();
      } else if (lock != null) {
        lock.close();
      }
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * Opens the log after the manifest's position; a corrupt log is moved to quarantine. Owns the
   * lock: the log holds it when this returns, and it is released when this throws.
   */
  private static WriteAheadLog openLog(
      Path dir, StorageContext context, Manifest m, DirectoryLock lock) throws IOException {
    String id = m.spec().id();
    Path walDir = dir.resolve(WAL);
    WriteAheadLog wal;
    try {
      try {
        wal = WriteAheadLog.openAfter(walDir, context.policy(), m.logPosition(), lock);
      } catch (StorageCorruptedException ex) {
        // Moved aside while still locked (its lock file goes with it), then a new, empty log.
        context.quarantine(
            walDir,
            id,
            ex.getMessage() + "; the events in it that were not yet in segment files are lost");
        lock.close();
        lock = WriteAheadLog.lock(walDir, context.policy());
        wal = WriteAheadLog.openAfter(walDir, context.policy(), m.logPosition(), lock);
      }
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
    if (!wal.recovery().cut().isEmpty()) {
      context.report(
          "source " + id + ": write-ahead log: " + wal.recovery().cut() + " (never acknowledged)");
    }
    return wal;
  }

  /**
   * Replays the logged events after the manifest's position into the source.
   *
   * @param source the source restored from this storage
   * @return how many events were replayed
   * @throws IOException when the log cannot be read (a record fails verification)
   */
  public long replayInto(SourceCore source) throws IOException {
    long after;
    synchronized (this) {
      after = manifest.logPosition();
    }
    long[] count = new long[1];
    EventCodec decoder = new EventCodec();
    EventBatch batch = new EventBatch();
    wal.replay(
        after,
        (position, record) -> {
          if (record.length > 0 && record[0] == BatchCodec.KIND) {
            BatchCodec.decode(record, batch);
          } else {
            batch.clear();
            batch.add(decoder.decode(record));
          }
          source.replay(batch, position);
          count[0] += batch.size();
        });
    return count[0];
  }

  /**
   * @param handler told when a query or the verifier finds that a segment's content does not verify
   *     (the source then drops it into quarantine)
   */
  public void onCorrupt(Consumer<Segment> handler) {
    this.onCorrupt = handler;
  }

  private void corrupt(Segment segment) {
    onCorrupt.accept(segment);
  }

  /**
   * @return the source's directory
   */
  public Path directory() {
    return dir;
  }

  @Override
  public void checkWritable() {
    RuntimeException f = failure;
    if (f != null) {
      throw f;
    }
  }

  @Override
  public List<byte[]> records(
      EventBatch batch, ColumnType[] types, boolean[] rejected, int from, int to) {
    return BatchCodec.encode(batch, types, rejected, from, to);
  }

  @Override
  public long log(List<byte[]> records) {
    if (records.isEmpty()) {
      throw new IllegalArgumentException("no records to log");
    }
    try {
      // One write per part of at most WRITE_BYTES; the source's lock keeps the parts together.
      long position = 0;
      int start = 0;
      long bytes = 0;
      for (int i = 0; i < records.size(); i++) {
        if (i > start && bytes + records.get(i).length > WRITE_BYTES) {
          position = wal.write(records.subList(start, i));
          start = i;
          bytes = 0;
        }
        bytes += records.get(i).length;
      }
      return Math.max(position, wal.write(records.subList(start, records.size())));
    } catch (StorageFailedException e) {
      failed(e);
      throw e;
    }
  }

  @Override
  public void headHandedOver() {
    wal.rollBeforeNextWrite();
  }

  @Override
  public void awaitDurable(long position) {
    if (position > 0) {
      try {
        wal.awaitDurable(position);
      } catch (StorageFailedException e) {
        failed(e);
        throw e;
      }
    }
  }

  @Override
  public Segment persist(Segment built) throws IOException {
    Path segmentsDir = dir.resolve(SEGMENTS);
    Path target = segmentsDir.resolve(fileName(built.id()));
    Path tmp = segmentsDir.resolve(fileName(built.id()) + TEMPORARY);
    Durable.writeAtomically(tmp, target, ch -> SegmentFile.write(built, ch), forces);
    Segment mapped = SegmentFile.open(target, built.id(), this::corrupt);
    // Verified now, while its bytes are still in the page cache (milliseconds), not by the first
    // query that reads it: after a load larger than the memory, that query would read every new
    // file whole from disk first (a billion events: 55 GB before Q1 could answer).
    String problem = mapped.verify();
    if (problem != null) {
      mapped.retire(null);
      throw new IOException(problem);
    }
    opened(mapped);
    context.opened(mapped);
    return mapped;
  }

  private Segment opened(Segment s) {
    files.incrementAndGet();
    return s;
  }

  @Override
  public synchronized void publish(
      List<Segment> segments, long logPosition, long nextSegmentId, Schema schema)
      throws IOException {
    List<Manifest.SegmentEntry> entries = new ArrayList<>(segments.size());
    for (Segment s : segments) {
      entries.add(
          new Manifest.SegmentEntry(
              s.id(),
              s.file().getFileName().toString(),
              s.bytes(),
              s.rows(),
              s.minTimestamp(),
              s.maxTimestamp()));
    }
    List<ColumnSpec> columns = new ArrayList<>(schema.size());
    for (Schema.Column c : schema.columns()) {
      columns.add(new ColumnSpec(c.name(), c.type()));
    }
    Manifest next = manifest.next(logPosition, nextSegmentId, columns, entries);
    next.publish(dir);
    truncatable = manifest.logPosition();
    manifest = next;
  }

  /**
   * Deletes the log files whose records the manifest <em>before</em> the newest covers: should the
   * newest manifest be damaged, the engine falls back to that one and replays the log from its
   * position, so those records must still be there.
   */
  @Override
  public void truncateLog(long position) throws IOException {
    long upTo;
    synchronized (this) {
      upTo = Math.min(position, truncatable);
    }
    wal.truncateBefore(upTo);
  }

  @Override
  public void discard(Segment segment, boolean corrupt) {
    String name = segment.file().getFileName().toString();
    segment.retire(() -> released(name, corrupt));
  }

  /** A discarded segment's last reader let go: its file goes (or is set aside). */
  private synchronized void released(String name, boolean corrupt) {
    Path file = dir.resolve(SEGMENTS).resolve(name);
    if (corrupt) {
      context.quarantine(file, manifest.spec().id(), "its content checksum does not match");
    } else {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        context.report("could not delete segment file " + file + ": " + e);
      }
    }
    if (files.decrementAndGet() == 0 && dropped) {
      deleteTree(dir);
    }
  }

  @Override
  public void fail(String what, Throwable cause) {
    failed(new StorageFailedException(dir, what, cause));
  }

  private void failed(RuntimeException e) {
    if (failure == null) {
      failure = e;
      context.report(e.getMessage());
    }
  }

  @Override
  public long logBytes() {
    return wal == null ? 0 : wal.bytesOnDisk();
  }

  /**
   * Drops the source's files: its manifests are deleted first (durably; a folder without one is
   * deleted at the next start), then the folder is moved to the engine's {@code dropped/} folder,
   * which frees the source id at once, and it is deleted when the last query reading one of its
   * segments is done.
   */
  @Override
  public synchronized void drop() {
    dropped = true;
    closeLog();
    try {
      Manifest.deleteAll(dir);
      Durable.forceDirectory(dir);
      Path moved = context.dropped().resolve(dir.getFileName() + "-" + System.nanoTime());
      OwnerOnly.createDirectories(context.dropped());
      Files.move(dir, moved, StandardCopyOption.ATOMIC_MOVE);
      Durable.forceDirectory(moved.getParent());
      dir = moved;
    } catch (IOException e) {
      context.report("could not set aside the files of dropped source " + dir + ": " + e);
    }
    if (files.get() == 0) {
      deleteTree(dir);
    }
  }

  @Override
  public void close() {
    closeLog();
  }

  private void closeLog() {
    try {
      wal.close();
    } catch (IOException | RuntimeException e) {
      context.report("closing the write-ahead log in " + dir + " failed: " + e);
    }
  }

  /**
   * @param id a segment id
   * @return its file name
   */
  static String fileName(long id) {
    return String.format("%016x%s", id, SEGMENT_SUFFIX);
  }

  /** Deletes segment files (and temporaries) that the manifest does not list. */
  private static void removeUnlisted(Path segmentsDir, Manifest m) throws IOException {
    java.util.Set<String> listed = new java.util.HashSet<>();
    for (Manifest.SegmentEntry e : m.segments()) {
      listed.add(e.file());
    }
    try (var entries = Files.newDirectoryStream(segmentsDir)) {
      for (Path p : entries) {
        if (!listed.contains(p.getFileName().toString())) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * Deletes a directory and everything in it; problems are reported, not thrown.
   *
   * @param root the directory
   */
  void deleteTree(Path root) {
    try {
      Durable.deleteTree(root);
    } catch (IOException e) {
      context.report("could not delete " + root + ": " + e);
    }
  }
}
