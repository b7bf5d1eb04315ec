package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.Event;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Encodes an {@link Event} whose values are already converted ({@link String}, {@link Long}, {@link
 * Double}, {@link Boolean}, or {@code null} for absent) as a compact, self-contained record for the
 * write-ahead log, and decodes it exactly: the same timestamp, the same fields in the same
 * iteration order (so that replaying events defines new columns in the order the first append did),
 * doubles bit for bit (including -0.0), strings as the same Unicode text.
 *
 * <h2>Format (version 1)</h2>
 *
 * <pre>
 * byte     1 (format version)
 * varlong  timestamp, zigzag
 * varint   number of fields
 * per field:
 *   varint   name length in UTF-8 bytes, then the name's UTF-8 bytes
 *   byte     type tag, then the value:
 *            0 absent (null)   nothing
 *            1 string          varint UTF-8 length, UTF-8 bytes
 *            2 long            varlong, zigzag
 *            3 double          8 bytes: the IEEE 754 bits, little-endian
 *            4 false, 5 true   nothing
 * </pre>
 *
 * Varints are LEB128: 7 bits a byte, low bits first, the high bit set on all but the last byte.
 * Zigzag maps signed to unsigned so that small negative numbers stay short.
 *
 * <p>An instance keeps a scratch buffer and a cache of decoded field names, so it is not
 * thread-safe; use one per thread or per source.
 */
public final class EventCodec {
  /** The format version written as the first byte. */
  public static final int FORMAT_VERSION = 1;

  private static final byte NULL = 0;
  private static final byte STRING = 1;
  private static final byte LONG = 2;
  private static final byte DOUBLE = 3;
  private static final byte FALSE = 4;
  private static final byte TRUE = 5;

  private static final int NAME_CACHE = 256;

  private byte[] out = new byte[512];
  private int pos;

  private final byte[][] cachedNameBytes = new byte[NAME_CACHE][];
  private final String[] cachedNames = new String[NAME_CACHE];

  private final String[] encodedNames = new String[NAME_CACHE];
  private final byte[][] encodedNameBytes = new byte[NAME_CACHE][];

  private byte[] in;
  private int inPos;
  private int inEnd;

  /** A codec with empty buffers. */
  public EventCodec() {}

  /**
   * @param event an event with String, Long, Double, Boolean or null values
   * @return its encoding
   * @throws IllegalArgumentException when a value has another type, a field name is null, or a
   *     string or name holds an unpaired UTF-16 surrogate (which has no UTF-8 encoding)
   */
  public byte[] encode(Event event) {
    Map<String, Object> fields = event.fields();
    start(event.timestamp(), fields.size());
    for (Map.Entry<String, Object> f : fields.entrySet()) {
      putField(f.getKey(), f.getValue());
    }
    return Arrays.copyOf(out, pos);
  }

  /**
   * Encodes an event given as parallel arrays, without building its map: the same bytes as {@link
   * #encode(Event)} of an event with these fields in this order.
   *
   * @param timestamp the event's timestamp
   * @param names field names
   * @param values their values (String, Long, Double, Boolean or null)
   * @param count how many fields of the arrays to encode
   * @return the encoding
   * @throws IllegalArgumentException as {@link #encode(Event)}
   */
  public byte[] encode(long timestamp, String[] names, Object[] values, int count) {
    start(timestamp, count);
    for (int i = 0; i < count; i++) {
      putField(names[i], values[i]);
    }
    return Arrays.copyOf(out, pos);
  }

  private void start(long timestamp, int fields) {
    pos = 0;
    ensure(1 + 10 + 5);
    out[pos++] = FORMAT_VERSION;
    putVarLong(zigzag(timestamp));
    putVarLong(fields);
  }

  private void putField(String name, Object value) {
    if (name == null) {
      throw new IllegalArgumentException("a field name is null");
    }
    putName(name);
    putValue(name, value);
  }

  /**
   * @param record an encoding made by {@link #encode}
   * @return the event
   * @throws IllegalArgumentException when the bytes are not such an encoding
   */
  public Event decode(byte[] record) {
    return decode(record, 0, record.length);
  }

  /**
   * @param bytes holds an encoding made by {@link #encode}
   * @param offset where it starts
   * @param length its length
   * @return the event
   * @throws IllegalArgumentException when the bytes are not such an encoding
   */
  public Event decode(byte[] bytes, int offset, int length) {
    in = bytes;
    inPos = offset;
    inEnd = offset + length;
    try {
      int version = readByte();
      if (version != FORMAT_VERSION) {
        throw malformed("format version " + version + " (this build reads " + FORMAT_VERSION + ")");
      }
      long timestamp = unzigzag(readVarLong());
      long count = readVarLong();
      if (count > (inEnd - inPos) / 2) {
        throw malformed(count + " fields cannot fit in " + (inEnd - inPos) + " bytes");
      }
      int n = (int) count;
      Map<String, Object> fields = new LinkedHashMap<>(n * 4 / 3 + 1);
      for (int i = 0; i < n; i++) {
        String name = readName();
        fields.put(name, readValue());
      }
      if (inPos != inEnd) {
        throw malformed((inEnd - inPos) + " bytes follow the last field");
      }
      return new Event(timestamp, fields);
    } finally {
      in = null;
    }
  }

