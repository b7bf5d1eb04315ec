package dev.chartwell.server.charts;

import com.fasterxml.jackson.core.io.NumberInput;
import dev.chartwell.engine.source.EventBatch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads one NDJSON line that is a plain JSON object straight from its bytes into an {@link
 * EventBatch}: field names flattened with {@code .}, strings as their UTF-8 bytes, integers as
 * longs, other numbers as doubles, {@code null} absent, the timestamp field as the event's time. No
 * string, map or token object is made per line.
 *
 * <p>It takes only what it reads exactly as Jackson's strict streaming reader would, and gives up
 * on anything else (arrays, escapes in names, numbers outside a long, duplicate names, invalid
 * UTF-8, syntax errors, a missing or unusual timestamp ...): the caller then reads the line the
 * general way ({@link EventReader}), which gives the same event or says what is wrong in the same
 * words. So this class never decides that a line is bad; it only makes good lines cheap.
 *
 * <p>Not thread-safe: one per reader.
 */
final class LineParser {
  /** Objects nested deeper than this are left to the general reader. */
  private static final int MAX_DEPTH = 32;

  private static final long NANOS_FROM = 100_000_000_000_000_000L;

  private final byte[] timestampField;
  private byte[] line;
  private int pos;
  private int end;
  private EventBatch batch;
  private boolean timestampSeen;

  /** The flattened name being read: the names of the enclosing objects, each followed by a dot. */
  private byte[] name = new byte[256];

  /** Unescaped strings. */
  private byte[] scratch = new byte[256];

  /** A number's characters, for the double parser. */
  private char[] digits = new char[64];

  /**
   * The hashes of the flattened names the line has named so far, by slot ({@link #seen}), to give
   * up on any name that comes twice: a duplicate member (which Jackson refuses, whatever its value)
   * or two names that flatten alike. Slots are reset by moving to the next generation.
   */
  private final int[] seenHash = new int[SEEN_SLOTS];

  private final int[] seenGeneration = new int[SEEN_SLOTS];
  private int generation;
  private int named;

  private static final int SEEN_SLOTS = 128;

  /** The fields of the line before, in order: the next line most likely names them the same. */
  private int[] expected = new int[32];

  private int expectedCount;
  private int fieldIndex;

  /** The hash of the flattened name {@link #key} read last. */
  private int keyHash;

  /**
   * @param timestampField the name (flattened) of the field that holds the event's time
   */
  LineParser(String timestampField) {
    this.timestampField = timestampField.getBytes(StandardCharsets.UTF_8);
  }

  /** Thrown (without a stack) where the general reader must take over. */
  private static final class GiveUp extends Exception {
    static final GiveUp INSTANCE = new GiveUp();

    private GiveUp() {
      super(null, null, false, false);
    }
  }

  /**
   * Reads a line into the batch as one event, or leaves the batch as it was.
   *
   * @param bytes holds the line
   * @param from where it starts
   * @param to where it ends (its newline and carriage return left out)
   * @param into the batch
   * @return whether the line was read; when false the caller reads it the general way
   */
  boolean parse(byte[] bytes, int from, int to, EventBatch into) {
    this.line = bytes;
    this.pos = from;
    this.end = to;
    this.batch = into;
    this.timestampSeen = false;
    this.fieldIndex = 0;
    this.named = 0;
    if (++generation == 0) {
      java.util.Arrays.fill(seenGeneration, 0);
      generation = 1;
    }
    into.startEvent();
    try {
      skipSpace();
      expect('{');
      object(0, 1, 0);
      skipSpace();
      if (pos != end || !timestampSeen) {
        throw GiveUp.INSTANCE;
      }
      into.endEvent();
      expectedCount = fieldIndex;
      return true;
    } catch (GiveUp e) {
      into.abandonEvent();
      return false;
    } finally {
      this.line = null;
      this.batch = null;
    }
  }

  /**
   * The members of an object whose '{' was read; {@code prefix} bytes of the name are set, whose
   * hash is {@code prefixHash}.
   */
  private void object(int prefix, int prefixHash, int depth) throws GiveUp {
    if (depth >= MAX_DEPTH) {
      throw GiveUp.INSTANCE;
    }
    skipSpace();
    if (peek() == '}') {
      pos++;
      return;
    }
    while (true) {
      expect('"');
      int nameEnd = key(prefix, prefixHash);
      skipSpace();
      expect(':');
      skipSpace();
      value(nameEnd, depth);
      skipSpace();
      byte b = next();
      if (b == '}') {
        return;
      }
      if (b != ',') {
        throw GiveUp.INSTANCE;
      }
      skipSpace();
    }
  }

