package dev.chartwell.server.charts;

import com.fasterxml.jackson.core.io.NumberInput;
import dev.chartwell.engine.EventBatch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads an NDJSON line that is a plain JSON object straight from its bytes into an {@link
 * EventBatch}: field names flattened with {@code .}, strings as their UTF-8 bytes, integers as
 * longs, other numbers as doubles, {@code null} absent, the timestamp field as the event's time. No
 * string, map or token object is made per line, and the line is read once: its end is where the
 * object ends, so the caller need not look for the newline first.
 *
 * <p>It takes only what it reads exactly as Jackson's strict streaming reader would, and gives up
 * on anything else (arrays, escapes in names, numbers outside a long, a name given twice, invalid
 * UTF-8, syntax errors, a missing or unusual timestamp ...): the caller then reads the line the
 * general way ({@link EventReader}), which gives the same event or says what is wrong in the same
 * words. So this class never decides that a line is bad; it only makes good lines cheap.
 *
 * <p>Lines of one producer name the same fields in the same order, so each name is first compared
 * with the name at its place in the line before, whose hash and batch field it then reuses; a line
 * that keeps to the same names cannot repeat one, and only a line that departs from them hashes its
 * names to catch repeats.
 *
 * <p>The timestamp field may hold epoch milliseconds, epoch nanoseconds (integers from 10^17) or
 * the common ISO-8601 form {@code 2026-11-21T10:15:30[.fraction](Z|+hh:mm|-hh:mm)}, read from its
 * bytes to the same instant {@link java.time.OffsetDateTime#parse} gives; other forms go to the
 * general reader.
 *
 * <p>The NDJSON ingestion and the Elasticsearch {@code _bulk} route (which reads its source lines
 * with it) share it.
 *
 * <p>Not thread-safe: one per reader, for one batch.
 */
public final class LineParser {
  /** Objects nested deeper than this are left to the general reader. */
  private static final int MAX_DEPTH = 32;

  private static final long NANOS_FROM = 100_000_000_000_000_000L;

  /** A name's field before it is looked up, or a name that holds an object or null. */
  private static final int UNKNOWN = -1;

  /** The name of the timestamp field. */
  private static final int TIMESTAMP = -2;

  /** Names the duplicate check keeps per line: more go to the general reader. */
  private static final int SEEN_SLOTS = 128;

  /** Exact powers of ten, for numbers that convert with one correctly rounded operation. */
  private static final double[] POWERS = new double[23];

  static {
    POWERS[0] = 1;
    for (int i = 1; i < POWERS.length; i++) {
      POWERS[i] = POWERS[i - 1] * 10;
    }
  }

  private static final java.lang.invoke.VarHandle LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  private final byte[] timestampField;
  private final EventBatch batch;
  private byte[] line;
  private int pos;
  private int end;
  private boolean timestampSeen;

  /** The flattened name being read: the names of the enclosing objects, each followed by a dot. */
  private byte[] name = new byte[256];

  /** Unescaped strings. */
  private byte[] scratch = new byte[256];

  /** A number's characters, for the general double parser. */
  private char[] digits = new char[64];

  /**
   * The names of the last line read, each member's name as written with its depth, flattened hash
   * and batch field. While a line names the same (predicting), it is read against these and adds
   * nothing; from the first name that differs, the line's names so far are copied into {@link
   * #next}, which becomes the record once the line is read.
   */
  private LineNames names = new LineNames();

  private LineNames next = new LineNames();

  /** Whether this line has named, so far, exactly what the line before did. */
  private boolean predicting;

  /** The record ({@link #names} or {@link #next}) and place of the name read last. */
  private LineNames keys;

  private int key;

  /** Where the name read last lies in the line, as written. */
  private int keyStart;

  private int keyLength;

  private final int[] seenHash = new int[SEEN_SLOTS];
  private final int[] seenGeneration = new int[SEEN_SLOTS];
  private int generation;

  /**
   * @param timestampField the name (flattened) of the field that holds the event's time
   * @param batch the batch it reads lines into
   */
  public LineParser(String timestampField, EventBatch batch) {
    this.timestampField = timestampField.getBytes(StandardCharsets.UTF_8);
    this.batch = batch;
  }

  /** Thrown (without a stack) where the general reader must take over. */
  private static final class GiveUp extends Exception {
    static final GiveUp INSTANCE = new GiveUp();

    private GiveUp() {
      super(null, null, false, false);
    }
  }

  /**
   * Reads the line that starts at {@code from} into the batch as one event, or leaves the batch as
   * it was.
   *
   * @param bytes holds the line
   * @param from where it starts
   * @param limit where the bytes at hand end
   * @param last whether the line may end at {@code limit} without a newline (the end of the body)
   * @return where the line ends (its newline, or {@code limit}); -1 when it was not read, for the
   *     caller to find its end and read it the general way (or, when it goes on past {@code limit},
   *     to read it once it has all of it)
   */
  public int parse(byte[] bytes, int from, int limit, boolean last) {
    int lineEnd = parseOpen(bytes, from, limit, last);
    if (lineEnd >= 0) {
      batch.endEvent();
    }
    return lineEnd;
  }

  /**
   * {@link #parse}, except that an event read is left open in the batch, for the caller to add
   * fields to and then end ({@link EventBatch#endEvent()}) or abandon.
   *
   * @param bytes holds the line
   * @param from where it starts
   * @param limit where the bytes at hand end
   * @param last whether the line may end at {@code limit} without a newline
   * @return where the line ends, or -1 when it was not read (the batch as it was, no event open)
   */
  public int parseOpen(byte[] bytes, int from, int limit, boolean last) {
    this.line = bytes;
    this.pos = from;
    this.end = limit;
    this.timestampSeen = false;
    this.key = -1;
    this.predicting = true;
    if (++generation == 0) {
      Arrays.fill(seenGeneration, 0);
      generation = 1;
    }
    batch.startEvent();
    try {
      skipSpace();
      expect('{');
      object(0, 1);
      skipSpace();
      int lineEnd;
      if (pos < end && line[pos] == '\n') {
        lineEnd = pos;
      } else if (pos == end && last) {
        lineEnd = end;
      } else {
        throw GiveUp.INSTANCE;
      }
      if (!timestampSeen) {
        throw GiveUp.INSTANCE;
      }
      if (!predicting || key + 1 != names.count) {
        if (predicting) {
          next.copy(names, key + 1); // the line named fewer than the one before
        }
        LineNames swap = names;
        names = next;
        next = swap;
      }
      return lineEnd;
    } catch (GiveUp e) {
      batch.abandonEvent();
      return -1;
    } finally {
      this.line = null;
    }
  }

  /** The members of an object whose '{' was read; {@code prefix} bytes of the name are set. */
  private void object(int prefix, int depth) throws GiveUp {
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
      int nameEnd = key(prefix, depth);
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
   * A member's name (plain printable ASCII, no escapes): compared, as it is scanned, with the name
   * at its place in the line before. Returns where its flattened form ends in {@link #name} (which
   * holds it only once {@link #flatten} is called). The name must not have been named before in the
   * line.
   */
  private int key(int prefix, int depth) throws GiveUp {
    int start = pos;
    int k = key + 1;
    if (predicting && k < names.count && names.depths[k] == depth) {
      int known = names.start(k);
      int length = names.ends[k] - known;
      if (start + length < end
          && line[start + length] == '"'
          && LineNames.same(line, start, names.text, known, length)) {
        pos = start + length + 1;
        keyStart = start;
        keyLength = length;
        key = k;
        keys = names;
        return prefix + length;
      }
    }
    boolean same = false;
    int known = 0;
    int knownLength = 0;
    byte[] text = names.text;
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
      if (same) {
        int i = pos - start;
        same = i < knownLength && text[known + i] == b;
      }
      pos++;
    }
    int length = pos - start;
    pos++; // the closing quote
    keyStart = start;
    keyLength = length;
    key = k;
    int nameEnd = prefix + length;
    if (same && length == knownLength) {
      keys = names;
      return nameEnd;
    }
    if (predicting) {
      predicting = false; // from here on every name is checked against those before it
      next.copy(names, k);
      for (int j = 0; j < k; j++) {
        seen(next.hashes[j]);
      }
    }
    flatten(prefix);
    int h = 1;
    for (int i = 0; i < nameEnd; i++) {
      h = 31 * h + name[i];
    }
    seen(h);
    next.add(line, start, length, depth, h, UNKNOWN);
    keys = next;
    return nameEnd;
  }

  /** Puts the name read last after the prefix in {@link #name}; returns where it ends. */
  private int flatten(int prefix) {
    int nameEnd = prefix + keyLength;
    if (nameEnd + 1 > name.length) {
      name = Arrays.copyOf(name, Math.max(2 * name.length, nameEnd + 1));
    }
    System.arraycopy(line, keyStart, name, prefix, keyLength);
    return nameEnd;
  }

  /** Notes a flattened name's hash; gives up when the line named it (or one like it) before. */
  private void seen(int h) throws GiveUp {
    int mask = SEEN_SLOTS - 1;
    int probes = 0;
    for (int slot = (h ^ (h >>> 16)) & mask; ; slot = (slot + 1) & mask) {
      if (seenGeneration[slot] != generation) {
        seenGeneration[slot] = generation;
        seenHash[slot] = h;
        return;
      }
      if (seenHash[slot] == h || ++probes > SEEN_SLOTS / 2) {
        throw GiveUp.INSTANCE; // a repeated name, or a line of many names
      }
    }
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
        flatten(nameEnd - keyLength);
        name[nameEnd] = '.';
        object(nameEnd + 1, depth + 1);
      }
      case 't' -> {
        literal("true");
        putBoolean(nameEnd, true);
      }
      case 'f' -> {
        literal("false");
        putBoolean(nameEnd, false);
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

  /** A string value whose opening quote was read. */
  private void string(int nameEnd) throws GiveUp {
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

  /**
   * A number, by JSON's grammar: an integer that fits a long, or a finite double. A decimal whose
   * digits make an integer below 2^53 and whose power of ten is at most 22 either way is one
   * correctly rounded multiplication or division of two exact doubles (Clinger's fast path); one of
   * up to 19 digits otherwise is converted by {@link DecimalDoubles}, unless it declines; any other
   * goes through Jackson's double parser.
   */
  private void number(int nameEnd) throws GiveUp {
    int start = pos;
    boolean negative = line[pos] == '-';
    if (negative) {
      pos++;
    }
    if (pos >= end) {
      throw GiveUp.INSTANCE;
    }
    long mantissa = 0;
    int significant = 0; // digits in the mantissa, from the first non-zero one
    int scale = 0; // the mantissa's power of ten
    boolean dropped = false; // digits past the 19th, not in the mantissa
    if (line[pos] == '0') {
      pos++;
    } else if (line[pos] >= '1' && line[pos] <= '9') {
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        int d = line[pos++] - '0';
        if (significant < 19) {
          mantissa = mantissa * 10 + d;
          significant++;
        } else {
          scale++;
          significant++;
          dropped = true;
        }
      }
    } else {
      throw GiveUp.INSTANCE;
    }
    boolean whole = true;
    if (pos < end && line[pos] == '.') {
      whole = false;
      pos++;
      int digitsFrom = pos;
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        int d = line[pos++] - '0';
        if (significant < 19) {
          if (significant > 0 || d != 0) {
            significant++;
          }
          mantissa = mantissa * 10 + d;
          scale--;
        } else {
          dropped = true;
        }
      }
      if (pos == digitsFrom) {
        throw GiveUp.INSTANCE;
      }
    }
    long exp = 0;
    if (pos < end && (line[pos] == 'e' || line[pos] == 'E')) {
      whole = false;
      pos++;
      boolean negativeExp = false;
      if (pos < end && (line[pos] == '+' || line[pos] == '-')) {
        negativeExp = line[pos] == '-';
        pos++;
      }
      int digitsFrom = pos;
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        if (exp < 100_000) {
          exp = exp * 10 + (line[pos] - '0');
        }
        pos++;
      }
      if (pos == digitsFrom) {
        throw GiveUp.INSTANCE;
      }
      exp = negativeExp ? -exp : exp;
    }
    if (pos < end && line[pos] >= '0' && line[pos] <= '9') {
      throw GiveUp.INSTANCE; // a leading zero followed by digits
    }
    if (whole) {
      if (significant > 19 || (significant == 19 && !fitsLong(start + (negative ? 1 : 0)))) {
        throw GiveUp.INSTANCE; // past a long (or Long.MIN_VALUE): left to the general reader
      }
      putLong(nameEnd, negative ? -mantissa : mantissa);
      return;
    }
    long power = scale + exp;
    double d;
    long bits;
    if (!dropped && mantissa >= 0 && mantissa < (1L << 53) && Math.abs(power) <= 22) {
      d = power >= 0 ? mantissa * POWERS[(int) power] : mantissa / POWERS[(int) -power];
    } else if (mantissa == 0) {
      d = 0; // the digits were zeros (a dropped digit is not: it follows 19 significant ones)
    } else if (!dropped
        && (bits = DecimalDoubles.toDouble(mantissa, power)) != DecimalDoubles.UNDECIDED) {
      d = Double.longBitsToDouble(bits);
    } else {
      d = slowDouble(start);
    }
    if (negative) {
      d = -d;
    }
    if (!Double.isFinite(d)) {
      throw GiveUp.INSTANCE;
    }
    putDouble(nameEnd, d == 0 ? 0.0 : d); // JSON numbers read as decimals have no -0.0
  }

  /** Whether the 19 digits from {@code from} are at most Long.MAX_VALUE. */
  private boolean fitsLong(int from) {
    byte[] max = {
      '9', '2', '2', '3', '3', '7', '2', '0', '3', '6', '8', '5', '4', '7', '7', '5', '8', '0', '7'
    };
    for (int i = 0; i < 19; i++) {
      if (line[from + i] != max[i]) {
        return line[from + i] < max[i];
      }
    }
    return true;
  }

  /** The number from {@code start} to {@code pos} (without its sign) by Jackson's parser. */
  private double slowDouble(int start) throws GiveUp {
    int from = line[start] == '-' ? start + 1 : start;
    int length = pos - from;
    if (length > digits.length) {
      digits = new char[Math.max(length, 2 * digits.length)];
    }
    for (int i = 0; i < length; i++) {
      digits[i] = (char) line[from + i];
    }
    try {
      return NumberInput.parseDouble(digits, 0, length, true);
    } catch (NumberFormatException e) {
      throw GiveUp.INSTANCE;
    }
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
    int field = field(nameEnd);
    if (field == TIMESTAMP) {
      if (timestampSeen) {
        throw GiveUp.INSTANCE;
      }
      long millis = IsoTimes.millis(bytes, from, to);
      if (millis == IsoTimes.OTHER) {
        throw GiveUp.INSTANCE; // another form: the general reader parses it
      }
      batch.timestamp(millis);
      timestampSeen = true;
      return;
    }
    batch.putString(field, bytes, from, to);
  }

  private void putLong(int nameEnd, long value) throws GiveUp {
    int field = field(nameEnd);
    if (field == TIMESTAMP) {
      if (value <= 0 || timestampSeen) {
        throw GiveUp.INSTANCE;
      }
      batch.timestamp(value >= NANOS_FROM ? value / 1_000_000 : value);
      timestampSeen = true;
      return;
    }
    batch.putLong(field, value);
  }

  private void putDouble(int nameEnd, double value) throws GiveUp {
    int field = field(nameEnd);
    if (field == TIMESTAMP) {
      throw GiveUp.INSTANCE;
    }
    batch.putDouble(field, value);
  }

  private void putBoolean(int nameEnd, boolean value) throws GiveUp {
    int field = field(nameEnd);
    if (field == TIMESTAMP) {
      throw GiveUp.INSTANCE;
    }
    batch.putBoolean(field, value);
  }

  /** The batch field (or {@link #TIMESTAMP}) of the name read last, looked up once per place. */
  private int field(int nameEnd) {
    int field = keys.fields[key];
    if (field == UNKNOWN) {
      flatten(nameEnd - keyLength);
      field =
          Arrays.equals(name, 0, nameEnd, timestampField, 0, timestampField.length)
              ? TIMESTAMP
              : batch.field(name, 0, nameEnd);
      keys.fields[key] = field;
    }
    return field;
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
