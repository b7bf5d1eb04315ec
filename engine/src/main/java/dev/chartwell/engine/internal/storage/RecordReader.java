package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Reads and verifies the records of one log file through a sliding window of the file, for recovery
 * and replay. Also searches the bytes after a bad record for a valid one, which tells corruption
 * from a torn tail.
 */
final class RecordReader {
  /** The result of {@link #next}. */
  enum Status {
    /** A whole, verified record: see {@link #seq()} and {@link #payload()}. */
    RECORD,
    /** The file ends exactly here. */
    END,
    /** Fewer bytes remain than the record needs (or than a record header). */
    INCOMPLETE,
    /** The length field is out of range. */
    BAD_LENGTH,
    /** The checksum does not match the bytes. */
    BAD_CHECKSUM,
    /** The checksum matches but the sequence number is not the next one. */
    BAD_SEQUENCE
  }

  private static final int WINDOW = 1 << 20;
  private static final int H = RecordBuffer.RECORD_HEADER_BYTES;

  private final LogChannel channel;
  private final long end;
  private final CRC32C crc = new CRC32C();
  private ByteBuffer window = ByteBuffer.allocateDirect(WINDOW).order(ByteOrder.LITTLE_ENDIAN);
  private long windowStart;
  private int windowBytes;
  private long offset;
  private long seq;
  private int length;

  /**
   * @param channel the file
   * @param start the offset of the first record
   * @param end the offset to read up to
   */
  RecordReader(LogChannel channel, long start, long end) {
    this.channel = channel;
    this.end = end;
    this.offset = start;
  }

  /**
   * Reads the record at the current offset and, when it is whole and verified, moves past it.
   *
   * @param expectedSeq the sequence number it must have
   * @return what is there
   * @throws IOException when reading fails
   */
  Status next(long expectedSeq) throws IOException {
    if (offset == end) {
      return Status.END;
    }
    if (!ensure(offset, H)) {
      return Status.INCOMPLETE;
    }
    int at = (int) (offset - windowStart);
    length = window.getInt(at + 4);
    seq = window.getLong(at + 8);
    if (length < 0 || length > WriteAheadLog.MAX_RECORD_BYTES) {
      return Status.BAD_LENGTH;
    }
    if (!ensure(offset, H + length)) {
      return Status.INCOMPLETE;
    }
    at = (int) (offset - windowStart);
    if (!checksumMatches(at, length)) {
      return Status.BAD_CHECKSUM;
    }
    if (seq != expectedSeq) {
      return Status.BAD_SEQUENCE;
    }
    offset += H + length;
    return Status.RECORD;
  }

  /**
   * @return the offset of the record {@link #next} read last, or of the problem it found
   */
  long offset() {
    return offset;
  }

  /**
   * @return the sequence number field of the record {@link #next} read last
   */
  long seq() {
    return seq;
  }

  /**
   * @return the payload of the record {@link #next} returned last, as a fresh array
   */
  byte[] payload() {
    byte[] out = new byte[length];
    window.get((int) (offset - length - windowStart), out);
    return out;
  }

  /**
   * Searches every byte offset from {@code from} for a whole record with a matching checksum and a
   * sequence number of at least {@code minSeq}.
   *
   * @param from the first offset to try
   * @param minSeq the smallest sequence number a following record could have
   * @return the offset of the first such record, or -1
   * @throws IOException when reading fails
   */
  long findValidRecord(long from, long minSeq) throws IOException {
    long maxSeq = minSeq + (end - from) / H + 1;
    for (long q = from; q + H <= end; q++) {
      if (!ensure(q, H)) {
        return -1;
      }
      int at = (int) (q - windowStart);
      int len = window.getInt(at + 4);
      long s = window.getLong(at + 8);
      if (len < 0 || len > WriteAheadLog.MAX_RECORD_BYTES || q + H + len > end) {
        continue;
      }
      if (s < minSeq || s > maxSeq) {
        continue;
      }
      if (ensure(q, H + len) && checksumMatches((int) (q - windowStart), len)) {
        return q;
      }
    }
    return -1;
  }

  private boolean checksumMatches(int at, int len) {
    crc.reset();
    window.limit(at + H + len).position(at + 4);
    crc.update(window);
    window.limit(window.capacity()).position(0);
    return (int) crc.getValue() == window.getInt(at);
  }

  /** Makes bytes [pos, pos + n) of the file available in the window; false past the end. */
  private boolean ensure(long pos, int n) throws IOException {
    if (pos + n > end) {
      return false;
    }
    if (pos >= windowStart && pos + n <= windowStart + windowBytes) {
      return true;
    }
    if (n > window.capacity()) {
      window = ByteBuffer.allocateDirect(n).order(ByteOrder.LITTLE_ENDIAN);
    }
    window.clear();
    int want = (int) Math.min(window.capacity(), end - pos);
    window.limit(want);
    while (window.hasRemaining()) {
      int r = channel.read(window, pos + window.position());
      if (r < 0) {
        throw new IOException("the file ended at " + (pos + window.position()) + ", before " + end);
      }
    }
    window.limit(window.capacity()).position(0);
    windowStart = pos;
    windowBytes = want;
    return true;
  }
}
