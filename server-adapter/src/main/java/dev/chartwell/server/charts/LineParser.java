package dev.chartwell.server.charts;

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
 * words. So this class never decides that a line is bad; it only makes good lines cheap. It reads
 * the line's structure and names; the values' bytes are read by a {@link JsonStringReader} and a
 * {@link JsonNumberReader}, under the same rule.
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

  private final byte[] timestampField;
  private final EventBatch batch;
  private byte[] line;
  private int pos;
  private int end;
  private boolean timestampSeen;

  /** The flattened name being read: the names of the enclosing objects, each followed by a dot. */
  private byte[] name = new byte[256];

  /** Reads the numbers. */
  private final JsonNumberReader numbers = new JsonNumberReader();

  /** Reads the strings. */
  private final JsonStringReader strings = new JsonStringReader();

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

  /** A string value whose opening quote was read, by the {@link JsonStringReader}. */
  private void string(int nameEnd) throws GiveUp {
    strings.read(line, pos, end);
    pos = strings.end();
    putString(nameEnd, strings.bytes(), strings.from(), strings.to());
  }

  /** A number, by the {@link JsonNumberReader}. */
  private void number(int nameEnd) throws GiveUp {
    numbers.read(line, pos, end);
    pos = numbers.end();
    if (numbers.isLong()) {
      putLong(nameEnd, numbers.longValue());
    } else {
      putDouble(nameEnd, numbers.doubleValue());
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