  private void putValue(String field, Object value) {
    if (value instanceof String s) {
      ensure(1);
      out[pos++] = STRING;
      putString(field, s);
    } else if (value instanceof Long l) {
      ensure(11);
      out[pos++] = LONG;
      putVarLong(zigzag(l));
    } else if (value instanceof Double d) {
      ensure(9);
      out[pos++] = DOUBLE;
      long bits = Double.doubleToRawLongBits(d);
      for (int i = 0; i < 8; i++) {
        out[pos++] = (byte) (bits >>> (8 * i));
      }
    } else if (value instanceof Boolean b) {
      ensure(1);
      out[pos++] = b ? TRUE : FALSE;
    } else if (value == null) {
      ensure(1);
      out[pos++] = NULL;
    } else {
      throw new IllegalArgumentException(
          "field '"
              + field
              + "': a "
              + value.getClass().getSimpleName()
              + " cannot be encoded (only String, Long, Double, Boolean and null)");
    }
  }

  /** Writes a field name: its length and UTF-8 bytes, copied from a cache when seen before. */
  private void putName(String name) {
    int slot = (name.hashCode() * 0x9E3779B9 >>> 24) & (NAME_CACHE - 1);
    String cached = encodedNames[slot];
    if (cached != null && (cached == name || cached.equals(name))) {
      byte[] b = encodedNameBytes[slot];
      ensure(b.length);
      System.arraycopy(b, 0, out, pos, b.length);
      pos += b.length;
      return;
    }
    int start = pos;
    putString(name, name);
    encodedNameBytes[slot] = Arrays.copyOfRange(out, start, pos);
    encodedNames[slot] = name;
  }

  /** Writes the UTF-8 length and bytes of {@code s}; one pass when it is ASCII. */
  private void putString(String field, String s) {
    int chars = s.length();
    ensure(5 + chars);
    int lengthAt = pos;
    int start = pos + 1;
    int p = start;
    int i = 0;
    byte[] o = out;
    while (i < chars) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        break;
      }
      o[p++] = (byte) c;
      i++;
    }
    int utf8;
    if (i == chars && chars < 0x80) {
      utf8 = chars; // ASCII with a one-byte length: done
    } else {
      utf8 = i + utf8Length(field, s, i);
      int lengthBytes = varIntBytes(utf8);
      ensure(lengthBytes + utf8);
      o = out;
      start = lengthAt + lengthBytes;
      p = start + i;
      System.arraycopy(o, lengthAt + 1, o, start, i);
      for (; i < chars; i++) {
        char c = s.charAt(i);
        if (c < 0x80) {
          o[p++] = (byte) c;
        } else if (c < 0x800) {
          o[p++] = (byte) (0xC0 | (c >> 6));
          o[p++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isHighSurrogate(c)) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          o[p++] = (byte) (0xF0 | (cp >> 18));
          o[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          o[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          o[p++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          o[p++] = (byte) (0xE0 | (c >> 12));
          o[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
          o[p++] = (byte) (0x80 | (c & 0x3F));
        }
      }
    }
    pos = lengthAt;
    putVarLong(utf8);
    pos = p;
  }

  /** UTF-8 bytes of {@code s} from {@code from}; rejects unpaired surrogates. */
  private static int utf8Length(String field, String s, int from) {
    int n = 0;
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (!Character.isSurrogate(c)) {
        n += 3;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        throw new IllegalArgumentException(
            "field '"
                + field
                + "': unpaired UTF-16 surrogate at index "
                + i
                + "; only valid Unicode text can be encoded");
      }
    }
    return n;
  }

  private static int varIntBytes(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  private void putVarLong(long v) {
    while ((v & ~0x7FL) != 0) {
      out[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
  }

  private void ensure(int more) {
    if (pos + more > out.length) {
      out = Arrays.copyOf(out, Math.max(out.length * 2, pos + more));
    }
  }

  private static long zigzag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  private static long unzigzag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  private String readName() {
    int len = readLength();
    int from = inPos;
    inPos += len;
    int h = len;
    for (int i = from; i < inPos; i++) {
      h = 31 * h + in[i];
    }
    int slot = (h ^ (h >>> 16)) & (NAME_CACHE - 1);
    byte[] cached = cachedNameBytes[slot];
    if (cached != null && Arrays.equals(cached, 0, cached.length, in, from, inPos)) {
      return cachedNames[slot];
    }
    String name = new String(in, from, len, StandardCharsets.UTF_8);
    cachedNameBytes[slot] = Arrays.copyOfRange(in, from, inPos);
    cachedNames[slot] = name;
    return name;
  }

  private Object readValue() {
    int tag = readByte();
    switch (tag) {
      case NULL:
        return null;
      case STRING:
        int len = readLength();
        String s = new String(in, inPos, len, StandardCharsets.UTF_8);
        inPos += len;
        return s;
      case LONG:
        return unzigzag(readVarLong());
      case DOUBLE:
        if (inEnd - inPos < 8) {
          throw malformed("a double is cut off");
        }
        long bits = 0;
        for (int i = 0; i < 8; i++) {
          bits |= (in[inPos++] & 0xFFL) << (8 * i);
        }
        return Double.longBitsToDouble(bits);
      case FALSE:
        return Boolean.FALSE;
      case TRUE:
        return Boolean.TRUE;
      default:
        throw malformed("unknown type tag " + tag);
    }
  }

  private int readLength() {
    long len = readVarLong();
    if (len > inEnd - inPos) {
      throw malformed("a length of " + len + " runs past the end");
    }
    return (int) len;
  }

  private int readByte() {
    if (inPos >= inEnd) {
      throw malformed("the record ends early");
    }
    return in[inPos++] & 0xFF;
  }

  private long readVarLong() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      v |= (long) (b & 0x7F) << shift;
      if (b < 0x80) {
        return v;
      }
    }
    throw malformed("a varint is longer than 10 bytes");
  }

  private static IllegalArgumentException malformed(String why) {
    return new IllegalArgumentException("not an encoded event: " + why);
  }
}
