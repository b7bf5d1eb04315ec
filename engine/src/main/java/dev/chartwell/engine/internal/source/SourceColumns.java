package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.internal.segment.SegmentBuilder;

/**
 * A source's columns as its events define them: the schema that checks and queries read, replaced
 * whole when a column is added so that they read it without the source's lock, and the same columns
 * on the head being filled. A column is defined by the first stored event that has a value for it,
 * on both at once.
 */
final class SourceColumns {
  private volatile Schema schema = Schema.empty();

  /**
   * @return the columns as they are now
   */
  Schema schema() {
    return schema;
  }

  /**
   * Under the source's lock (or before the source is shared): defines a new column.
   *
   * @param name its name
   * @param type its type
   * @param head the head being filled
   */
  void defineLocked(String name, ColumnType type, SegmentBuilder head) {
    schema = schema.with(name, type); // throws when it is defined already
    head.addColumn(name, type);
  }

  /**
   * Under the source's lock: gives a new head every column.
   *
   * @param head the new head
   */
  void addAllLocked(SegmentBuilder head) {
    for (Schema.Column c : schema.columns()) {
      head.addColumn(c.name(), c.type());
    }
  }

  /**
   * Under the source's lock: the column of each field of a batch, defining those the accepted
   * events of {@code [from, to)} bring (in the batch's order of fields).
   *
   * @param batch the events
   * @param checked what the check accepted, and each field's type ({@code null}: not stored)
   * @param from the first event
   * @param to past the last event
   * @param head the head the events go into
   * @return per field, its column's ordinal, or -1 for none
   */
  int[] columnsLocked(
      EventBatch batch, BatchCheck.Result checked, int from, int to, SegmentBuilder head) {
    ColumnType[] types = checked.types();
    int[] columnOf = new int[types.length];
    for (int f = 0; f < types.length; f++) {
      columnOf[f] = -1;
      if (types[f] == null) {
        continue;
      }
      Schema.Column column = schema.column(batch.name(f)).orElse(null);
      if (column == null) {
        if (!hasValue(batch, checked, f, from, to)) {
          continue; // defined by the events of a later head
        }
        defineLocked(batch.name(f), types[f], head);
        column = schema.column(batch.name(f)).orElseThrow();
      }
      columnOf[f] = column.ordinal();
    }
    return columnOf;
  }

  private static boolean hasValue(EventBatch batch, BatchCheck.Result c, int f, int from, int to) {
    for (int row = from; row < to; row++) {
      if (c.accepts(row) && batch.tag(f, row) != EventBatch.ABSENT) {
        return true;
      }
    }
    return false;
  }
}
