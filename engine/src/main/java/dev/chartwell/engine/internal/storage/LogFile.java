package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * One file of a {@link WriteAheadLog}: its name (the sequence number of its first record), its
 * header, and while it is the newest file, the channel records are appended through. See {@link
 * WriteAheadLog} for the format.
 */
final class LogFile {
  /** Bytes of the file header. */
  static final int HEADER_BYTES = 20;

  /** The format version this build writes and reads. */
  static final int FORMAT_VERSION = 1;

  private static final byte[] MAGIC = {'C', 'W', 'A', 'L'};
  private static final String PREFIX = "wal-";
  private static final String SUFFIX = ".log";
  private static final int DIGITS = 20;

  final Path path;
  final long firstSeq;
  private LogChannel channel;
  private volatile long size;

  private LogFile(Path path, long firstSeq, LogChannel channel, long size) {
    this.path = path;
    this.firstSeq = firstSeq;
    this.channel = channel;
    this.size = size;
  }

  /**
   * @param firstSeq the sequence number of the file's first record
   * @return the file name, {@code wal-} and 20 digits and {@code .log}
   */
  static String fileName(long firstSeq) {
    return String.format(Locale.ROOT, "%s%0" + DIGITS + "d%s", PREFIX, firstSeq, SUFFIX);
  }

  /**
   * @param name a file name
   * @return the first sequence number it names, or -1 when it is not a log file name
   */
  static long parseName(String name) {
    if (name.length() != PREFIX.length() + DIGITS + SUFFIX.length()
        || !name.startsWith(PREFIX)
        || !name.endsWith(SUFFIX)) {
      return -1;
    }
    long seq = 0;
    for (int i = PREFIX.length(); i < PREFIX.length() + DIGITS; i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9' || seq > (Long.MAX_VALUE - 9) / 10) {
        return -1;
      }
      seq = seq * 10 + (c - '0');
    }
    return seq;
  }

  /**
   * @param firstSeq the sequence number of the file's first record
   * @return the header bytes, ready to write
   */
  static ByteBuffer header(long firstSeq) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC).putInt(FORMAT_VERSION).putLong(firstSeq);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, HEADER_BYTES - 4);
    b.putInt((int) crc.getValue());
    return b.flip();
  }

  /**
   * Checks a complete header.
   *
   * @param path the file, for messages
   * @param b the first {@link #HEADER_BYTES} bytes of the file
   * @param nameSeq the sequence number its name gives
   * @throws StorageCorruptedException when the header is not this format's or not the name's
   */
  static void verifyHeader(Path path, ByteBuffer b, long nameSeq) throws StorageCorruptedException {
    b.order(ByteOrder.LITTLE_ENDIAN);
    CRC32C crc = new CRC32C();
    crc.update(b.duplicate().position(0).limit(HEADER_BYTES - 4));
    for (int i = 0; i < MAGIC.length; i++) {
      if (b.get(i) != MAGIC[i]) {
        throw new StorageCorruptedException(
            path, 0, "the file header does not start with CWAL: not a write-ahead log file");
      }
    }
    if ((int) crc.getValue() != b.getInt(HEADER_BYTES - 4)) {
      throw new StorageCorruptedException(path, 0, "the file header's checksum does not match");
    }
    int version = b.getInt(4);
    if (version != FORMAT_VERSION) {
      throw new StorageCorruptedException(
          path,
          4,
          "format version " + version + " is not readable by this build (it reads version 1)");
    }
    long seq = b.getLong(8);
    if (seq != nameSeq) {
      throw new StorageCorruptedException(
          path,
          8,
          "the header names first sequence number " + seq + " but the file name " + nameSeq);
    }
  }

  /**
   * Creates a file and writes its header.
   *
   * @param io opens the file
   * @param dir the log directory
   * @param firstSeq the sequence number of its first record
   * @param syncDirectory whether to make the new name durable
   * @return the open file
   * @throws IOException when creating or writing fails
   */
  static LogFile create(ChannelFactory io, Path dir, long firstSeq, boolean syncDirectory)
      throws IOException {
    Path path = dir.resolve(fileName(firstSeq));
    LogChannel ch = io.open(path);
    LogFile f = new LogFile(path, firstSeq, ch, 0);
    try {
      ch.truncate(0);
      f.append(header(firstSeq));
      if (syncDirectory) {
        io.syncDirectory(dir);
      }
    } catch (IOException | RuntimeException e) {
      f.closeQuietly(e);
      throw e;
    }
    return f;
  }

  /**
   * @param path an existing file
   * @param firstSeq the sequence number its name gives
   * @param channel its open channel, or null once it is closed
   * @param size its verified size
   * @return the file
   */
  static LogFile existing(Path path, long firstSeq, LogChannel channel, long size) {
    return new LogFile(path, firstSeq, channel, size);
  }

  /**
   * Writes all of {@code src} at the end of the file.
   *
   * @param src bytes from position to limit
   * @throws IOException when writing fails
   */
  void append(ByteBuffer src) throws IOException {
    long at = size;
    while (src.hasRemaining()) {
      at += channel.write(src, at);
    }
    size = at;
  }

  /**
   * @throws IOException when the disk reports an error
   */
  void force() throws IOException {
    channel.force();
  }

  /**
   * @return the file's size in bytes
   */
  long size() {
    return size;
  }

  /**
   * @throws IOException when closing fails
   */
  void close() throws IOException {
    LogChannel ch = channel;
    channel = null;
    if (ch != null) {
      ch.close();
    }
  }

  /**
   * Closes after another error, which stays the one reported.
   *
   * @param primary the error being reported
   */
  void closeQuietly(Throwable primary) {
    try {
      close();
    } catch (IOException e) {
      primary.addSuppressed(e);
    }
  }
}
