package dev.chartwell.engine;

import static dev.chartwell.engine.EventBatch.ABSENT;
import static dev.chartwell.engine.EventBatch.DOUBLE;
import static dev.chartwell.engine.EventBatch.FALSE;
import static dev.chartwell.engine.EventBatch.LONG;
import static dev.chartwell.engine.EventBatch.OTHER;
import static dev.chartwell.engine.EventBatch.STRING;
import static dev.chartwell.engine.EventBatch.TRUE;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One field of an {@link EventBatch}: its values row by row, as a tag array plus typed arrays (the
 * numbers, the UTF-8 text and its spans, the other objects) grown on demand. Kept apart from the
 * batch so that the batch holds the event-level bookkeeping (rows, the open event, the field names)
 * and this class the per-field storage, its growth, and the in-place conversions the append makes
 * and may undo ({@link EventBatch.Cell}).
 */
final class BatchField {
  final String name;
  final byte[] nameUtf8;
  final int nameHash;
  byte[] tags = new byte[0];
  long[] numbers; // a long, or a double's bits
  int[] textStart;
  int[] textLength;
  byte[] text;
  int textEnd;
  Object[] others;

  BatchField(String name, byte[] nameUtf8, int nameHash) {
    this.name = name;
    this.nameUtf8 = nameUtf8;
    this.nameHash = nameHash;
  }

  void ensureRow(int row) {
    if (row >= tags.length) {
      int capacity = Math.max(16, Math.max(row + 1, tags.length + (tags.length >> 1)));
      tags = Arrays.copyOf(tags, capacity);
      if (numbers != null) {
        numbers = Arrays.copyOf(numbers, capacity);
      }
      if (textStart != null) {
        textStart = Arrays.copyOf(textStart, capacity);
        textLength = Arrays.copyOf(textLength, capacity);
      }
      if (others != null) {
        others = Arrays.copyOf(others, capacity);
      }
    }
  }

  void setNumber(int row, byte tag, long bits) {
    if (numbers == null) {
      numbers = new long[tags.length];
    }
    tags[row] = tag;
    numbers[row] = bits;
  }

  void setText(int row, byte[] utf8, int from, int to) {
    if (textStart == null) {
      textStart = new int[tags.length];
      textLength = new int[tags.length];
      text = new byte[Math.max(64, 4 * (to - from))];
    }
    int length = to - from;
    if (textEnd + length > text.length) {
      text = Arrays.copyOf(text, Math.max(textEnd + length, text.length + (text.length >> 1)));
    }
    System.arraycopy(utf8, from, text, textEnd, length);
    tags[row] = STRING;
    textStart[row] = textEnd;
    textLength[row] = length;
    textEnd += length;
  }

  void setOther(int row, Object value) {
    if (others == null) {
      others = new Object[tags.length];
    }
    tags[row] = OTHER;
    others[row] = value;
  }

  /** Empties the field's first {@code used} rows, keeping its arrays. */
  void clear(int used) {
    Arrays.fill(tags, 0, Math.min(used, tags.length), ABSENT);
    if (others != null) {
      Arrays.fill(others, null);
    }
    textEnd = 0;
  }

  /** Drops the value of an abandoned event's row (the last row written). */
  void unset(int row) {
    if (tags[row] == STRING) {
      textEnd = textStart[row];
    } else if (tags[row] == OTHER) {
      others[row] = null;
    }
    tags[row] = ABSENT;
  }

  EventBatch.Cell cell(int field, int row) {
    byte tag = tags[row];
    return new EventBatch.Cell(
        field,
        row,
        tag,
        numbers == null ? 0 : numbers[row],
        tag == STRING ? textStart[row] : 0,
        tag == STRING ? textLength[row] : 0,
        tag == OTHER ? others[row] : null);
  }

  void restore(EventBatch.Cell cell) {
    int row = cell.row();
    tags[row] = cell.tag();
    switch (cell.tag()) {
      case STRING -> {
        textStart[row] = cell.textStart();
        textLength[row] = cell.textLength();
      }
      case OTHER -> others[row] = cell.other();
      default -> {
        if (numbers != null) {
          numbers[row] = cell.bits();
        }
      }
    }
  }

  void replace(int row, Object value) {
    if (tags[row] == OTHER) {
      others[row] = null;
    }
    if (value instanceof String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      setText(row, utf8, 0, utf8.length);
    } else if (value instanceof Long l) {
      setNumber(row, LONG, l);
    } else if (value instanceof Double d) {
      setNumber(row, DOUBLE, Double.doubleToRawLongBits(d));
    } else {
      setNumber(row, ((Boolean) value) ? TRUE : FALSE, 0);
    }
  }
}
