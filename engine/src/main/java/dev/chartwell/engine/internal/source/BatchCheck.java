package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.RejectedEventException;
import dev.chartwell.engine.Source;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a batch of events against a source's columns, event after event, as if each were appended
 * alone: an event is accepted when every value fits its column, converted by {@link
 * ValueCoercion}'s rules, and a field no column has yet takes the type of its first accepted value.
 * A value whose tag is its column's type (nearly all of them) costs a comparison; the others are
 * converted in place or reject their event, and the conversions are kept so that a check made
 * against columns that changed meanwhile can be undone and made again.
 */
final class BatchCheck {
  /**
   * The most bytes of strings one event may hold: its log record, names and framing included, must
   * stay within the write-ahead log's 16 MiB.
   */
  static final int MAX_EVENT_BYTES = 15 << 20;

  private BatchCheck() {}

  /**
   * What checking a batch found.
   *
   * @param schema the columns it was checked against
   * @param types per batch field the column type its values have, {@code null} when no accepted
   *     event has a value in it
   * @param isNew per batch field whether the schema had no such column
   * @param rejected per event whether it is rejected, or {@code null} when none is
   * @param rejections the rejected events and why, in order
   * @param accepted how many events are accepted
   * @param conversions the values converted in place, as they were before
   */
  record Result(
      Schema schema,
      ColumnType[] types,
      boolean[] isNew,
      boolean[] rejected,
      List<AppendResult.Rejection> rejections,
      int accepted,
      List<EventBatch.Cell> conversions) {

    /**
     * @return whether some accepted event brings a field the schema had no column for
     */
    boolean definesColumns() {
      for (int f = 0; f < types.length; f++) {
        if (isNew[f] && types[f] != null) {
          return true;
        }
      }
      return false;
    }

    /**
     * @param row an event
     * @return whether it is accepted
     */
    boolean accepts(int row) {
      return rejected == null || !rejected[row];
    }

    /** Puts the converted values back as they were (before checking again). */
    void undo(EventBatch batch) {
      for (int i = conversions.size() - 1; i >= 0; i--) {
        batch.restore(conversions.get(i));
      }
    }
  }

  /**
   * @param batch the events (values that need converting are converted in place)
   * @param schema the source's columns
   * @param timestampColumn the source's timestamp column, which no field may name
   * @param newEvents whether the events are appended now ({@code true}: timestamps must be within
   *     {@link Source#MIN_TIMESTAMP} and {@link Source#MAX_TIMESTAMP}) or replayed from the log
   *     ({@code false}: an earlier version took any timestamp from 1970 on, and logged events are
   *     replayed as they were)
   * @return what was accepted, rejected and converted
   */
  static Result check(EventBatch batch, Schema schema, String timestampColumn, boolean newEvents) {
    int fields = batch.fieldCount();
    int rows = batch.size();
    ColumnType[] types = new ColumnType[fields];
    boolean[] isNew = new boolean[fields];
    String[] fieldProblem = new String[fields];
    for (int f = 0; f < fields; f++) {
      String name = batch.name(f);
      Schema.Column column = schema.column(name).orElse(null);
      if (name.equals(timestampColumn)) {
        fieldProblem[f] =
            "field '" + name + "' is the timestamp column; it is the event's timestamp";
      } else if (column != null) {
        types[f] = column.type(); // its name was checked when it was defined
      } else {
        isNew[f] = true;
        fieldProblem[f] = Schema.nameProblem(name);
      }
    }
    boolean[] rejected = null;
    List<AppendResult.Rejection> rejections = new ArrayList<>();
    List<EventBatch.Cell> conversions = new ArrayList<>();
    ColumnType[] rowTypes = new ColumnType[fields]; // the types an event's new fields would get
    int[] newInRow = new int[fields];
    List<EventBatch.Cell> rowConversions = new ArrayList<>();
    List<Object> converted = new ArrayList<>();
    int defined = 0;
    int accepted = 0;
    for (int row = 0; row < rows; row++) {
      String problem = null;
      int newCount = 0;
      rowConversions.clear();
      converted.clear();
      long ts = batch.timestampAt(row);
      if (ts < 0 || (newEvents && (ts < Source.MIN_TIMESTAMP || ts > Source.MAX_TIMESTAMP))) {
        problem = timestampProblem(ts);
      }
      long textBytes = 0;
      for (int f = 0; f < fields && problem == null; f++) {
        byte tag = batch.tag(f, row);
        if (tag == EventBatch.ABSENT) {
          continue;
        }
        if (tag == EventBatch.STRING && (textBytes += batch.textLength(f, row)) > MAX_EVENT_BYTES) {
          problem = "the event's strings take more than " + (MAX_EVENT_BYTES >> 20) + " MiB";
          break;
        }
        if (fieldProblem[f] != null) {
          problem = fieldProblem[f];
          break;
        }
        ColumnType type = types[f];
        if (type == null) {
          try {
            type = inferred(batch, f, row, tag);
          } catch (RejectedEventException e) {
            problem = e.getMessage();
            break;
          }
          rowTypes[f] = type;
          newInRow[newCount++] = f;
        }
        if (fits(batch, f, row, tag, type)) {
          continue;
        }
        try {
          Object value = ValueCoercion.coerce(batch.name(f), batch.value(f, row), type);
          rowConversions.add(batch.cell(f, row));
          converted.add(value);
        } catch (RejectedEventException e) {
          problem = e.getMessage();
        }
      }
      if (problem == null
          && newCount > 0
          && schema.size() + defined + newCount > Schema.MAX_COLUMNS) {
        problem = "the source would have more than " + Schema.MAX_COLUMNS + " columns";
      }
      if (problem != null) {
        if (rejected == null) {
          rejected = new boolean[rows];
        }
        rejected[row] = true;
        rejections.add(new AppendResult.Rejection(row, problem));
        continue;
      }
      for (int i = 0; i < newCount; i++) {
        types[newInRow[i]] = rowTypes[newInRow[i]];
      }
      defined += newCount;
      for (int i = 0; i < rowConversions.size(); i++) {
        EventBatch.Cell cell = rowConversions.get(i);
        batch.replace(cell.field(), cell.row(), converted.get(i));
        conversions.add(cell);
      }
      accepted++;
    }
    return new Result(schema, types, isNew, rejected, rejections, accepted, conversions);
  }

