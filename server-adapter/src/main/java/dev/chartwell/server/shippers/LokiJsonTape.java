package dev.chartwell.server.shippers;

import dev.chartwell.server.charts.GiveUp;
import dev.chartwell.server.charts.JsonStringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Loki push in JSON read straight from its bytes, the common shape only: {@code
 * {"streams":[{"stream":{labels},"values":[["<ns>","<line>"(,{metadata})?],...]},...]}} with {@code
 * "stream"} before {@code "values"}, times as strings of digits, no name given twice. What it reads
 * it keeps as a tape: each entry's time, and where its line and metadata values lie in the body
 * (or, for a string with escapes, in a buffer of unescaped bytes), so that the entries are written
 * to the table from the body's bytes with no string, map or entry object made per entry, and only
 * once the whole push was read.
 *
 * <p>It takes only what {@link LokiPush#json} takes the same way and gives up ({@link GiveUp}) on
 * anything else: other members, other orders, numbers as times, a name given twice, escapes in the
 * member names, invalid UTF-8, syntax errors. The general reader then reads the push and gives the
 * same rows or says what is wrong, so this class never decides that a push is bad; it only makes
 * good ones cheap.
 */
final class LokiJsonTape {
  /**
   * Distinct structured metadata names a tape keeps: a push naming more is read the general way.
   */
  static final int MAX_NAMES = 64;

  private static final byte[] STREAMS = bytes("streams");
  private static final byte[] STREAM = bytes("stream");
  private static final byte[] VALUES = bytes("values");

  /** What a tape is written to: its streams in order, each followed by its entries. */
  interface Sink {
    /**
     * A stream begins.
     *
     * @param labels its labels, in their order
     */
    void stream(Map<String, String> labels);

    /**
     * An entry begins.
     *
     * @param nanos its time in epoch nanoseconds
     * @param utf8 holds its line
     * @param from where the line starts
     * @param to where it ends
     */
    void entry(long nanos, byte[] utf8, int from, int to);

    /**
     * A structured metadata value of the entry begun last.
     *
     * @param name the name's number ({@link LokiJsonTape#name(int)})
     * @param utf8 holds the value
     * @param from where it starts
     * @param to where it ends
     */
    void metadata(int name, byte[] utf8, int from, int to);

    /** The entry begun last ends. */
    void endEntry();
  }

  private final byte[] body;
  private final JsonStringReader strings = new JsonStringReader();
  private int pos;

  private final List<Map<String, String>> labels = new ArrayList<>();
  private int[] streamEntries = new int[8];

  private long[] nanos = new long[64];
  private int entries;

  /**
   * Per entry: its line's two ends, its number of metadata values, and for each the name's number
   * and the value's two ends. An end at or past zero is in the body; {@code -1 - at} is at {@code
   * at} in {@link #unescaped}.
   */
  private int[] refs = new int[256];

  private int refCount;
  private byte[] unescaped = new byte[0];
  private int unescapedUsed;
  private long lineBytes;

  private final List<byte[]> names = new ArrayList<>();
  private final List<String> nameStrings = new ArrayList<>();

  private LokiJsonTape(byte[] body) {
    this.body = body;
  }

  /**
   * @param body a push in JSON
   * @return its tape
   * @throws GiveUp when the general reader must read it
   */
  static LokiJsonTape read(byte[] body) throws GiveUp {
    LokiJsonTape t = new LokiJsonTape(body);
    t.push();
    return t;
  }

  /**
   * @param body a push in JSON
   * @return its tape, or {@code null} when the general reader must read it
   */
  static LokiJsonTape readOrNull(byte[] body) {
    try {
      return read(body);
    } catch (GiveUp e) {
      return null;
    }
  }

  /**
   * @return the number of entries
   */
  int entries() {
    return entries;
  }

  /**
   * @return the characters the push's rows would hold as {@link LokiRoutes} counts them, or more:
   *     lines are counted in bytes, never fewer than their characters
   */
  long expanded() {
    long expanded = lineBytes;
    for (int s = 0; s < labels.size(); s++) {
      expanded += LokiRoutes.labelChars(labels.get(s)) * streamEntries[s];
    }
    return expanded;
  }

  /**
   * @param number a metadata name's number
   * @return the name
   */
  String name(int number) {
    return nameStrings.get(number);
  }

  /**
   * Writes the push to a sink.
   *
   * @param sink takes the streams and entries in order
   */
  void replay(Sink sink) {
    int e = 0;
    int r = 0;
    for (int s = 0; s < labels.size(); s++) {
      sink.stream(labels.get(s));
      for (int end = e + streamEntries[s]; e < end; e++) {
        int from = refs[r++];
        int to = refs[r++];
        if (from >= 0) {
          sink.entry(nanos[e], body, from, to);
        } else {
          sink.entry(nanos[e], unescaped, -1 - from, -1 - to);
        }
        for (int pairs = refs[r++]; pairs > 0; pairs--) {
          int name = refs[r++];
          from = refs[r++];
          to = refs[r++];
          if (from >= 0) {
            sink.metadata(name, body, from, to);
          } else {
            sink.metadata(name, unescaped, -1 - from, -1 - to);
          }
        }
        sink.endEntry();
      }
    }
  }

  private void push() throws GiveUp {
    space();
    expect('{');
    space();
    member(STREAMS);
    expect('[');
    space();
    if (!close(']')) {
      do {
        space();
        stream();
        space();
      } while (!endOf(']'));
    }
    space();
    expect('}');
    space();
    if (pos != body.length) {
      throw GiveUp.INSTANCE;
    }
  }

  /** A stream object: {@code "stream"} first, then {@code "values"}. */
  private void stream() throws GiveUp {
    expect('{');
    space();
    member(STREAM);
    Map<String, String> streamLabels = labels();
    space();
    expect(',');
    space();
    member(VALUES);
    int before = entries;
    values();
    space();
    expect('}');
    if (labels.size() == streamEntries.length) {
      streamEntries = Arrays.copyOf(streamEntries, 2 * streamEntries.length);
    }
    streamEntries[labels.size()] = entries - before;
    labels.add(streamLabels);
  }

  private Map<String, String> labels() throws GiveUp {
    expect('{');
    space();
    Map<String, String> out = new LinkedHashMap<>();
    if (close('}')) {
      return out;
    }
    do {
      space();
      String name = text();
      if (!LokiLabels.validName(name)) {
        throw GiveUp.INSTANCE;
      }
      space();
      expect(':');
      space();
      if (out.put(name, text()) != null) {
        throw GiveUp.INSTANCE; // a label given twice
      }
      space();
    } while (!endOf('}'));
    return out;
  }

  private void values() throws GiveUp {
    expect('[');
    space();
    if (close(']')) {
      return;
    }
    do {
      space();
      entry();
      space();
    } while (!endOf(']'));
  }

  /** {@code ["<ns>","<line>"]} or {@code ["<ns>","<line>",{metadata}]}. */
  private void entry() throws GiveUp {
    expect('[');
    space();
    expect('"');
    long time = digits();
    space();
    expect(',');
    space();
    expect('"');
    int lineAt = refCount;
    string();
    lineBytes += length(lineAt);
    space();
    int pairsAt = refCount;
    ref(0);
    if (!close(']')) {
      expect(',');
      space();
      metadata(pairsAt);
      space();
      expect(']');
    }
    if (entries == nanos.length) {
      nanos = Arrays.copyOf(nanos, 2 * entries);
    }
    nanos[entries++] = time;
  }

  /** An entry's metadata object; its number of values is written at {@code pairsAt}. */
  private void metadata(int pairsAt) throws GiveUp {
    expect('{');
    space();
    if (close('}')) {
      return;
    }
    int pairs = 0;
    do {
      space();
      expect('"');
      strings.read(body, pos, body.length);
      pos = strings.end();
      int name = nameNumber(strings.bytes(), strings.from(), strings.to());
      for (int p = 0; p < pairs; p++) {
        if (refs[pairsAt + 1 + 3 * p] == name) {
          throw GiveUp.INSTANCE; // a name given twice
        }
      }
      ref(name);
      space();
      expect(':');
      space();
      expect('"');
      string();
      pairs++;
      space();
    } while (!endOf('}'));
    refs[pairsAt] = pairs;
  }

  /** The time: a string of 1 to 19 digits, after 1970 and within a long; its quote read. */
  private long digits() throws GiveUp {
    int start = pos;
    long v = 0;
    while (pos < body.length && body[pos] >= '0' && body[pos] <= '9') {
      int d = body[pos++] - '0';
      if (v > (Long.MAX_VALUE - d) / 10) {
        throw GiveUp.INSTANCE;
      }
      v = 10 * v + d;
    }
    if (pos - start > 19 || v <= 0) {
      throw GiveUp.INSTANCE;
    }
    expect('"');
    return v;
  }

  /** A metadata name's number, the name kept the first time it is seen. */
  private int nameNumber(byte[] utf8, int from, int to) throws GiveUp {
    if (from == to) {
      throw GiveUp.INSTANCE; // an empty name: the general reader says so
    }
    for (int n = 0; n < names.size(); n++) {
      byte[] known = names.get(n);
      if (Arrays.equals(known, 0, known.length, utf8, from, to)) {
        return n;
      }
    }
    if (names.size() == MAX_NAMES) {
      throw GiveUp.INSTANCE;
    }
    names.add(Arrays.copyOfRange(utf8, from, to));
    nameStrings.add(new String(utf8, from, to - from, StandardCharsets.UTF_8));
    return names.size() - 1;
  }

  /** A string whose opening quote was read, kept on the tape as its two ends. */
  private void string() throws GiveUp {
    strings.read(body, pos, body.length);
    pos = strings.end();
    if (strings.bytes() == body) {
      ref(strings.from());
      ref(strings.to());
      return;
    }
    int n = strings.to() - strings.from();
    if (unescapedUsed + n > unescaped.length) {
      unescaped = Arrays.copyOf(unescaped, Math.max(unescapedUsed + n, 2 * unescaped.length));
    }
    System.arraycopy(strings.bytes(), strings.from(), unescaped, unescapedUsed, n);
    ref(-1 - unescapedUsed);
    unescapedUsed += n;
    ref(-1 - unescapedUsed);
  }

  /** The length of the string whose ends are on the tape at {@code at}. */
  private int length(int at) {
    int from = refs[at];
    int to = refs[at + 1];
    return from >= 0 ? to - from : from - to;
  }

  /** A string (a label's name or value) as text. */
  private String text() throws GiveUp {
    expect('"');
    strings.read(body, pos, body.length);
    pos = strings.end();
    return new String(
        strings.bytes(), strings.from(), strings.to() - strings.from(), StandardCharsets.UTF_8);
  }

  /** The member name given, written without escapes, and its colon. */
  private void member(byte[] name) throws GiveUp {
    expect('"');
    int end = pos + name.length;
    if (end >= body.length
        || !Arrays.equals(body, pos, end, name, 0, name.length)
        || body[end] != '"') {
      throw GiveUp.INSTANCE;
    }
    pos = end + 1;
    space();
    expect(':');
    space();
  }

  private void ref(int value) {
    if (refCount == refs.length) {
      refs = Arrays.copyOf(refs, 2 * refs.length);
    }
    refs[refCount++] = value;
  }

  /** Reads {@code c} when it comes next. */
  private boolean close(char c) {
    if (pos < body.length && body[pos] == c) {
      pos++;
      return true;
    }
    return false;
  }

  /** After a member or element: {@code true} at the closing {@code c}, {@code false} at a comma. */
  private boolean endOf(char c) throws GiveUp {
    if (close(c)) {
      return true;
    }
    expect(',');
    return false;
  }

  private void expect(char c) throws GiveUp {
    if (pos >= body.length || body[pos] != c) {
      throw GiveUp.INSTANCE;
    }
    pos++;
  }

  private void space() {
    while (pos < body.length) {
      byte b = body[pos];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return;
      }
      pos++;
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
