package dev.chartwell.server.charts;

/**
 * Reads a JSON string from a line's bytes as Jackson's strict reader would, for {@link LineParser}
 * and the readers of other bodies read from their bytes (Loki's JSON push): its UTF-8 bytes,
 * checked as strictly as Java's decoder checks them, and its escapes undone. A string without
 * escapes is read eight bytes at a time and left where it lies in the line; one with escapes is
 * unescaped into a buffer of the reader's. Anything else (a control character, a bad escape, an
 * unpaired surrogate, invalid UTF-8) is left to the general reader.
 *
 * <p>Kept apart from {@link LineParser}, which reads a line's structure and names, because reading
 * a string's bytes exactly is an idea of its own.
 */
public final class JsonStringReader extends ValueReader {
  private static final java.lang.invoke.VarHandle LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /** Unescaped strings. */
  private byte[] scratch = new byte[256];

  /** A reader with an empty buffer for unescaped strings. */
  public JsonStringReader() {}

  private byte[] bytes;
  private int from;
  private int to;

  /**
   * @return the array holding the string read last: the line, or the reader's buffer
   */
  public byte[] bytes() {
    return bytes;
  }

  /**
   * @return where the string read last starts in {@link #bytes()}
   */
  public int from() {
    return from;
  }

  /**
   * @return where the string read last ends in {@link #bytes()}
   */
  public int to() {
    return to;
  }

  /**
   * Reads the string whose opening quote was read, from {@link #pos}; then {@link #end()}, {@link
   * #bytes()}, {@link #from()} and {@link #to()} say what it read.
   *
   * @throws GiveUp for anything the general reader must decide (a control character, a bad escape,
   *     an unpaired surrogate, invalid UTF-8, no closing quote)
   */
  @Override
  void scan() throws GiveUp {
    int start = pos;
    // Eight bytes at a time while none of them is a quote, a backslash, a control character or
    // part of a multi-byte character.
    while (pos + 8 <= end) {
      long word = (long) LONG.get(line, pos);
      long quote = word ^ 0x2222222222222222L;
      long backslash = word ^ 0x5C5C5C5C5C5C5C5CL;
      long special =
          ((quote - 0x0101010101010101L) & ~quote)
              | ((backslash - 0x0101010101010101L) & ~backslash)
              | ((word - 0x2020202020202020L) & ~word)
              | word;
      if ((special & 0x8080808080808080L) != 0) {
        break;
      }
      pos += 8;
    }
    while (true) {
      if (pos >= end) {
        throw GiveUp.INSTANCE;
      }
      byte b = line[pos];
      if (b == '"') {
        found(line, start, pos);
        pos++;
        return;
      }
      if (b == '\\') {
        escaped(start);
        return;
      }
      if (b < 0) {
        pos = utf8(pos);
      } else if (b < 0x20) {
        throw GiveUp.INSTANCE; // a control character must be escaped
      } else {
        pos++;
      }
    }
  }

  /** The rest of a string from its first backslash: unescaped into the scratch buffer. */
  private void escaped(int start) throws GiveUp {
    int n = pos - start;
    if (n + (end - pos) > scratch.length) {
      scratch = new byte[Math.max(n + (end - pos), 2 * scratch.length)];
    }
    System.arraycopy(line, start, scratch, 0, n);
    while (true) {
      if (pos >= end) {
        throw GiveUp.INSTANCE;
      }
      byte b = line[pos];
      if (b == '"') {
        pos++;
        found(scratch, 0, n);
        return;
      }
      if (b == '\\') {
        if (pos + 1 >= end) {
          throw GiveUp.INSTANCE;
        }
        byte e = line[pos + 1];
        pos += 2;
        switch (e) {
          case '"', '\\', '/' -> scratch[n++] = e;
          case 'b' -> scratch[n++] = '\b';
          case 'f' -> scratch[n++] = '\f';
          case 'n' -> scratch[n++] = '\n';
          case 'r' -> scratch[n++] = '\r';
          case 't' -> scratch[n++] = '\t';
          case 'u' -> n = unicodeEscape(n);
          default -> throw GiveUp.INSTANCE;
        }
      } else if (b < 0) {
        int next = utf8(pos);
        System.arraycopy(line, pos, scratch, n, next - pos);
        n += next - pos;
        pos = next;
      } else if (b < 0x20) {
        throw GiveUp.INSTANCE;
      } else {
        scratch[n++] = b;
        pos++;
      }
    }
  }

  /** A {@code \}{@code uXXXX} escape (a surrogate pair as two), written as UTF-8. */
  private int unicodeEscape(int n) throws GiveUp {
    int c = hex4();
    if (Character.isHighSurrogate((char) c)) {
      if (pos + 6 > end || line[pos] != '\\' || line[pos + 1] != 'u') {
        throw GiveUp.INSTANCE; // an unpaired surrogate: the general reader rejects it
      }
      pos += 2;
      int low = hex4();
      if (!Character.isLowSurrogate((char) low)) {
        throw GiveUp.INSTANCE;
      }
      int cp = Character.toCodePoint((char) c, (char) low);
      scratch[n++] = (byte) (0xF0 | (cp >> 18));
      scratch[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
      scratch[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
      scratch[n++] = (byte) (0x80 | (cp & 0x3F));
    } else if (Character.isSurrogate((char) c)) {
      throw GiveUp.INSTANCE;
    } else if (c < 0x80) {
      scratch[n++] = (byte) c;
    } else if (c < 0x800) {
      scratch[n++] = (byte) (0xC0 | (c >> 6));
      scratch[n++] = (byte) (0x80 | (c & 0x3F));
    } else {
      scratch[n++] = (byte) (0xE0 | (c >> 12));
      scratch[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
      scratch[n++] = (byte) (0x80 | (c & 0x3F));
    }
    return n;
  }

  private int hex4() throws GiveUp {
    if (pos + 4 > end) {
      throw GiveUp.INSTANCE;
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(line[pos++], 16);
      if (d < 0) {
        throw GiveUp.INSTANCE;
      }
      v = v << 4 | d;
    }
    return v;
  }

  /**
   * Checks one UTF-8 sequence starting at {@code at} as strictly as Java's decoder does (no
   * overlong forms, no surrogates, nothing past U+10FFFF).
   *
   * @return where the next character starts
   */
  private int utf8(int at) throws GiveUp {
    int b = line[at] & 0xFF;
    int length;
    int min;
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
      min = 0x80;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      min = 0x800;
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      min = 0x10000;
    } else {
      throw GiveUp.INSTANCE;
    }
    if (at + length > end) {
      throw GiveUp.INSTANCE;
    }
    int cp = b & (0xFF >> (length + 1));
    for (int i = 1; i < length; i++) {
      int c = line[at + i] & 0xFF;
      if ((c & 0xC0) != 0x80) {
        throw GiveUp.INSTANCE;
      }
      cp = cp << 6 | (c & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      throw GiveUp.INSTANCE;
    }
    return at + length;
  }

  private void found(byte[] bytes, int from, int to) {
    this.bytes = bytes;
    this.from = from;
    this.to = to;
  }
}
