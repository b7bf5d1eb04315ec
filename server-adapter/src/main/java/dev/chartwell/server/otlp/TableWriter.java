package dev.chartwell.server.otlp;

import dev.chartwell.engine.source.AppendResult;
import dev.chartwell.engine.source.Event;
import dev.chartwell.engine.source.Source;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.RowSink;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.charts.WriteRefusals;
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

  /** The rows waiting for one table. */
  private static final class Batch {
    final Source source;
    final List<Event> rows = new ArrayList<>();
    final List<Long> records = new ArrayList<>();
    long chars;

    Batch(Source source) {
      this.source = source;
    }
  }

  /**
   * @param signal the request's signal
   * @param tables the engine source of each of its tables
   */
  TableWriter(Signal signal, Map<OtelTable, Source> tables) {
    this.signal = signal;
    tables.forEach((table, source) -> batches.put(table, new Batch(source)));
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
    AppendResult r;
    try {
      r = b.source.appendBatch(b.rows);
    } catch (RuntimeException e) {
      throw WriteRefusals.answer(
          e,
          String.format(
              Locale.ROOT,
              "%d %s of this request were stored before (an exporter sends the request again,"
                  + " so they may be stored twice)",
              stored,
              signal.records()));
    }
    stored += r.accepted();
    for (AppendResult.Rejection x : r.rejections()) {
      reject(b.records.get(x.index()), x.reason());
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