  /** The type a new column takes from its first value. */
  private static ColumnType inferred(EventBatch batch, int field, int row, byte tag) {
    return switch (tag) {
      case EventBatch.STRING -> ColumnType.STRING;
      case EventBatch.LONG -> ColumnType.LONG;
      case EventBatch.DOUBLE -> ColumnType.DOUBLE;
      case EventBatch.TRUE, EventBatch.FALSE -> ColumnType.BOOL;
      default -> ValueCoercion.inferType(batch.name(field), batch.otherAt(field, row));
    };
  }

  /** Whether a value is already what its column stores: no conversion, nothing to check. */
  private static boolean fits(EventBatch batch, int field, int row, byte tag, ColumnType type) {
    return switch (type) {
      case STRING -> tag == EventBatch.STRING;
      case LONG -> tag == EventBatch.LONG;
      case DOUBLE -> tag == EventBatch.DOUBLE && Double.isFinite(batch.doubleAt(field, row));
      case BOOL -> tag == EventBatch.TRUE || tag == EventBatch.FALSE;
    };
  }

  /**
   * Why a timestamp is refused, in words that say which bound it broke and what it looks like.
   *
   * @param ts a timestamp outside {@link Source#MIN_TIMESTAMP} .. {@link Source#MAX_TIMESTAMP}
   * @return the reason
   */
  public static String timestampProblem(long ts) {
    if (ts < 0) {
      return "timestamp " + ts + " is before 1970; epoch milliseconds expected";
    }
    if (ts < Source.MIN_TIMESTAMP) {
      String reason =
          "timestamp "
              + ts
              + " is before 2001-09-09T01:46:40Z, the earliest time a chart query addresses;"
              + " epoch milliseconds expected";
      if (ts >= Source.MIN_TIMESTAMP / 1000 && ts <= Source.MAX_TIMESTAMP / 1000) {
        reason +=
            " (" + ts + " looks like seconds: as seconds it is " + Instant.ofEpochSecond(ts) + ")";
      }
      return reason;
    }
    String reason = "timestamp " + ts + " is after the year 9999; epoch milliseconds expected";
    if (ts / 1000 >= Source.MIN_TIMESTAMP && ts / 1000 <= Source.MAX_TIMESTAMP) {
      reason += " (it looks like microseconds: " + Instant.ofEpochMilli(ts / 1000) + ")";
    } else if (ts / 1_000_000 >= Source.MIN_TIMESTAMP && ts / 1_000_000 <= Source.MAX_TIMESTAMP) {
      reason += " (it looks like nanoseconds: " + Instant.ofEpochMilli(ts / 1_000_000) + ")";
    }
    return reason;
  }
}
