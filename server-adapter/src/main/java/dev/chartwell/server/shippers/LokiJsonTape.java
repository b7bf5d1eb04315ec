package dev.chartwell.server.shippers;

import dev.chartwell.server.charts.GiveUp;
import dev.chartwell.server.charts.JsonStringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a Loki push in JSON straight from its bytes onto a {@link LokiTape}, the common shape only:
 * {@code {"streams":[{"stream":{labels},"values":[["<ns>","<line>"(,{metadata})?],...]},...]}} with
 * {@code "stream"} before {@code "values"}, times as strings of digits, no name given twice.
 *
 * <p>It takes only what {@link LokiPush#json} takes the same way and gives up ({@link GiveUp}) on
 * anything else: other members, other orders, numbers as times, a name given twice, escapes in the
 * member names, invalid UTF-8, syntax errors. The general reader then reads the push and gives the
 * same rows or says what is wrong, so this class never decides that a push is bad; it only makes
 * good ones cheap.
 */
final class LokiJsonTape {
  private static final byte[] STREAMS = bytes("streams");
  private static final byte[] STREAM = bytes("stream");
  private static final byte[] VALUES = bytes("values");

  private final byte[] body;
  private final LokiTape tape;
  private final JsonStringReader strings = new JsonStringReader();
  private int pos;

  private LokiJsonTape(byte[] body) {
    this.body = body;
    this.tape = new LokiTape(body);
  }

  /**
   * @param body a push in JSON
   * @return its tape
   * @throws GiveUp when the general reader must read it
   */
  static LokiTape read(byte[] body) throws GiveUp {
    LokiJsonTape reader = new LokiJsonTape(body);
    reader.push();
    return reader.tape;
  }

  /**
   * @param body a push in JSON
   * @return its tape, or {@code null} when the general reader must read it
   */
  static LokiTape readOrNull(byte[] body) {
    try {
      return read(body);
    } catch (GiveUp e) {
      return null;
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
    values();
    space();
    expect('}');
    tape.endStream(streamLabels);
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
    tape.beginEntry();
    string();
    tape.line(strings.bytes(), strings.from(), strings.to());
    space();
    if (!close(']')) {
      expect(',');
      space();
      metadata();
      space();
      expect(']');
    }
    tape.endEntry(time);
  }

  private void metadata() throws GiveUp {
    expect('{');
    space();
    if (close('}')) {
      return;
    }
    do {
      space();
      expect('"');
      string();
      int name = tape.nameNumber(strings.bytes(), strings.from(), strings.to());
      space();
      expect(':');
      space();
      expect('"');
      string();
      tape.pair(name, strings.bytes(), strings.from(), strings.to());
      space();
    } while (!endOf('}'));
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

  /** A string whose opening quote was read: its bytes are then the reader's. */
  private void string() throws GiveUp {
    strings.read(body, pos, body.length);
    pos = strings.end();
  }

  /** A string (a label's name or value) as text. */
  private String text() throws GiveUp {
    expect('"');
    string();
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
