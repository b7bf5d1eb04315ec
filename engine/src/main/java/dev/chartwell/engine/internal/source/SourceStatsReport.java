package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.SourceStats;
import dev.chartwell.engine.internal.segment.Segment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the counters a {@link SourceCore} read under its lock into the public {@link SourceStats}:
 * sums rows and bytes over the sealed segments, per column too.
 *
 * <p>Kept apart from {@link SourceCore} because it is pure arithmetic over values already captured
 * consistently: it needs none of the source's locks, and the source's class is then about appends,
 * sealing and snapshots only. Stats are read rarely (an admin call), never on an append or query
 * path, so the extra call costs nothing that matters.
 */
final class SourceStatsReport {
  private SourceStatsReport() {}

  /**
   * The counters of a source as of one moment, taken under the source's lock.
   *
   * @param id the source id
   * @param name the source name
   * @param schema the schema
   * @param segments the sealed segments listed
   * @param headRows rows of the head and of the heads being sealed
   * @param headBytes bytes of the head and of the heads being sealed
   * @param evictedSegments segments evicted so far
   * @param evictedRows rows evicted so far
   * @param ingested events accepted since start, and their rate
   * @param backlog heads waiting to be sealed
   * @param backlogRows rows of those heads
   * @param storage the source's storage (its log's size is read last, as before the split)
   * @param throttledAppends appends held back by the seal backlog
   * @param throttledNanos time appends were held back, in nanoseconds
   */
  record Tally(
      String id,
      String name,
      Schema schema,
      List<Segment> segments,
      long headRows,
      long headBytes,
      long evictedSegments,
      long evictedRows,
      IngestMeter ingested,
      int backlog,
      long backlogRows,
      SourceStorage storage,
      long throttledAppends,
      long throttledNanos) {}

  /**
   * @param storage the source's storage
   * @param segments the listed segments
   * @return bytes of the log and of those segments' files (heap segments have none)
   */
  static long diskBytes(SourceStorage storage, List<Segment> segments) {
    long total = storage.logBytes();
    for (Segment s : segments) {
      total += s.heapBytes() == 0 ? s.bytes() : 0;
    }
    return total;
  }

  /**
   * @param t the counters
   * @return the stats they make
   */
  static SourceStats of(Tally t) {
    Map<String, Long> columnBytes = new HashMap<>();
    long rows = t.headRows();
    long timestampBytes = 0;
    long tokenBytes = 0;
    long bytes = t.headBytes();
    for (Segment s : t.segments()) {
      rows += s.rows();
      bytes += s.bytes();
      timestampBytes += s.timestampBytes();
      tokenBytes += s.tokenIndexBytes();
      s.columns().forEach((name, c) -> columnBytes.merge(name, c.bytes(), Long::sum));
    }
    List<SourceStats.ColumnBytes> columns = new ArrayList<>();
    for (Schema.Column c : t.schema().columns()) {
      columns.add(
          new SourceStats.ColumnBytes(c.name(), c.type(), columnBytes.getOrDefault(c.name(), 0L)));
    }
    return new SourceStats(
        t.id(),
        t.name(),
        rows,
        t.segments().size(),
        t.headRows(),
        bytes,
        t.headBytes(),
        timestampBytes,
        tokenBytes,
        columns,
        t.evictedSegments(),
        t.evictedRows(),
        t.ingested().total(),
        t.ingested().perSecond(),
        t.backlog(),
        t.backlogRows(),
        diskBytes(t.storage(), t.segments()),
        t.storage().logBytes(),
        t.throttledAppends(),
        t.throttledNanos() / 1_000_000);
  }
}
