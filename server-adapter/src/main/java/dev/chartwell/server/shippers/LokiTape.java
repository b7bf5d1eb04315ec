package dev.chartwell.server.shippers;

import dev.chartwell.server.charts.GiveUp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A Loki push read straight from its bytes, kept as a tape: each stream's labels, and each entry's
 * time and where its line and metadata values lie in the body (or, for a JSON string with escapes,
 * in a buffer of unescaped bytes). The entries are then written to the table from the body's bytes
 * ({@link #replay}), with no string, map or entry object made per entry, and only once the whole
 * push was read and found good. {@link LokiJsonTape} and {@link LokiProtobufTape} fill it from the
 * two encodings, each taking only the common shape and giving up ({@link GiveUp}) on anything else,
 * which the general readers of {@link LokiPush} then decide.
 */
final class LokiTape {
  /**
   * Distinct structured metadata names a tape keeps: a push naming more is read the general way.
   */
  static final int MAX_NAMES = 64;

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
     * @param name the name's number ({@link LokiTape#name(int)})
     * @param utf8 holds the value
     * @param from where it starts
     * @param to where it ends
     */
    void metadata(int name, byte[] utf8, int from, int to);

    /** The entry begun last ends. */
    void endEntry();
  }

  private final byte[] body;

  private final List<Map<String, String>> labels = new ArrayList<>();
  private int[] streamEntries = new int[8];
  private int streamStart; // the first entry of the stream being read

  private long[] nanos = new long[64];
  private int entries;

  /**
   * Per entry: its line's two ends, its number of metadata values, and for each the name's number
   * and the value's two ends. An end at or past zero is in the body; {@code -1 - at} is at {@code
   * at} in {@link #unescaped}.
   */
  private int[] refs = new int[256];

  private int refCount;
  private int entryAt; // where the entry being read starts in refs
  private byte[] unescaped = new byte[0];
  private int unescapedUsed;
  private long lineBytes;

  private final List<byte[]> names = new ArrayList<>();
  private final List<String> nameStrings = new ArrayList<>();

  /**
   * @param body the bytes the strings are read from
   */
  LokiTape(byte[] body) {
    this.body = body;
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

  /**
   * The stream whose entries were read since the last one ends.
   *
   * @param streamLabels its labels
   */
  void endStream(Map<String, String> streamLabels) {
    if (labels.size() == streamEntries.length) {
      streamEntries = Arrays.copyOf(streamEntries, 2 * streamEntries.length);
    }
    streamEntries[labels.size()] = entries - streamStart;
    labels.add(streamLabels);
    streamStart = entries;
  }

  /** An entry begins: an empty line and no metadata until they are read. */
  void beginEntry() {
    entryAt = refCount;
    ref(0);
    ref(0);
    ref(0);
  }

  /**
   * The line of the entry being read.
   *
   * @param utf8 holds it: the body, or a buffer whose bytes are copied
   * @param from where it starts
   * @param to where it ends
   */
  void line(byte[] utf8, int from, int to) {
    int at = refCount;
    string(utf8, from, to);
    refs[entryAt] = refs[at];
    refs[entryAt + 1] = refs[at + 1];
    refCount = at;
    lineBytes += to - from;
  }

  /**
   * A structured metadata value of the entry being read.
   *
   * @param name the name's number ({@link #nameNumber})
   * @param utf8 holds the value: the body, or a buffer whose bytes are copied
   * @param from where it starts
   * @param to where it ends
   * @throws GiveUp when the entry named it already
   */
  void pair(int name, byte[] utf8, int from, int to) throws GiveUp {
    int pairs = refs[entryAt + 2];
    for (int p = 0; p < pairs; p++) {
      if (refs[entryAt + 3 + 3 * p] == name) {
        throw GiveUp.INSTANCE; // a name given twice
      }
    }
    ref(name);
    string(utf8, from, to);
    refs[entryAt + 2] = pairs + 1;
  }

  /**
   * The entry being read ends.
   *
   * @param time its time in epoch nanoseconds
   */
  void endEntry(long time) {
    if (entries == nanos.length) {
      nanos = Arrays.copyOf(nanos, 2 * entries);
    }
    nanos[entries++] = time;
  }

  /**
   * A metadata name's number, the name kept the first time it is seen.
   *
   * @param utf8 holds the name
   * @param from where it starts
   * @param to where it ends
   * @return its number
   * @throws GiveUp for an empty name, or past {@link #MAX_NAMES} names
   */
  int nameNumber(byte[] utf8, int from, int to) throws GiveUp {
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

  /** A string's two ends, its bytes copied first unless they are the body's. */
  private void string(byte[] utf8, int from, int to) {
    if (utf8 == body) {
      ref(from);
      ref(to);
      return;
    }
    int n = to - from;
    if (unescapedUsed + n > unescaped.length) {
      unescaped = Arrays.copyOf(unescaped, Math.max(unescapedUsed + n, 2 * unescaped.length));
    }
    System.arraycopy(utf8, from, unescaped, unescapedUsed, n);
    ref(-1 - unescapedUsed);
    unescapedUsed += n;
    ref(-1 - unescapedUsed);
  }

  private void ref(int value) {
    if (refCount == refs.length) {
      refs = Arrays.copyOf(refs, 2 * refs.length);
    }
    refs[refCount++] = value;
  }
}
