package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EventBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes accepted events of an {@link EventBatch}, their values already converted to their
 * columns' types, as write-ahead log records that hold many events each, a field at a time; and
 * decodes such a record back into a batch, exactly: the same timestamps, fields in the same order
 * (so that replaying defines new columns in the order the append did), doubles bit for bit, strings
 * as the same bytes.
 *
 * <h2>Format (record kind 2)</h2>
 *
 * <pre>
 * byte     2 (a batch; kind 1 is one event, {@link EventCodec})
 * varint   number of events n
 * varlong  the first timestamp, zigzag; then each next one as its difference, zigzag
 * varint   number of fields
 * per field:
 *   varint   name length in UTF-8 bytes, then the name's bytes
 *   byte     the column type: 1 string, 2 long, 3 double, 4 boolean
 *   byte     0: every event has a value; 1: a bitmap of ceil(n / 8) bytes follows, bit i (of byte
 *            i / 8, lowest first) set when event i has one
 *   the values of the events that have one:
 *     string   varint UTF-8 length, the bytes
 *     long     varlong, zigzag
 *     double   8 bytes: the IEEE 754 bits, little-endian
 *     boolean  a bitmap of ceil(count / 8) bytes, set for true
 * </pre>
 *
 * Varints are LEB128 as in {@link EventCodec}. A record holds at most {@link #RECORD_BYTES} and
 * more (one event alone may take up to the log's limit), so a large batch becomes several records.
 */
public final class BatchCodec {
  /** The first byte of a batch record. */
  public static final byte KIND = 2;

  /** Size past which a record is closed and the next events go to another. */
  static final int RECORD_BYTES = 4 << 20;

  private static final byte STRING = 1;
  private static final byte LONG = 2;
  private static final byte DOUBLE = 3;
  private static final byte BOOL = 4;

  private BatchCodec() {}

  /**
   * Encodes the accepted events of {@code [from, to)}.
   *
   * @param batch the events, converted
   * @param types per field its column type ({@code null}: no accepted event has a value in it)
   * @param rejected per event whether it is rejected, or {@code null} when none is
   * @param from the first event
   * @param to one past the last
   * @return the records, in order (none when no event in the range is accepted)
   */
  public static List<byte[]> encode(
      EventBatch batch, ColumnType[] types, boolean[] rejected, int from, int to) {
    List<byte[]> records = new ArrayList<>(1);
    int[] rows = new int[to - from];
    int n = 0;
    long bytes = 0;
    for (int row = from; row < to; row++) {
      if (rejected != null && rejected[row]) {
        continue;
      }
      long size = size(batch, types, row);
      if (n > 0 && bytes + size > RECORD_BYTES) {
        records.add(record(batch, types, rows, n, bytes));
        n = 0;
        bytes = 0;
      }
      rows[n++] = row;
      bytes += size;
    }
    if (n > 0) {
      records.add(record(batch, types, rows, n, bytes));
    }
    return records;
  }

  /** An upper bound of what one event adds to a record. */
  private static long size(EventBatch batch, ColumnType[] types, int row) {
    long size = 10;
    for (int f = 0; f < types.length; f++) {
      if (types[f] != null) {
        byte tag = batch.tag(f, row);
        size += tag == EventBatch.STRING ? 5 + batch.textLength(f, row) : 10;
      }
    }
    return size;
  }

  private static byte[] record(
      EventBatch batch, ColumnType[] types, int[] rows, int n, long valueBytes) {
    Writer out = new Writer((int) Math.min(Integer.MAX_VALUE - 16, valueBytes + 64));
    out.put(KIND);
    out.putVarLong(n);
    long last = 0;
    for (int i = 0; i < n; i++) {
      long ts = batch.timestampAt(rows[i]);
      out.putVarLong(zigzag(i == 0 ? ts : ts - last));
      last = ts;
    }
    int fields = 0;
    int[] present = new int[types.length];
    for (int f = 0; f < types.length; f++) {
      if (types[f] == null) {
        continue;
      }
      for (int i = 0; i < n; i++) {
        if (batch.tag(f, rows[i]) != EventBatch.ABSENT) {
          present[f]++;
        }
      }
      if (present[f] > 0) {
        fields++;
      }
    }
    out.putVarLong(fields);
    for (int f = 0; f < types.length; f++) {
      if (types[f] == null || present[f] == 0) {
        continue;
      }
      byte[] name = batch.nameUtf8(f);
      out.putVarLong(name.length);
      out.put(name, 0, name.length);
      out.put(typeByte(types[f]));
      if (present[f] == n) {
        out.put((byte) 0);
      } else {
        out.put((byte) 1);
        byte[] bits = new byte[(n + 7) >>> 3];
        for (int i = 0; i < n; i++) {
          if (batch.tag(f, rows[i]) != EventBatch.ABSENT) {
            bits[i >>> 3] |= (byte) (1 << (i & 7));
          }
        }
        out.put(bits, 0, bits.length);
      }
      switch (types[f]) {
        case STRING -> {
          byte[] text = batch.text(f);
          for (int i = 0; i < n; i++) {
            if (batch.tag(f, rows[i]) != EventBatch.ABSENT) {
              int length = batch.textLength(f, rows[i]);
              out.putVarLong(length);
              out.put(text, batch.textStart(f, rows[i]), length);
            }
          }
        }
        case LONG -> {
          for (int i = 0; i < n; i++) {
            if (batch.tag(f, rows[i]) != EventBatch.ABSENT) {
              out.putVarLong(zigzag(batch.longAt(f, rows[i])));
            }
          }
        }
        case DOUBLE -> {
          for (int i = 0; i < n; i++) {
            if (batch.tag(f, rows[i]) != EventBatch.ABSENT) {
              out.putLong(Double.doubleToRawLongBits(batch.doubleAt(f, rows[i])));
            }
          }
        }
        case BOOL -> {
          byte[] bits = new byte[(present[f] + 7) >>> 3];
          int k = 0;
          for (int i = 0; i < n; i++) {
            byte tag = batch.tag(f, rows[i]);
            if (tag != EventBatch.ABSENT) {
              if (tag == EventBatch.TRUE) {
                bits[k >>> 3] |= (byte) (1 << (k & 7));
              }
              k++;
            }
          }
          out.put(bits, 0, bits.length);
        }
      }
    }
    return out.bytes();
  }

  private static byte typeByte(ColumnType type) {
    return switch (type) {
      case STRING -> STRING;
      case LONG -> LONG;
      case DOUBLE -> DOUBLE;
      case BOOL -> BOOL;
    };
  }

  /**
   * Decodes a batch record into a batch (cleared first).
   *
   * @param record a record made by {@link #encode}
   * @param into the batch to fill
   * @throws IllegalArgumentException when the bytes are not such a record
   */
  public static void decode(byte[] record, EventBatch into) {
    into.clear();
    Reader in = new Reader(record);
    if (in.get() != KIND) {
      throw malformed("it is not a batch record");
    }
    int n = in.count(record.length);
    long[] timestamps = new long[n];
    long last = 0;
    for (int i = 0; i < n; i++) {
      long v = unzigzag(in.getVarLong());
      last = i == 0 ? v : last + v;
      timestamps[i] = last;
    }
    int fields = in.count(record.length);
    int[] numbers = new int[fields];
    byte[] types = new byte[fields];
    boolean[][] present = new boolean[fields][];
    int[][] starts = new int[fields][];
    long[][] values = new long[fields][];
    for (int f = 0; f < fields; f++) {
      int nameLength = in.count(record.length);
      numbers[f] = into.field(record, in.pos, in.skip(nameLength));
      types[f] = in.get();
      byte presence = in.get();
      present[f] = new boolean[n];
      int count = 0;
      if (presence == 0) {
        Arrays.fill(present[f], true);
        count = n;
      } else if (presence == 1) {
        int at = in.skip((n + 7) >>> 3) - ((n + 7) >>> 3);
        for (int i = 0; i < n; i++) {
          present[f][i] = (record[at + (i >>> 3)] & (1 << (i & 7))) != 0;
          count += present[f][i] ? 1 : 0;
        }
      } else {
        throw malformed("presence byte " + presence);
      }
      values[f] = new long[count];
      switch (types[f]) {
        case STRING -> {
          starts[f] = new int[count];
          for (int k = 0; k < count; k++) {
            int length = in.count(record.length);
            starts[f][k] = in.pos;
            values[f][k] = length;
            in.skip(length);
          }
        }
        case LONG -> {
          for (int k = 0; k < count; k++) {
            values[f][k] = unzigzag(in.getVarLong());
          }
        }
        case DOUBLE -> {
          for (int k = 0; k < count; k++) {
            values[f][k] = in.getLong();
          }
        }
        case BOOL -> {
          int at = in.skip((count + 7) >>> 3) - ((count + 7) >>> 3);
          for (int k = 0; k < count; k++) {
            values[f][k] = (record[at + (k >>> 3)] >>> (k & 7)) & 1;
          }
        }
        default -> throw malformed("column type " + types[f]);
      }
    }
    if (in.pos != record.length) {
      throw malformed((record.length - in.pos) + " bytes follow the last field");
    }
    int[] next = new int[fields];
    for (int i = 0; i < n; i++) {
      into.startEvent();
      into.timestamp(timestamps[i]);
      for (int f = 0; f < fields; f++) {
        if (!present[f][i]) {
          continue;
        }
        int k = next[f]++;
        switch (types[f]) {
          case STRING ->
              into.putString(numbers[f], record, starts[f][k], starts[f][k] + (int) values[f][k]);
          case LONG -> into.putLong(numbers[f], values[f][k]);
          case DOUBLE -> into.putDouble(numbers[f], Double.longBitsToDouble(values[f][k]));
          default -> into.putBoolean(numbers[f], values[f][k] != 0);
        }
      }
      into.endEvent();
    }
  }

  private static long zigzag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  private static long unzigzag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  private static IllegalArgumentException malformed(String why) {
    return new IllegalArgumentException("malformed batch record: " + why);
  }

  /** A growable output buffer. */
  private static final class Writer {
    private byte[] out;
    private int pos;

    Writer(int capacity) {
      out = new byte[Math.max(64, capacity)];
    }

    void ensure(int more) {
      if (pos + more > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + more, out.length + (out.length >> 1)));
      }
    }

    void put(byte b) {
      ensure(1);
      out[pos++] = b;
    }

    void put(byte[] bytes, int from, int length) {
      ensure(length);
      System.arraycopy(bytes, from, out, pos, length);
      pos += length;
    }

    void putVarLong(long v) {
      ensure(10);
      while ((v & ~0x7FL) != 0) {
        out[pos++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out[pos++] = (byte) v;
    }

    void putLong(long v) {
      ensure(8);
      for (int i = 0; i < 8; i++) {
        out[pos++] = (byte) (v >>> (8 * i));
      }
    }

    byte[] bytes() {
      return pos == out.length ? out : Arrays.copyOf(out, pos);
    }
  }

  /** Reads a record, refusing to read past its end. */
  private static final class Reader {
    private final byte[] in;
    private int pos;

    Reader(byte[] in) {
      this.in = in;
    }

    byte get() {
      if (pos >= in.length) {
        throw malformed("it ends early");
      }
      return in[pos++];
    }

    /** Moves past {@code length} bytes; returns where they end. */
    int skip(int length) {
      if (length < 0 || length > in.length - pos) {
        throw malformed("it ends early");
      }
      pos += length;
      return pos;
    }

    long getVarLong() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        byte b = get();
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
      throw malformed("a varint is longer than 10 bytes");
    }

    /** A varint that counts something of which at most {@code max} can fit. */
    int count(int max) {
      long v = getVarLong();
      if (v < 0 || v > max) {
        throw malformed("a count of " + v + " in a record of " + in.length + " bytes");
      }
      return (int) v;
    }

    long getLong() {
      skip(8);
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v |= (in[pos - 8 + i] & 0xFFL) << (8 * i);
      }
      return v;
    }
  }
}
