package dev.chartwell.server.shippers;

import com.google.protobuf.UnsafeByteOperations;
import dev.chartwell.server.charts.GiveUp;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Reads an uncompressed Loki {@code PushRequest} straight from its protobuf bytes onto a {@link
 * LokiTape}: lines and metadata values stay where they lie in the request, so no string or message
 * object is made per entry. It reads the fields of {@code push.proto} in any order and skips
 * unknown ones as the generated parser does, and gives up ({@link GiveUp}) on anything the
 * generated parser would refuse or read differently, and on what a push must not hold: a field
 * given twice, a time before 1970 or missing, invalid UTF-8, a stream's labels that are not a
 * selector, an empty or repeated metadata name, groups, a length past its message. {@link
 * LokiPush#protobuf} then reads the push and says what is wrong, so this class never decides that a
 * push is bad.
 */
final class LokiProtobufTape {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  // tags: field number << 3 | wire type (0 varint, 2 length-delimited)
  private static final int STREAMS = 1 << 3 | 2;
  private static final int LABELS = 1 << 3 | 2;
  private static final int ENTRIES = 2 << 3 | 2;
  private static final int TIMESTAMP = 1 << 3 | 2;
  private static final int LINE = 2 << 3 | 2;
  private static final int METADATA = 3 << 3 | 2;
  private static final int SECONDS = 1 << 3;
  private static final int NANOS = 2 << 3;
  private static final int NAME = 1 << 3 | 2;
  private static final int VALUE = 2 << 3 | 2;

  private final byte[] body;
  private final LokiTape tape;
  private int pos;

  private LokiProtobufTape(byte[] body) {
    this.body = body;
    this.tape = new LokiTape(body);
  }

  /**
   * @param raw an uncompressed {@code PushRequest}
   * @return its tape
   * @throws GiveUp when the general reader must read it
   */
  static LokiTape read(byte[] raw) throws GiveUp {
    LokiProtobufTape reader = new LokiProtobufTape(raw);
    while (reader.pos < raw.length) {
      int tag = reader.tag(raw.length);
      if (tag == STREAMS) {
        reader.stream(reader.end(raw.length));
      } else {
        reader.skip(tag, raw.length);
      }
    }
    return reader.tape;
  }

  /**
   * @param raw an uncompressed {@code PushRequest}
   * @return its tape, or {@code null} when the general reader must read it
   */
  static LokiTape readOrNull(byte[] raw) {
    try {
      return read(raw);
    } catch (GiveUp e) {
      return null;
    }
  }

  private void stream(int end) throws GiveUp {
    String labels = null;
    while (pos < end) {
      int tag = tag(end);
      if (tag == LABELS && labels == null) {
        int to = end(end);
        utf8(pos, to);
        labels = new String(body, pos, to - pos, StandardCharsets.UTF_8);
        pos = to;
      } else if (tag == ENTRIES) {
        entry(end(end));
      } else if (tag == LABELS) {
        throw GiveUp.INSTANCE; // given twice
      } else {
        skip(tag, end);
      }
    }
    if (labels == null) {
      throw GiveUp.INSTANCE;
    }
    Map<String, String> parsed;
    try {
      parsed = LokiLabels.parse(labels);
    } catch (LokiLabels.Invalid e) {
      throw GiveUp.INSTANCE;
    }
    tape.endStream(parsed);
  }

  private void entry(int end) throws GiveUp {
    tape.beginEntry();
    long time = 0;
    boolean line = false;
    while (pos < end) {
      int tag = tag(end);
      if (tag == TIMESTAMP && time == 0) {
        time = timestamp(end(end));
      } else if (tag == LINE && !line) {
        int to = end(end);
        utf8(pos, to);
        tape.line(body, pos, to);
        pos = to;
        line = true;
      } else if (tag == METADATA) {
        pair(end(end));
      } else if (tag == TIMESTAMP || tag == LINE) {
        throw GiveUp.INSTANCE; // given twice
      } else {
        skip(tag, end);
      }
    }
    if (time == 0) {
      throw GiveUp.INSTANCE; // no time: before 1970, as the general reader says
    }
    tape.endEntry(time);
  }

  /** A {@code Timestamp} as epoch nanoseconds, after 1970 and before 2262. */
  private long timestamp(int end) throws GiveUp {
    long seconds = 0;
    long nanos = 0;
    boolean secondsSeen = false;
    boolean nanosSeen = false;
    while (pos < end) {
      int tag = tag(end);
      if (tag == SECONDS && !secondsSeen) {
        seconds = varint(end);
        secondsSeen = true;
      } else if (tag == NANOS && !nanosSeen) {
        nanos = (int) varint(end); // an int32
        nanosSeen = true;
      } else if (tag == SECONDS || tag == NANOS) {
        throw GiveUp.INSTANCE;
      } else {
        skip(tag, end);
      }
    }
    if (seconds < 0
        || seconds > Long.MAX_VALUE / 1_000_000_000L - 1
        || nanos < 0
        || nanos > 999_999_999
        || (seconds == 0 && nanos == 0)) {
      throw GiveUp.INSTANCE;
    }
    return seconds * 1_000_000_000L + nanos;
  }

  private void pair(int end) throws GiveUp {
    int nameFrom = -1;
    int nameTo = -1;
    int valueFrom = 0;
    int valueTo = 0;
    boolean valueSeen = false;
    while (pos < end) {
      int tag = tag(end);
      if (tag == NAME && nameFrom < 0) {
        nameTo = end(end);
        nameFrom = pos;
        pos = nameTo;
      } else if (tag == VALUE && !valueSeen) {
        valueTo = end(end);
        valueFrom = pos;
        pos = valueTo;
        valueSeen = true;
      } else if (tag == NAME || tag == VALUE) {
        throw GiveUp.INSTANCE;
      } else {
        skip(tag, end);
      }
    }
    if (nameFrom < 0) {
      throw GiveUp.INSTANCE; // no name: an empty one
    }
    utf8(nameFrom, nameTo);
    utf8(valueFrom, valueTo);
    tape.pair(tape.nameNumber(body, nameFrom, nameTo), body, valueFrom, valueTo);
  }

  /** Fails unless {@code body[from, to)} is valid UTF-8, as a proto3 string must be. */
  private void utf8(int from, int to) throws GiveUp {
    int i = from;
    while (i + 8 <= to && ((long) LONG.get(body, i) & 0x8080808080808080L) == 0) {
      i += 8;
    }
    while (i < to && body[i] >= 0) {
      i++;
    }
    if (i < to && !UnsafeByteOperations.unsafeWrap(body, i, to - i).isValidUtf8()) {
      throw GiveUp.INSTANCE;
    }
  }

  /** A field's tag: a field number from 1 and a wire type. */
  private int tag(int end) throws GiveUp {
    long tag = varint(end);
    if (tag >>> 3 == 0 || tag > Integer.MAX_VALUE) {
      throw GiveUp.INSTANCE;
    }
    return (int) tag;
  }

  /** A length-delimited field's end, its length read. */
  private int end(int limit) throws GiveUp {
    long length = varint(limit);
    if (length < 0 || length > limit - pos) {
      throw GiveUp.INSTANCE;
    }
    return pos + (int) length;
  }

  /** Steps over an unknown field: groups and unknown wire types are the general reader's. */
  private void skip(int tag, int end) throws GiveUp {
    switch (tag & 7) {
      case 0 -> varint(end);
      case 1 -> advance(8, end);
      case 2 -> pos = end(end);
      case 5 -> advance(4, end);
      default -> throw GiveUp.INSTANCE;
    }
  }

  private void advance(int n, int end) throws GiveUp {
    if (end - pos < n) {
      throw GiveUp.INSTANCE;
    }
    pos += n;
  }

  private long varint(int end) throws GiveUp {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) {
        throw GiveUp.INSTANCE;
      }
      byte b = body[pos++];
      value |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw GiveUp.INSTANCE; // more than ten bytes
  }
}
