package dev.chartwell.server.otlp;

import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.RowSink;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.charts.ClickHouseErrors;
import dev.chartwell.server.charts.WriteRefusals;
import dev.chartwell.server.http.ApiException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the rows of one request to their tables in batches (bounded in rows and in text, so that
 * one append never outgrows what the engine logs at once), and counts what was stored and what was
 * rejected, keeping the first problems for the export response.
 */
final class TableWriter implements RowSink {
  static final int BATCH_ROWS = 4096;
  static final long BATCH_CHARS = 16L << 20;
  static final int MAX_PROBLEMS = 10;

  private final Signal signal;
  private final Map<OtelTable, Batch> batches = new EnumMap<>(OtelTable.class);
  private final TreeMap<Long, String> problems = new TreeMap<>();
  private long stored;
  private long rejected;

  /** Where a table's rows go: an engine source, or a table of an external ClickHouse. */
  @FunctionalInterface
  interface Destination {
    /**
     * @param rows a batch
     * @return the rejected rows, by position in the batch, with reasons
     */
    List<Map.Entry<Integer, String>> write(List<Event> rows);
  }

  /** The rows waiting for one table. */
  private static final class Batch {
    final Destination destination;
    final List<Event> rows = new ArrayList<>();
    final List<Long> records = new ArrayList<>();
    long chars;

    Batch(Destination destination) {
      this.destination = destination;
    }
  }

  /**
   * @param signal the request's signal
   * @param tables the engine source of each of its tables
   */
  TableWriter(Signal signal, Map<OtelTable, Source> tables) {
    this.signal = signal;
    tables.forEach(
        (table, source) ->
            batches.put(
                table,
                new Batch(
                    rows -> {
                      List<Map.Entry<Integer, String>> out = new ArrayList<>();
                      for (AppendResult.Rejection x : source.appendBatch(rows).rejections()) {
                        out.add(Map.entry(x.index(), x.reason()));
                      }
                      return out;
                    })));
  }

  /**
   * @param signal the request's signal
   * @param tables where each of its tables' rows go
   * @param external marks this constructor apart from the engine's
   */
  TableWriter(Signal signal, Map<OtelTable, Destination> tables, boolean external) {
    this.signal = signal;
    tables.forEach((table, d) -> batches.put(table, new Batch(d)));
  }

  @Override
  public void row(OtelTable table, Event row, long chars, long record) {
    Batch b = batches.get(table);
    b.rows.add(row);
    b.records.add(record);
    b.chars += chars;
    if (b.rows.size() >= BATCH_ROWS || b.chars >= BATCH_CHARS) {
      flush(b);
    }
  }

  @Override
  public void reject(long record, String reason) {
    rejected++;
    problems.put(record, reason);
    if (problems.size() > MAX_PROBLEMS) {
      problems.pollLastEntry();
    }
  }

  /** Writes what is left. */
  void finish() {
    for (Batch b : batches.values()) {
      flush(b);
    }
  }

  private void flush(Batch b) {
    if (b.rows.isEmpty()) {
      return;
    }
    List<Map.Entry<Integer, String>> rejections;
    String before =
        String.format(
            Locale.ROOT,
            "%d %s of this request were stored before (an exporter sends the request again,"
                + " so they may be stored twice)",
            stored,
            signal.records());
    try {
      rejections = b.destination.write(b.rows);
    } catch (ClickHouseException e) {
      ApiException answer = ClickHouseErrors.answer(e);
      throw new ApiException(answer.code(), e.getMessage() + "; " + before);
    } catch (RuntimeException e) {
      throw WriteRefusals.answer(e, before);
    }
    stored += b.rows.size() - rejections.size();
    for (Map.Entry<Integer, String> x : rejections) {
      reject(b.records.get(x.getKey()), x.getValue());
    }
    b.rows.clear();
    b.records.clear();
    b.chars = 0;
  }

  long rejected() {
    return rejected;
  }

  /**
   * @return what the export response says about rejected records, or {@code null} when none was
   */
  String message() {
    if (rejected == 0) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    sb.append(rejected).append(" of ").append(rejected + stored).append(' ');
    sb.append(signal.records()).append(" rejected (numbered from 0 in request order): ");
    String sep = "";
    for (Map.Entry<Long, String> p : problems.entrySet()) {
      sb.append(sep).append(p.getKey()).append(": ").append(p.getValue());
      sep = "; ";
    }
    if (rejected > problems.size()) {
      sb.append("; and ").append(rejected - problems.size()).append(" more");
    }
    return sb.toString();
  }
}
