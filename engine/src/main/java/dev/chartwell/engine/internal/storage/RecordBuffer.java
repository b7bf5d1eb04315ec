package dev.chartwell.engine.internal.storage;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Encoded records waiting to be written with one write: the records of one append call, or of
 * several concurrent ones. A direct buffer, so that the channel writes it without a copy and no
 * thread keeps a temporary direct buffer of the largest write it ever made.
 */
final class RecordBuffer {
  /** Bytes before a record's payload: checksum, length, sequence number. */
  static final int RECORD_HEADER_BYTES = 16;

  /** Capacity a buffer starts with and shrinks back to after an unusually large write. */
  private static final int INITIAL_CAPACITY = 1 << 20;

  private static final int KEEP_CAPACITY = 16 << 20;

  private final CRC32C crc = new CRC32C();
  private ByteBuffer buf = allocate(INITIAL_CAPACITY);
  private long firstSeq;
  private long lastSeq;

  /**
   * @return whether no record is waiting
   */
  boolean isEmpty() {
    return buf.position() == 0;
  }

  /**
   * @return bytes of the records waiting
   */
  int bytes() {
    return buf.position();
  }

  /**
   * @return the sequence number of the first record waiting
   */
  long firstSeq() {
    return firstSeq;
  }

  /**
   * @return the sequence number of the last record waiting
   */
  long lastSeq() {
    return lastSeq;
  }

  /**
   * @param records payloads
   * @param maxRecordBytes the largest payload allowed
   * @return the bytes they take encoded
   * @throws IllegalArgumentException when a payload is larger than allowed
   */
  static long encodedBytes(List<byte[]> records, int maxRecordBytes) {
    long n = 0;
    for (byte[] r : records) {
      if (r.length > maxRecordBytes) {
        throw new IllegalArgumentException(
            "a record of " + r.length + " bytes is larger than " + maxRecordBytes);
      }
      n += RECORD_HEADER_BYTES + r.length;
    }
    return n;
  }

  /**
   * Encodes records after those waiting.
   *
   * @param records payloads, none null
   * @param seq the sequence number of the first
   * @param bytes their encoded size, from {@link #encodedBytes}
   */
  void add(List<byte[]> records, long seq, int bytes) {
    ensureCapacity(bytes);
    if (isEmpty()) {
      firstSeq = seq;
    }
    for (int i = 0; i < records.size(); i++) {
      put(records.get(i), seq + i);
    }
    lastSeq = seq + records.size() - 1;
  }

  /**
   * @return the waiting bytes, as a view from 0 to their end
   */
  ByteBuffer forWriting() {
    return buf.duplicate().flip();
  }

  /** Forgets the waiting records (written or failed) and gives back memory of a huge write. */
  void clear() {
    if (buf.capacity() > KEEP_CAPACITY) {
      buf = allocate(INITIAL_CAPACITY);
    } else {
      buf.clear();
    }
  }

  private void put(byte[] payload, long seq) {
    int start = buf.position();
    int end = start + RECORD_HEADER_BYTES + payload.length;
    buf.putInt(0).putInt(payload.length).putLong(seq).put(payload);
    crc.reset();
    buf.limit(end).position(start + 4);
    crc.update(buf);
    buf.limit(buf.capacity());
    buf.putInt(start, (int) crc.getValue());
  }

  private void ensureCapacity(int more) {
    int need = buf.position() + more;
    if (need <= buf.capacity()) {
      return;
    }
    int capacity = Integer.highestOneBit(need - 1) << 1;
    if (capacity < need) { // above 1 GiB
      capacity = need;
    }
    ByteBuffer bigger = allocate(capacity);
    bigger.put(buf.flip());
    buf = bigger;
  }

  private static ByteBuffer allocate(int capacity) {
    return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
  }
}
