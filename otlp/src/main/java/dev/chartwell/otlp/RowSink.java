package dev.chartwell.otlp;

import dev.chartwell.engine.Event;

/**
 * Receives the rows decoded from a request, in request order, and the records that could not become
 * rows. Records are numbered from 0 in the order the request holds them (log records, spans, or
 * metric data points).
 */
public interface RowSink {
  /**
   * @param table the table the row belongs to
   * @param row the row: its time in epoch milliseconds and its columns
   * @param chars how many characters of text the row holds, to bound what is written at once
   * @param record the record's number in the request
   */
  void row(OtelTable table, Event row, long chars, long record);

  /**
   * @param record the record's number in the request
   * @param reason why it cannot be stored, naming the column
   */
  void reject(long record, String reason);
}
