package dev.chartwell.server.alerts;

import dev.chartwell.engine.internal.storage.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.zip.CRC32C;

/**
 * An append-only file of checksummed records, readable from either end. Each record is framed as
 * {@code [length][CRC32C of payload][payload][length]} (lengths and checksum are big-endian 32-bit
 * integers), so that a reader going backwards finds each record's start from the length behind it.
 *
 * <p>A batch of records is written with one positional write at the end of what is known to be
 * whole, so a process killed mid-write leaves at most a torn last batch. Opening finds the longest
 * prefix of whole records: anything after it is copied beside the file ({@code
 * <name>.damaged-<millis>}), reported, and cut off. Readers see only records whose write returned;
 * reading stops at a record whose checksum does not match.
 */
final class RecordFile implements AutoCloseable {
  /** The largest record accepted. */
  static final int MAX_RECORD_BYTES = 16 << 20;

  private static final int FRAME_BYTES = 12;

  private final Path path;
  private final FileChannel channel;
  private volatile long size;

  private RecordFile(Path path, FileChannel channel, long size) {
    this.path = path;
    this.channel = channel;
    this.size = size;
  }

  /**
   * Opens (or creates) a file and cuts off a torn tail. Only the last record is checked, unless
   * {@code checkAll}: then every record is, and the file is cut after the last whole record before
   * the first damaged one.
   *
   * @param path the file
   * @param checkAll whether to check every record, not only the last
   * @param report told about a tail cut off, in one line
   * @return the open file
   * @throws IOException when the file cannot be opened or repaired
   */
  static RecordFile open(Path path, boolean checkAll, Consumer<String> report) throws IOException {
    OwnerOnly.createDirectories(path.getParent());
    FileChannel ch =
        OwnerOnly.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      long end = ch.size();
      long whole =
          end == 0 || (!checkAll && lastFrameStart(ch, end) >= 0) ? end : wholePrefix(ch, end);
      if (whole < end) {
        Path aside =
            path.resolveSibling(path.getFileName() + ".damaged-" + System.currentTimeMillis());
        Files.copy(path, aside, StandardCopyOption.REPLACE_EXISTING);
        OwnerOnly.restrict(aside);
        ch.truncate(whole);
        ch.force(true);
        report.accept(
            String.format(
                "%s: %d bytes after the last whole record were cut off (a copy is in %s)",
                path, end - whole, aside.getFileName()));
      }
      return new RecordFile(path, ch, whole);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * @return the file
   */
  Path path() {
    return path;
  }

  /**
   * @return the bytes of whole records
   */
  long size() {
    return size;
  }

  /**
   * Appends records with one write.
   *
   * @param payloads the records
   * @param force whether to force them to the disk before returning
   * @throws IOException when the write fails (the file then ends where it did)
   */
  synchronized void append(List<byte[]> payloads, boolean force) throws IOException {
    int total = 0;
    for (byte[] p : payloads) {
      if (p.length > MAX_RECORD_BYTES) {
        throw new IllegalArgumentException("record of " + p.length + " bytes is too large");
      }
      total += p.length + FRAME_BYTES;
    }
    ByteBuffer buf = ByteBuffer.allocate(total);
    CRC32C crc = new CRC32C();
    for (byte[] p : payloads) {
      crc.reset();
      crc.update(p);
      buf.putInt(p.length).putInt((int) crc.getValue()).put(p).putInt(p.length);
    }
    buf.flip();
    long at = size;
    try {
      while (buf.hasRemaining()) {
        at += channel.write(buf, at);
      }
      if (force) {
        channel.force(false);
      }
    } catch (IOException e) {
      channel.truncate(size); // leave no partial batch for a later append to follow
      throw e;
    }
    size = at;
  }

  /**
   * Reads every whole record from the start.
   *
   * @param each receives each payload
   * @throws IOException when reading fails
   */
  void forEach(Consumer<byte[]> each) throws IOException {
    long end = size;
    long at = 0;
    while (at < end) {
      byte[] p = read(channel, at, end);
      if (p == null) {
        return;
      }
      each.accept(p);
      at += p.length + FRAME_BYTES;
    }
  }

  /**
   * Reads records from the end, newest first.
   *
   * @param each receives each payload and answers whether to go on
   * @throws IOException when reading fails
   */
  void backwards(Predicate<byte[]> each) throws IOException {
    backwards(channel, size, each);
  }

  /**
   * Reads the records of a file from {@code end}, newest first. A torn or damaged tail (a file not
   * opened since a crash) is skipped: reading starts at the end of its whole records.
   *
   * @param ch a channel of the file
   * @param end where its records end
   * @param each receives each payload and answers whether to go on
   * @throws IOException when reading fails
   */
  static void backwards(FileChannel ch, long end, Predicate<byte[]> each) throws IOException {
    long at = end > 0 && lastFrameStart(ch, end) < 0 ? wholePrefix(ch, end) : end;
    while (at > 0) {
      long start = lastFrameStart(ch, at);
      if (start < 0) {
        return;
      }
      byte[] p = read(ch, start, at);
      if (p == null || !each.test(p)) {
        return;
      }
      at = start;
    }
  }

  /**
   * @return the payloads of every whole record, oldest first (for small files)
   * @throws IOException when reading fails
   */
  List<byte[]> readAll() throws IOException {
    List<byte[]> all = new ArrayList<>();
    forEach(all::add);
    return all;
  }

  /** The start of the record ending at {@code end}, or -1 when no whole record ends there. */
  private static long lastFrameStart(FileChannel ch, long end) throws IOException {
    if (end < FRAME_BYTES) {
      return -1;
    }
    ByteBuffer b = ByteBuffer.allocate(4);
    readFully(ch, b, end - 4);
    int len = b.flip().getInt();
    if (len < 0 || len > MAX_RECORD_BYTES || end - FRAME_BYTES - len < 0) {
      return -1;
    }
    long start = end - FRAME_BYTES - len;
    return read(ch, start, end) == null ? -1 : start;
  }

  /** The length of the longest prefix of whole records. */
  private static long wholePrefix(FileChannel ch, long end) throws IOException {
    long at = 0;
    while (at < end) {
      byte[] p = read(ch, at, end);
      if (p == null) {
        break;
      }
      at += p.length + FRAME_BYTES;
    }
    return at;
  }

  /** The payload of the record starting at {@code at}, or null when none whole starts there. */
  private static byte[] read(FileChannel ch, long at, long end) throws IOException {
    if (end - at < FRAME_BYTES) {
      return null;
    }
    ByteBuffer head = ByteBuffer.allocate(8);
    readFully(ch, head, at);
    head.flip();
    int len = head.getInt();
    int sum = head.getInt();
    if (len < 0 || len > MAX_RECORD_BYTES || end - at - FRAME_BYTES < len) {
      return null;
    }
    ByteBuffer body = ByteBuffer.allocate(len + 4);
    readFully(ch, body, at + 8);
    body.flip();
    byte[] p = new byte[len];
    body.get(p);
    if (body.getInt() != len) {
      return null;
    }
    CRC32C crc = new CRC32C();
    crc.update(p);
    return (int) crc.getValue() == sum ? p : null;
  }

  private static void readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
    long pos = at;
    while (b.hasRemaining()) {
      int n = ch.read(b, pos);
      if (n < 0) {
        throw new IOException("unexpected end of file at " + pos);
      }
      pos += n;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
