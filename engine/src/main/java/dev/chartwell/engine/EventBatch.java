package dev.chartwell.engine;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Events to append, held by field: per field one typed array and one array of UTF-8 bytes, with no
 * object per event or value. The fast way in: a parser writes each value straight into its field
 * ({@link #startEvent}, {@link #field}, {@link #putString(int, byte[], int, int)} ..., {@link
 * #endEvent}), and {@link Source#append(EventBatch)} checks, logs and stores the events a field at
 * a time. {@link #add(Event)} takes an event as a map.
 *
 * <p>A batch is filled, appended, then {@link #clear() cleared} and filled again; appending may
 * convert values in place (a number stored into a string column becomes its text). Not thread-safe.
 *
 * <p>Each value carries a tag: {@link #STRING}, {@link #LONG}, {@link #DOUBLE}, {@link #FALSE},
 * {@link #TRUE}, or {@link #OTHER} for a value the append converts or rejects by the general rules
 * ({@link java.math.BigInteger}, {@link java.math.BigDecimal}, a string with an unpaired surrogate,
 * anything else), and {@link #ABSENT} where a field has no value.
 */
public final class EventBatch {
  /** No value. */
  public static final byte ABSENT = 0;

  /** A string, as UTF-8 bytes. */
  public static final byte STRING = 1;

  /** A 64-bit integer. */
  public static final byte LONG = 2;

  /** A 64-bit floating-point number. */
  public static final byte DOUBLE = 3;

  /** The boolean false. */
  public static final byte FALSE = 4;

  /** The boolean true. */
  public static final byte TRUE = 5;

  /** Any other value, kept as a Java object. */
  public static final byte OTHER = 6;

  private long[] timestamps = new long[64];
  private int rows;
  private boolean open;
  private boolean timestampSet;
  private BatchField[] fields = new BatchField[8];
  private int fieldCount;
  private final Map<String, BatchField> byName = new HashMap<>();

  /** A byte-keyed index of the fields, for parsers that hold names as UTF-8. */
  private int[] nameSlots = new int[32]; // field + 1, or 0

  /** The fields the open event has set, to undo them when it is abandoned. */
  private int[] touched = new int[8];

  private int touchedCount;

  /** Creates an empty batch. */
  public EventBatch() {}

  /**
   * @return the number of events
   */
  public int size() {
    return rows;
  }

  /** Empties the batch, keeping its fields and arrays for the next events. */
  public void clear() {
    for (int f = 0; f < fieldCount; f++) {
      fields[f].clear(rows + (open ? 1 : 0));
    }
    rows = 0;
    open = false;
    touchedCount = 0;
  }

  /**
   * Adds an event.
   *
   * @param event the event; its {@code null} values are absent
   * @return this batch
   * @throws IllegalStateException when an event is being built
   */
  public EventBatch add(Event event) {
    Objects.requireNonNull(event, "event");
    startEvent();
    timestamp(event.timestamp());
    for (Map.Entry<String, Object> f : event.fields().entrySet()) {
      put(f.getKey(), f.getValue());
    }
    endEvent();
    return this;
  }

  /**
   * Starts an event; set its timestamp and fields, then {@link #endEvent()} (or {@link
   * #abandonEvent()}).
   *
   * @throws IllegalStateException when an event is being built already
   */
  public void startEvent() {
    if (open) {
      throw new IllegalStateException("an event is being built; end it first");
    }
    if (rows == timestamps.length) {
      timestamps = Arrays.copyOf(timestamps, rows + (rows >> 1));
    }
    open = true;
    timestampSet = false;
    touchedCount = 0;
  }

  /**
   * @param epochMillis the event's timestamp
   */
  public void timestamp(long epochMillis) {
    requireOpen();
    timestamps[rows] = epochMillis;
    timestampSet = true;
  }

  /**
   * Ends the event being built: it joins the batch.
   *
   * @throws IllegalStateException when no event is being built or it has no timestamp
   */
  public void endEvent() {
    requireOpen();
    if (!timestampSet) {
      throw new IllegalStateException("the event has no timestamp");
    }
    open = false;
    rows++;
  }

  /** Drops the event being built, and every value set for it. */
  public void abandonEvent() {
    requireOpen();
    for (int i = 0; i < touchedCount; i++) {
      fields[touched[i]].unset(rows);
    }
    touchedCount = 0;
    open = false;
  }

  private void requireOpen() {
    if (!open) {
      throw new IllegalStateException("no event is being built; start one first");
    }
  }

  /**
   * Sets a field of the event being built; a later value of the same field replaces it.
   *
   * @param name the field's name
   * @param value a {@link String}, {@link Long}, {@link Integer}, {@link Short}, {@link Byte},
   *     {@link Double}, {@link Float}, {@link Boolean}, {@link java.math.BigInteger} or {@link
   *     java.math.BigDecimal}; {@code null} for absent; anything else is rejected by the append
   */
  public void put(String name, Object value) {
    requireOpen();
    if (value == null) {
      return;
    }
    int f = field(name);
    if (value instanceof String s) {
      putString(f, s);
    } else if (value instanceof Long l) {
      putLong(f, l);
    } else if (value instanceof Double d) {
      putDouble(f, d);
    } else if (value instanceof Boolean b) {
      putBoolean(f, b);
    } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      putLong(f, ((Number) value).longValue());
    } else {
      putOther(f, value);
    }
  }

  /**
   * @param name a field name
   * @return the field's number in this batch, a new one when the batch had no such field
   */
  public int field(String name) {
    BatchField f = byName.get(name);
    if (f == null) {
      byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
      return addField(name, utf8, FieldNames.hash(utf8, 0, utf8.length));
    }
    return indexOf(f);
  }

  /**
   * @param utf8 holds a field name as UTF-8 (valid)
   * @param from where it starts
   * @param to where it ends
   * @return the field's number in this batch, a new one when the batch had no such field
   */
  public int field(byte[] utf8, int from, int to) {
    int h = FieldNames.hash(utf8, from, to);
    int mask = nameSlots.length - 1;
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      int entry = nameSlots[slot];
      if (entry == 0) {
        byte[] name = Arrays.copyOfRange(utf8, from, to);
        return addField(new String(name, StandardCharsets.UTF_8), name, h);
      }
      BatchField f = fields[entry - 1];
      if (f.nameHash == h && Arrays.equals(f.nameUtf8, 0, f.nameUtf8.length, utf8, from, to)) {
        return entry - 1;
      }
    }
  }

  private int indexOf(BatchField f) {
    for (int i = 0; i < fieldCount; i++) {
      if (fields[i] == f) {
        return i;
      }
    }
    throw new IllegalStateException("field " + f.name + " is not in the batch");
  }

  private int addField(String name, byte[] utf8, int hash) {
    BatchField f = byName.get(name);
    if (f != null) {
      return indexOf(f); // named before through the other lookup
    }
    f = new BatchField(name, utf8, hash);
    if (fieldCount == fields.length) {
      fields = Arrays.copyOf(fields, 2 * fieldCount);
    }
    int index = fieldCount++;
    fields[index] = f;
    byName.put(name, f);
    if (2 * fieldCount > nameSlots.length) {
      nameSlots = new int[2 * nameSlots.length];
      for (int i = 0; i < fieldCount; i++) {
        FieldNames.slot(nameSlots, fields[i].nameHash, i);
      }
    } else {
      FieldNames.slot(nameSlots, hash, index);
    }
    return index;
  }

  /** The field, ready to take the open event's value (replacing one set before). */
  private BatchField forValue(int field) {
    requireOpen();
    BatchField f = fields[field];
    f.ensureRow(rows);
    byte before = f.tags[rows];
    if (before == ABSENT) {
      if (touchedCount == touched.length) {
        touched = Arrays.copyOf(touched, 2 * touchedCount);
      }
      touched[touchedCount++] = field;
    } else if (before == OTHER) {
      f.others[rows] = null;
    }
    return f;
  }

  /**
   * @param field a field number
   * @param value the string
   */
  public void putString(int field, String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    if ((utf8.length == value.length() && Utf8Strings.noQuestionMark(utf8))
        || Utf8Strings.validUnicode(value)) {
      putString(field, utf8, 0, utf8.length);
    } else {
      putOther(field, value); // the append rejects it, naming the unpaired surrogate
    }
  }

  /**
   * @param field a field number
   * @param utf8 holds the string as valid UTF-8
   * @param from where it starts
   * @param to where it ends
   */
  public void putString(int field, byte[] utf8, int from, int to) {
    forValue(field).setText(rows, utf8, from, to);
  }

  /**
   * @param field a field number
   * @param value the number
   */
  public void putLong(int field, long value) {
    forValue(field).setNumber(rows, LONG, value);
  }

  /**
   * @param field a field number
   * @param value the number
   */
  public void putDouble(int field, double value) {
    forValue(field).setNumber(rows, DOUBLE, Double.doubleToRawLongBits(value));
  }

  /**
   * @param field a field number
   * @param value the boolean
   */
  public void putBoolean(int field, boolean value) {
    forValue(field).setNumber(rows, value ? TRUE : FALSE, 0);
  }

  /**
   * @param field a field number
   * @param value any other value, converted or rejected by the append's general rules
   */
  public void putOther(int field, Object value) {
    forValue(field).setOther(rows, value);
  }

  // Reading, for the append, the log and the head.

  /**
   * @return the number of fields
   */
  public int fieldCount() {
    return fieldCount;
  }

  /**
   * @param field a field number
   * @return its name
   */
  public String name(int field) {
    return fields[field].name;
  }

  /**
   * @param field a field number
   * @return its name as UTF-8 (not to be modified)
   */
  public byte[] nameUtf8(int field) {
    return fields[field].nameUtf8;
  }

  /**
   * @param row an event
   * @return its timestamp
   */
  public long timestampAt(int row) {
    return timestamps[row];
  }

  /**
   * @param field a field number
   * @param row an event
   * @return the tag of its value ({@link #ABSENT} when none)
   */
  public byte tag(int field, int row) {
    BatchField f = fields[field];
    return row < f.tags.length ? f.tags[row] : ABSENT;
  }

  /**
   * @param field a field number
   * @param row an event whose value is a {@link #LONG}
   * @return the value
   */
  public long longAt(int field, int row) {
    return fields[field].numbers[row];
  }

  /**
   * @param field a field number
   * @param row an event whose value is a {@link #DOUBLE}
   * @return the value
   */
  public double doubleAt(int field, int row) {
    return Double.longBitsToDouble(fields[field].numbers[row]);
  }

  /**
   * @param field a field number
   * @return the array holding the field's strings (see {@link #textStart})
   */
  public byte[] text(int field) {
    return fields[field].text;
  }

  /**
   * @param field a field number
   * @param row an event whose value is a {@link #STRING}
   * @return where its UTF-8 bytes start in {@link #text}
   */
  public int textStart(int field, int row) {
    return fields[field].textStart[row];
  }

  /**
   * @param field a field number
   * @param row an event whose value is a {@link #STRING}
   * @return how many UTF-8 bytes it has
   */
  public int textLength(int field, int row) {
    return fields[field].textLength[row];
  }

  /**
   * @param field a field number
   * @param row an event whose value is an {@link #OTHER}
   * @return the value
   */
  public Object otherAt(int field, int row) {
    return fields[field].others[row];
  }

  /**
   * @param field a field number
   * @param row an event
   * @return its value as a Java object ({@link String}, {@link Long}, {@link Double}, {@link
   *     Boolean}, the {@link #OTHER} object), or {@code null} when absent
   */
  public Object value(int field, int row) {
    return switch (tag(field, row)) {
      case STRING ->
          new String(
              fields[field].text,
              textStart(field, row),
              textLength(field, row),
              StandardCharsets.UTF_8);
      case LONG -> longAt(field, row);
      case DOUBLE -> doubleAt(field, row);
      case FALSE -> Boolean.FALSE;
      case TRUE -> Boolean.TRUE;
      case OTHER -> otherAt(field, row);
      default -> null;
    };
  }

  /**
   * @param row an event
   * @return it as an {@link Event} (fields in the batch's order)
   */
  public Event event(int row) {
    Map<String, Object> values = new java.util.LinkedHashMap<>();
    for (int f = 0; f < fieldCount; f++) {
      Object v = value(f, row);
      if (v != null) {
        values.put(fields[f].name, v);
      }
    }
    return new Event(timestamps[row], values);
  }

  /**
   * A value as it was stored, to put back exactly ({@link #restore}). The engine's append uses it
   * to undo the conversions of a batch it checks again; applications do not need it.
   *
   * @param field the field
   * @param row the event
   * @param tag its tag
   * @param bits a number's bits
   * @param textStart a string's start
   * @param textLength a string's length
   * @param other an {@link #OTHER} value
   */
  public record Cell(
      int field, int row, byte tag, long bits, int textStart, int textLength, Object other) {}

  /**
   * @param field a field number
   * @param row an event
   * @return its value as stored
   */
  public Cell cell(int field, int row) {
    return fields[field].cell(field, row);
  }

  /**
   * Puts a value back as it was stored (the bytes of a string stay in the field's array).
   *
   * @param cell the value as {@link #cell} saw it
   */
  public void restore(Cell cell) {
    fields[cell.field()].restore(cell);
  }

  /**
   * Replaces a value in place (the append converting it to its column's type).
   *
   * @param field a field number
   * @param row an event that has a value in it
   * @param value a {@link String}, {@link Long}, {@link Double} or {@link Boolean}
   */
  public void replace(int field, int row, Object value) {
    fields[field].replace(row, value);
  }
}