  /**
   * A member's name (plain printable ASCII, no escapes) appended to the prefix, and never named
   * before in the line; returns its end.
   */
  private int key(int prefix, int prefixHash) throws GiveUp {
    int start = pos;
    int h = prefixHash;
    while (true) {
      if (pos >= end) {
        throw GiveUp.INSTANCE;
      }
      byte b = line[pos];
      if (b == '"') {
        break;
      }
      if (b < 0x20 || b == '\\' || b == 0x7F) { // also every non-ASCII byte (negative)
        throw GiveUp.INSTANCE;
      }
      h = 31 * h + b;
      pos++;
    }
    seen(h);
    keyHash = h;
    int length = pos - start;
    pos++; // the closing quote
    int nameEnd = prefix + length;
    if (nameEnd + 1 > name.length) {
      name = Arrays.copyOf(name, Math.max(2 * name.length, nameEnd + 1));
    }
    System.arraycopy(line, start, name, prefix, length);
    return nameEnd;
  }

  private void value(int nameEnd, int depth) throws GiveUp {
    byte b = peek();
    switch (b) {
      case '"' -> {
        pos++;
        string(nameEnd);
      }
      case '{' -> {
        pos++;
        name[nameEnd] = '.';
        object(nameEnd + 1, 31 * keyHash + '.', depth + 1);
      }
      case 't' -> {
        literal("true");
        put(nameEnd, Kind.TRUE, 0);
      }
      case 'f' -> {
        literal("false");
        put(nameEnd, Kind.FALSE, 0);
      }
      case 'n' -> literal("null"); // absent
      default -> {
        if (b == '-' || (b >= '0' && b <= '9')) {
          number(nameEnd);
        } else {
          throw GiveUp.INSTANCE; // an array, or not JSON
        }
      }
    }
  }

  /** Notes a flattened name's hash; gives up when the line named it (or one like it) before. */
  private void seen(int h) throws GiveUp {
    if (++named > SEEN_SLOTS / 2) {
      throw GiveUp.INSTANCE;
    }
    int mask = SEEN_SLOTS - 1;
    for (int slot = (h ^ (h >>> 16)) & mask; ; slot = (slot + 1) & mask) {
      if (seenGeneration[slot] != generation) {
        seenGeneration[slot] = generation;
        seenHash[slot] = h;
        return;
      }
      if (seenHash[slot] == h) {
        throw GiveUp.INSTANCE;
      }
    }
  }

  private enum Kind {
    STRING,
    LONG,
    DOUBLE,
    TRUE,
    FALSE
  }

