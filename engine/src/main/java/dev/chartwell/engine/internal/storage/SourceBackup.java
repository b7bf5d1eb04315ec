package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.FsyncPolicy;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A consistent copy of one source's files while the source keeps ingesting, sealing and dropping
 * segments (see {@code docs/operations.md}, "How a backup is consistent").
 *
 * <p>{@link #capture} reads the newest manifest and opens every segment file it names and every log
 * file, noting each log file's length, then reads the newest manifest again: when it is still the
 * same generation, every file the manifest needs was open while it was current (a log file is
 * deleted only once a newer manifest covers it twice over, and a segment file only after a manifest
 * without it is published), so the open channels hold the files even if the source deletes them
 * afterwards. Otherwise it tries again. {@link #writeTo} then writes the manifest, the log files up
 * to their noted lengths (cut at the last whole record: a record being written at the capture was
 * never acknowledged) and hands the segment files to a {@link SegmentSink}.
 *
 * <p>The backup's position is the last whole record of the copied log: every event acknowledged
 * before the capture is at or before it (an acknowledged record was completely written, so it lies
 * within the noted lengths), and the copy holds exactly the events of the manifest's segment files
 * and of the log records after the manifest's position up to it.
 */
public final class SourceBackup implements Closeable {
  private static final String SEGMENTS = "segments";
  private static final String WAL = "wal";
  private static final int ATTEMPTS = 100;

  private final Manifest manifest;
  private final List<Open> segments;
  private final List<Open> logs;

  /** An open file and the length to copy of it. */
  private record Open(String name, Path path, FileChannel channel, long length) {}

  private SourceBackup(Manifest manifest, List<Open> segments, List<Open> logs) {
    this.manifest = manifest;
    this.segments = segments;
    this.logs = logs;
  }

  /** Where a backup keeps segment files, which are immutable and shared between backups. */
  public interface SegmentSink {
    /**
     * @param sourceId the source
     * @param entry the manifest's entry of the file
     * @param fingerprint what tells this file from another of the same name (see {@link
     *     SourceBackup#fingerprint})
     * @param live the file in the source's folder (it may be gone by now: then copy {@code open})
     * @param open the file, open for reading
     * @throws IOException when it cannot be stored
     */
    void put(
        String sourceId,
        Manifest.SegmentEntry entry,
        String fingerprint,
        Path live,
        FileChannel open)
        throws IOException;
  }

  /**
   * What a source's copy holds.
   *
   * @param sourceId the source
   * @param generation the manifest's generation
   * @param manifestPosition the log position the segment files reach
   * @param logPosition the backup's position: the last log record copied
   * @param segmentEvents events in the segment files
   * @param logEvents events in log records after the manifest's position
   * @param segments the segment files: manifest file name and fingerprint
   */
  public record Copied(
      String sourceId,
      long generation,
      long manifestPosition,
      long logPosition,
      long segmentEvents,
      long logEvents,
      List<Segment> segments) {
    /**
     * @return every event in the copy
     */
    public long events() {
      return segmentEvents + logEvents;
    }
  }

  /**
   * One segment file of a copy.
   *
   * @param file its name in the manifest
   * @param fingerprint see {@link SourceBackup#fingerprint}
   * @param length its length in bytes
   */
  public record Segment(String file, String fingerprint, long length) {}

  /**
   * Opens a consistent set of a source's files.
   *
   * @param sourceDir the source's folder
   * @return the capture, or empty when the folder holds no manifest that verifies (a source being
   *     created or dropped)
   * @throws IOException when the files cannot be read, or the source kept changing
   */
  public static Optional<SourceBackup> capture(Path sourceDir) throws IOException {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Manifest> before = Manifest.readLatest(sourceDir, problem -> {});
      if (before.isEmpty()) {
        return Optional.empty();
      }
      Manifest m = before.get();
      List<Open> segments = new ArrayList<>();
      List<Open> logs = new ArrayList<>();
      boolean complete = true;
      try {
        for (Manifest.SegmentEntry e : m.segments()) {
          Optional<Open> o = open(sourceDir.resolve(SEGMENTS).resolve(e.file()));
          if (o.isEmpty()) {
            complete = false; // dropped meanwhile: a newer manifest is published
            break;
          }
          segments.add(o.get());
        }
        if (complete) {
          for (Path f : logFiles(sourceDir.resolve(WAL))) {
            open(f).ifPresent(logs::add); // a deleted log file is one the manifest does not need
          }
        }
        Optional<Manifest> after = Manifest.readLatest(sourceDir, problem -> {});
        if (complete && after.isPresent() && after.get().generation() == m.generation()) {
          return Optional.of(new SourceBackup(m, segments, logs));
        }
      } catch (IOException | RuntimeException e) {
        closeAll(segments, logs);
        throw e;
      }
      closeAll(segments, logs);
    }
    throw new IOException(
        "source folder " + sourceDir + " changed during each of " + ATTEMPTS + " attempts");
  }

  private static Optional<Open> open(Path file) throws IOException {
    try {
      FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
      return Optional.of(new Open(file.getFileName().toString(), file, ch, ch.size()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private static List<Path> logFiles(Path walDir) throws IOException {
    List<Path> files = new ArrayList<>();
    if (!Files.isDirectory(walDir)) {
      return files;
    }
    try (DirectoryStream<Path> s = Files.newDirectoryStream(walDir, "wal-*.log")) {
      s.forEach(files::add);
    }
    files.sort(null); // names carry the first position in 20 digits
    return files;
  }

  /**
   * @return the captured manifest
   */
  public Manifest manifest() {
    return manifest;
  }

  /**
   * Writes the copy: the manifest and the log into {@code targetDir} (which must not exist), the
   * segment files into the sink.
   *
   * @param targetDir the source's folder in the backup
   * @param sink where segment files go
   * @return what the copy holds
   * @throws IOException when writing fails, or the copied log does not verify
   */
  public Copied writeTo(Path targetDir, SegmentSink sink) throws IOException {
    OwnerOnly.createDirectories(targetDir);
    manifest.publish(targetDir);
    List<Segment> copied = new ArrayList<>();
    long segmentEvents = 0;
    for (int i = 0; i < segments.size(); i++) {
      Manifest.SegmentEntry e = manifest.segments().get(i);
      Open o = segments.get(i);
      String fingerprint = fingerprint(o.channel(), o.length());
      sink.put(manifest.spec().id(), e, fingerprint, o.path(), o.channel());
      copied.add(new Segment(e.file(), fingerprint, e.length()));
      segmentEvents += e.rows();
    }
    Path walDir = targetDir.resolve(WAL);
    OwnerOnly.createDirectories(walDir);
    for (Open o : logs) {
      copyPrefix(o.channel(), o.length(), walDir.resolve(o.name()));
    }
    long[] logEvents = {0};
    long position;
    dev.chartwell.engine.EventBatch batch = new dev.chartwell.engine.EventBatch();
    // Opening the copy recovers it as a restart would: a torn last record is cut.
    try (WriteAheadLog wal =
        WriteAheadLog.openAfter(walDir, FsyncPolicy.REQUEST, manifest.logPosition())) {
      wal.replay(
          manifest.logPosition(),
          (pos, record) -> {
            if (record.length > 0 && record[0] == BatchCodec.KIND) {
              BatchCodec.decode(record, batch);
              logEvents[0] += batch.size();
            } else {
              logEvents[0]++; // one event (EventCodec), the only kind written before
            }
          });
      position = Math.max(wal.lastPosition(), manifest.logPosition());
    }
    return new Copied(
        manifest.spec().id(),
        manifest.generation(),
        manifest.logPosition(),
        position,
        segmentEvents,
        logEvents[0],
        copied);
  }

  /**
   * What tells a segment file from another of the same name and length (a source dropped and made
   * again under its id numbers its segments from 0 again): the CRC32C of its content and of its
   * footer, both in the footer, as hexadecimal.
   *
   * @param ch the file
   * @param length its length
   * @return 16 hexadecimal digits
   * @throws IOException when the footer cannot be read
   */
  public static String fingerprint(FileChannel ch, long length) throws IOException {
    if (length < 32) {
      throw new IOException("a segment file of " + length + " bytes has no footer");
    }
    ByteBuffer crcs = ByteBuffer.allocate(8);
    long at = length - 32 + 16;
    while (crcs.hasRemaining()) {
      if (ch.read(crcs, at + crcs.position()) < 0) {
        throw new IOException("a segment file ends before its footer");
      }
    }
    return HexFormat.of().formatHex(crcs.array());
  }

  /**
   * Copies the first {@code length} bytes of a file into a new owner-only file, forced.
   *
   * @param from the file
   * @param length how many bytes
   * @param to the new file (must not exist)
   * @return {@code length}
   * @throws IOException when reading or writing fails
   */
  public static long copyPrefix(FileChannel from, long length, Path to) throws IOException {
    try (FileChannel out =
        OwnerOnly.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long done = 0;
      while (done < length) {
        long n = from.transferTo(done, length - done, out);
        if (n <= 0) {
          throw new IOException(to + ": the source file ended after " + done + " bytes");
        }
        done += n;
      }
      out.force(true);
    }
    return length;
  }

  @Override
  public void close() {
    closeAll(segments, logs);
  }

  private static void closeAll(List<Open> segments, List<Open> logs) {
    for (List<Open> list : List.of(segments, logs)) {
      for (Open o : list) {
        try {
          o.channel().close();
        } catch (IOException e) {
          // read-only: nothing is lost
        }
      }
    }
  }
}
