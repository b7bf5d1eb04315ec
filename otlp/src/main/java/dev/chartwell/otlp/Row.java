package dev.chartwell.otlp;

import com.google.protobuf.ByteString;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.internal.source.Schema;
import io.opentelemetry.proto.common.v1.KeyValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of one row being built, with the checks every value passes: column names the engine
 * accepts, ids of the right length, times it can hold, finite numbers, and a bound on the text one
 * row carries ({@link Signal#MAX_ROW_CHARS}), so that no record can outgrow what the engine writes
 * at once. A failed check throws {@link Rejected} naming the column.
 */
final class Row {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final HashMap<String, Object> fields;
  private long chars;
  private String largest = "";
  private long largestChars;

  /** An empty row. */
  Row() {
    this.fields = new HashMap<>();
  }

  /** A row starting with the columns of another (its resource's and scope's). */
  Row(Row template) {
    this.fields = new HashMap<>(template.fields.size() * 2 + 16);
    this.fields.putAll(template.fields);
    this.chars = template.chars;
    this.largest = template.largest;
    this.largestChars = template.largestChars;
  }

  void text(String column, String value) {
    fields.put(column, value);
    chars += value.length();
    if (value.length() > largestChars) {
      largest = column;
      largestChars = value.length();
    }
  }

  void number(String column, long value) {
    fields.put(column, value);
  }

  void flag(String column, boolean value) {
    fields.put(column, value);
  }

  /** A double column: only finite values can be stored. */
  void real(String column, double value) {
    if (!Double.isFinite(value)) {
      throw new Rejected(column + ": " + value + " cannot be stored, only finite numbers");
    }
    fields.put(column, value);
  }

  /** Epoch or duration nanoseconds: an unsigned 64-bit value the engine keeps as a signed one. */
  void nanos(String column, long value) {
    fields.put(column, checkedNanos(column, value));
  }

  /** An unsigned 64-bit count in a long column. */
  void count(String column, long value) {
    if (value < 0) {
      throw new Rejected(
          column
              + ": "
              + Long.toUnsignedString(value)
              + " is larger than the largest count stored");
    }
    fields.put(column, value);
  }

  /** Each attribute as the text column {@code <map>.<key>}. */
  void attributes(String map, List<KeyValue> attributes) {
    for (KeyValue kv : attributes) {
      text(column(map, kv.getKey()), AnyValues.text(kv.getValue()));
    }
  }

  /**
   * @param table the table
   * @param millis the row's time in epoch milliseconds
   * @param record the record's number
   * @param sink where the row goes, once it is within the size bound
   */
  void emit(OtelTable table, long millis, long record, RowSink sink) {
    sink.row(table, new Event(millis, fields()), chars, record);
  }

  private Map<String, Object> fields() {
    if (chars > Signal.MAX_ROW_CHARS) {
      throw new Rejected(
          String.format(
              java.util.Locale.ROOT,
              "%s: the record holds %,d characters of text (%,d of them in this column), more"
                  + " than the %,d one record may hold",
              largest,
              chars,
              largestChars,
              Signal.MAX_ROW_CHARS));
    }
    return fields;
  }

  /**
   * @param column the column, for the message
   * @param value unsigned nanoseconds
   * @return the value, when the engine can hold it (before 2262)
   */
  static long checkedNanos(String column, long value) {
    if (value < 0) {
      throw new Rejected(
          column
              + ": "
              + Long.toUnsignedString(value)
              + " ns is after the year 2262, the latest time that can be stored");
    }
    return value;
  }

  /**
   * @param column the column, for the message
   * @param id a trace id
   * @param required whether an empty id is refused
   * @return its 32 lower-case hex digits, or the empty string for an empty id
   */
  static String traceId(String column, ByteString id, boolean required) {
    return id(column, id, 16, "trace", required);
  }

  /**
   * @param column the column, for the message
   * @param id a span id
   * @param required whether an empty id is refused
   * @return its 16 lower-case hex digits, or the empty string for an empty id
   */
  static String spanId(String column, ByteString id, boolean required) {
    return id(column, id, 8, "span", required);
  }

  private static String id(String column, ByteString id, int size, String kind, boolean required) {
    if (id.isEmpty() && !required) {
      return "";
    }
    if (id.size() != size) {
      throw new Rejected(
          column + ": a " + kind + " id has " + size + " bytes, this one has " + id.size());
    }
    char[] out = new char[size * 2];
    for (int i = 0; i < size; i++) {
      int b = id.byteAt(i) & 0xff;
      out[2 * i] = HEX[b >>> 4];
      out[2 * i + 1] = HEX[b & 0xf];
    }
    return new String(out);
  }

  /** The column of an attribute: {@code <map>.<key>}, which must be a name the engine accepts. */
  private static String column(String map, String key) {
    String name = map + "." + key;
    if (name.length() > Schema.MAX_NAME_LENGTH) {
      throw new Rejected(
          map
              + ": the key '"
              + key.substring(0, 40)
              + "...' is too long; column names ("
              + map
              + ".<key>) have at most "
              + Schema.MAX_NAME_LENGTH
              + " characters");
    }
    for (int i = 0; i < key.length(); i++) {
      if (Character.isISOControl(key.charAt(i))) {
        throw new Rejected(map + ": the key '" + printable(key) + "' holds a control character");
      }
    }
    return name;
  }

  private static String printable(String s) {
    String clean = s.replaceAll("\\p{Cntrl}", "?");
    return clean.length() > 60 ? clean.substring(0, 60) + "..." : clean;
  }
}
