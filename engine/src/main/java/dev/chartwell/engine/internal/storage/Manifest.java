package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * What one source holds on disk, published atomically: its definition, its columns in order, its
 * segment files, and the position of the write-ahead log up to which events are in those files (the
 * log is replayed after it). Like Lucene's {@code segments_N}: each publication is a new file
 * {@code manifest-<generation>} written to a temporary name, forced, renamed and the directory
 * forced; the newest manifest that verifies wins, so a torn or corrupted one falls back to the one
 * before (the previous generation is kept for that).
 *
 * <p>Format (version 1), big-endian: magic {@code CWMANIF1}, int version, long generation; the
 * definition (id, name, kind, timestamp, body and implicit columns, declared columns); long log
 * position, long next segment id; int column count and each column's name and type; int segment
 * count and each segment's id, file name, length, rows, min and max timestamp; then the CRC32C of
 * every byte before it and the magic {@code CWMANEND}. Strings are an int byte length and UTF-8.
 *
 * @param generation increases by one with every publication
 * @param spec the source's definition
 * @param logPosition events up to this log position are in the segment files
 * @param nextSegmentId the id the next sealed segment gets
 * @param columns the source's columns in the order they appeared
 * @param segments the segment files, oldest first
 */
public record Manifest(
    long generation,
    SourceSpec spec,
    long logPosition,
    long nextSegmentId,
    List<ColumnSpec> columns,
    List<SegmentEntry> segments) {

  /** The format version this code writes and reads. */
  public static final int VERSION = 1;

  private static final byte[] MAGIC = "CWMANIF1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "CWMANEND".getBytes(StandardCharsets.US_ASCII);
  private static final String PREFIX = "manifest-";
  private static final String TEMPORARY = ".tmp";

  /**
   * One published segment file.
   *
   * @param id the segment id
   * @param file the file name, relative to the source's segment directory
   * @param length the file's length in bytes
   * @param rows events in it
   * @param minTimestamp its oldest event
   * @param maxTimestamp its newest event
   */
  public record SegmentEntry(
      long id, String file, long length, int rows, long minTimestamp, long maxTimestamp) {}

  /** Copies the lists. */
  public Manifest {
    columns = List.copyOf(columns);
    segments = List.copyOf(segments);
  }

  /**
   * @param logPosition the new log position
   * @param nextSegmentId the next segment id
   * @param columns the columns
   * @param segments the segments
   * @return the next generation with these contents
   */
  public Manifest next(
      long logPosition, long nextSegmentId, List<ColumnSpec> columns, List<SegmentEntry> segments) {
    return new Manifest(generation + 1, spec, logPosition, nextSegmentId, columns, segments);
  }

  /**
   * Publishes this manifest in {@code dir} and removes manifests older than the one before it.
   *
   * @param dir the source's directory
   * @throws IOException when writing, forcing or renaming fails (the previous manifest stays)
   */
  public void publish(Path dir) throws IOException {
    byte[] bytes = encode();
    Path target = dir.resolve(fileName(generation));
    Path tmp = dir.resolve(fileName(generation) + TEMPORARY);
    Durable.writeAtomically(tmp, target, ByteBuffer.wrap(bytes));
    for (long g : generations(dir)) {
      if (g < generation - 1) {
        Files.deleteIfExists(dir.resolve(fileName(g)));
      }
    }
  }

  /**
   * The newest manifest of a directory that verifies.
   *
   * @param dir the source's directory
   * @param problems told about each manifest that does not verify, in our words
   * @return the manifest, or empty when the directory has none that verifies
   * @throws IOException when the directory cannot be read
   */
  public static Optional<Manifest> readLatest(Path dir, Consumer<String> problems)
      throws IOException {
    long[] generations = generations(dir);
    for (int i = generations.length - 1; i >= 0; i--) {
      Path file = dir.resolve(fileName(generations[i]));
      try {
        Manifest m = decode(Files.readAllBytes(file));
        if (m.generation() != generations[i]) {
          throw new IOException("its generation is " + m.generation());
        }
        return Optional.of(m);
      } catch (IOException | RuntimeException e) {
        problems.accept(
            "manifest "
                + file
                + " does not verify ("
                + e.getMessage()
                + ")"
                + (i > 0 ? "; using the one before it" : ""));
      }
    }
    return Optional.empty();
  }

  /**
   * @param dir a source's directory
   * @return whether it holds a manifest (valid or not)
   * @throws IOException when the directory cannot be read
   */
  static boolean exists(Path dir) throws IOException {
    return generations(dir).length > 0;
  }

  /**
   * Deletes every manifest of a directory (dropping the source: a directory without a manifest is
   * deleted at the next start).
   *
   * @param dir a source's directory
   * @throws IOException when a manifest cannot be deleted
   */
  static void deleteAll(Path dir) throws IOException {
    for (long g : generations(dir)) {
      Files.deleteIfExists(dir.resolve(fileName(g)));
    }
  }

  /** Removes temporary files a publication interrupted by a crash left behind. */
  static void removeTemporaries(Path dir) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*" + TEMPORARY)) {
      for (Path f : files) {
        Files.deleteIfExists(f);
      }
    }
  }

  private static String fileName(long generation) {
    return String.format("%s%016x", PREFIX, generation);
  }

  private static long[] generations(Path dir) throws IOException {
    List<Long> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (name.endsWith(TEMPORARY) || name.length() != PREFIX.length() + 16) {
          continue;
        }
        try {
          out.add(Long.parseUnsignedLong(name.substring(PREFIX.length()), 16));
        } catch (NumberFormatException ignored) {
          // not one of ours
        }
      }
    }
    return out.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(MAGIC);
      out.writeInt(VERSION);
      out.writeLong(generation);
      writeString(out, spec.id());
      writeString(out, spec.name());
      writeString(out, spec.kind().name());
      writeString(out, spec.timestampColumn());
      writeString(out, spec.bodyColumn());
      writeString(out, spec.implicitColumn());
      writeColumns(out, spec.columns());
      out.writeLong(logPosition);
      out.writeLong(nextSegmentId);
      writeColumns(out, columns);
      out.writeInt(segments.size());
      for (SegmentEntry s : segments) {
        out.writeLong(s.id());
        writeString(out, s.file());
        out.writeLong(s.length());
        out.writeInt(s.rows());
        out.writeLong(s.minTimestamp());
        out.writeLong(s.maxTimestamp());
      }
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeInt((int) crc.getValue());
      out.write(END);
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory cannot fail", e);
    }
    return bytes.toByteArray();
  }

  static Manifest decode(byte[] bytes) throws IOException {
    int body = bytes.length - 4 - END.length;
    if (body < MAGIC.length + 12
        || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IOException("not a manifest (wrong magic or too short)");
    }
    if (!Arrays.equals(bytes, body + 4, bytes.length, END, 0, END.length)) {
      throw new IOException("its end marker is missing (torn write)");
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, body);
    int stored = ByteBuffer.wrap(bytes, body, 4).getInt();
    if (stored != (int) crc.getValue()) {
      throw new IOException("checksum mismatch");
    }
    try (DataInputStream in =
        new DataInputStream(new java.io.ByteArrayInputStream(bytes, 0, body))) {
      in.skipNBytes(MAGIC.length);
      int version = in.readInt();
      if (version != VERSION) {
        throw new IOException("format version " + version + ", this server reads " + VERSION);
      }
      long generation = in.readLong();
      String id = readString(in);
      String name = readString(in);
      SourceKind kind = SourceKind.valueOf(readString(in));
      String timestamp = readString(in);
      String bodyColumn = readString(in);
      String implicit = readString(in);
      List<ColumnSpec> declared = readColumns(in);
      SourceSpec spec = new SourceSpec(id, name, kind, timestamp, bodyColumn, implicit, declared);
      long logPosition = in.readLong();
      long nextSegmentId = in.readLong();
      List<ColumnSpec> columns = readColumns(in);
      int n = in.readInt();
      List<SegmentEntry> segments = new ArrayList<>(Math.min(n, 1 << 16));
      for (int i = 0; i < n; i++) {
        segments.add(
            new SegmentEntry(
                in.readLong(),
                readString(in),
                in.readLong(),
                in.readInt(),
                in.readLong(),
                in.readLong()));
      }
      if (in.available() != 0) {
        throw new IOException(in.available() + " bytes after the segment list");
      }
      return new Manifest(generation, spec, logPosition, nextSegmentId, columns, segments);
    } catch (EOFException e) {
      throw new IOException("it ends early", e);
    } catch (IllegalArgumentException e) {
      throw new IOException("it holds an invalid definition: " + e.getMessage(), e);
    }
  }

  private static void writeColumns(DataOutputStream out, List<ColumnSpec> columns)
      throws IOException {
    out.writeInt(columns.size());
    for (ColumnSpec c : columns) {
      writeString(out, c.name());
      out.writeByte(c.type().ordinal());
    }
  }

  private static List<ColumnSpec> readColumns(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 100_000) {
      throw new IOException("column count " + n + " is out of range");
    }
    List<ColumnSpec> out = new ArrayList<>(n);
    ColumnType[] types = ColumnType.values();
    for (int i = 0; i < n; i++) {
      String name = readString(in);
      int type = in.readByte();
      if (type < 0 || type >= types.length) {
        throw new IOException("column " + name + " has unknown type " + type);
      }
      out.add(new ColumnSpec(name, types[type]));
    }
    return out;
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readString(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n == -1) {
      return null;
    }
    if (n < 0 || n > in.available()) {
      throw new IOException("a string length of " + n + " is out of range");
    }
    return new String(in.readNBytes(n), StandardCharsets.UTF_8);
  }
}