  /** A string value whose opening quote was read. */
  private void string(int nameEnd) throws GiveUp {
    int start = pos;
    while (true) {
      if (pos >= end) {
        throw GiveUp.INSTANCE;
      }
      byte b = line[pos];
      if (b == '"') {
        putString(nameEnd, line, start, pos);
        pos++;
        return;
      }
      if (b == '\\') {
        escaped(nameEnd, start);
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
  private void escaped(int nameEnd, int start) throws GiveUp {
    int n = pos - start;
    ensureScratch(n + (end - pos));
    System.arraycopy(line, start, scratch, 0, n);
    while (true) {
      if (pos >= end) {
        throw GiveUp.INSTANCE;
      }
      byte b = line[pos];
      if (b == '"') {
        pos++;
        putString(nameEnd, scratch, 0, n);
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

  /** A number, by JSON's grammar: an integer that fits a long, or a finite double. */
  private void number(int nameEnd) throws GiveUp {
    int start = pos;
    if (line[pos] == '-') {
      pos++;
    }
    int intStart = pos;
    if (pos >= end) {
      throw GiveUp.INSTANCE;
    }
    if (line[pos] == '0') {
      pos++;
    } else if (line[pos] >= '1' && line[pos] <= '9') {
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        pos++;
      }
    } else {
      throw GiveUp.INSTANCE;
    }
    int intEnd = pos;
    boolean fraction = false;
    if (pos < end && line[pos] == '.') {
      fraction = true;
      pos++;
      int digitsFrom = pos;
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        pos++;
      }
      if (pos == digitsFrom) {
        throw GiveUp.INSTANCE;
      }
    }
    if (pos < end && (line[pos] == 'e' || line[pos] == 'E')) {
      fraction = true;
      pos++;
      if (pos < end && (line[pos] == '+' || line[pos] == '-')) {
        pos++;
      }
      int digitsFrom = pos;
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        pos++;
      }
      if (pos == digitsFrom) {
        throw GiveUp.INSTANCE;
      }
    }
    if (pos < end && line[pos] >= '0' && line[pos] <= '9') {
      throw GiveUp.INSTANCE; // a leading zero followed by digits
    }
    if (!fraction) {
      if (intEnd - intStart > 19) {
        throw GiveUp.INSTANCE; // past a long: the general reader makes it a big integer
      }
      long v = 0;
      for (int i = intStart; i < intEnd; i++) {
        int d = line[i] - '0';
        if (v > (Long.MAX_VALUE - d) / 10) {
          throw GiveUp.INSTANCE; // the same, or Long.MIN_VALUE: left to the general reader
        }
        v = v * 10 + d;
      }
      put(nameEnd, Kind.LONG, line[start] == '-' ? -v : v);
      return;
    }
    int length = pos - start;
    if (length > digits.length) {
      digits = new char[Math.max(length, 2 * digits.length)];
    }
    for (int i = 0; i < length; i++) {
      digits[i] = (char) line[start + i];
    }
    double d;
    try {
      d = NumberInput.parseDouble(digits, 0, length, true);
    } catch (NumberFormatException e) {
      throw GiveUp.INSTANCE;
    }
    if (!Double.isFinite(d)) {
      throw GiveUp.INSTANCE;
    }
    put(nameEnd, Kind.DOUBLE, Double.doubleToRawLongBits(d == 0 ? 0.0 : d)); // no -0.0, as JSON
  }

  private void literal(String word) throws GiveUp {
    int length = word.length();
    if (pos + length > end) {
      throw GiveUp.INSTANCE;
    }
    for (int i = 0; i < length; i++) {
      if (line[pos + i] != word.charAt(i)) {
        throw GiveUp.INSTANCE;
      }
    }
    pos += length;
    if (pos < end) {
      byte b = line[pos];
      if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')) {
        throw GiveUp.INSTANCE; // "nullx", "true1": not a literal
      }
    }
  }

  private void putString(int nameEnd, byte[] bytes, int from, int to) throws GiveUp {
    if (isTimestamp(nameEnd)) {
      throw GiveUp.INSTANCE; // an ISO-8601 time: the general reader parses it
    }
    batch.putString(field(nameEnd), bytes, from, to);
  }

  private void put(int nameEnd, Kind kind, long bits) throws GiveUp {
    if (isTimestamp(nameEnd)) {
      if (kind != Kind.LONG || bits <= 0 || timestampSeen) {
        throw GiveUp.INSTANCE;
      }
      batch.timestamp(bits >= NANOS_FROM ? bits / 1_000_000 : bits);
      timestampSeen = true;
      return;
    }
    int field = field(nameEnd);
    switch (kind) {
      case LONG -> batch.putLong(field, bits);
      case DOUBLE -> batch.putDouble(field, Double.longBitsToDouble(bits));
      case TRUE -> batch.putBoolean(field, true);
      default -> batch.putBoolean(field, false);
    }
  }

  private boolean isTimestamp(int nameEnd) {
    return Arrays.equals(name, 0, nameEnd, timestampField, 0, timestampField.length);
  }

  /**
   * The batch field of the name read: the field the line before had at this place when the names
   * agree, else a lookup.
   */
  private int field(int nameEnd) throws GiveUp {
    int field = -1;
    if (fieldIndex < expectedCount) {
      int guess = expected[fieldIndex];
      byte[] known = batch.nameUtf8(guess);
      if (Arrays.equals(known, 0, known.length, name, 0, nameEnd)) {
        field = guess;
      }
    }
    if (field < 0) {
      field = batch.field(name, 0, nameEnd);
    }
    if (fieldIndex == expected.length) {
      expected = Arrays.copyOf(expected, 2 * fieldIndex);
    }
    expected[fieldIndex++] = field;
    return field;
  }

  private void ensureScratch(int length) {
    if (length > scratch.length) {
      scratch = new byte[Math.max(length, 2 * scratch.length)];
    }
  }

  private void skipSpace() {
    while (pos < end) {
      byte b = line[pos];
      if (b != ' ' && b != '\t' && b != '\r') {
        return;
      }
      pos++;
    }
  }

  private byte peek() throws GiveUp {
    if (pos >= end) {
      throw GiveUp.INSTANCE;
    }
    return line[pos];
  }

  private byte next() throws GiveUp {
    byte b = peek();
    pos++;
    return b;
  }

  private void expect(char c) throws GiveUp {
    if (next() != c) {
      throw GiveUp.INSTANCE;
    }
  }
}
