package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.IngestMeter;
import java.util.List;

/**
 * Size, memory, disk and ingestion of one source.
 *
 * @param id source id
 * @param name source name
 * @param rows events held (sealed and head)
 * @param segments sealed segments
 * @param headRows events in the head, not yet sealed
 * @param bytes heap bytes of everything held
 * @param headBytes heap bytes of the head
 * @param timestampBytes heap bytes of the sealed timestamps
 * @param tokenIndexBytes heap bytes of the sealed token indexes
 * @param columns heap bytes of each column's sealed data
 * @param evictedSegments segments dropped by the memory limit
 * @param evictedRows events dropped by the memory limit
 * @param acceptedEvents events appended since the source was opened (not counting replayed ones)
 * @param eventsPerSecond events appended per second, averaged over the last {@value
 *     IngestMeter#WINDOW_SECONDS} seconds
 * @param sealBacklog heads handed to the sealing thread and not yet written as segments
 * @param sealBacklogRows events in those heads
 * @param diskBytes bytes of the source's listed segment files and its log (0 without a data
 *     directory)
 * @param logBytes bytes of its log alone
 * @param appendsHeldBack appends that waited because the seal backlog was full (back-pressure:
 *     ingestion ran faster than sealing)
 * @param heldBackMillis milliseconds those appends waited in all
 */
public record SourceStats(
    String id,
    String name,
    long rows,
    int segments,
    long headRows,
    long bytes,
    long headBytes,
    long timestampBytes,
    long tokenIndexBytes,
    List<ColumnBytes> columns,
    long evictedSegments,
    long evictedRows,
    long acceptedEvents,
    double eventsPerSecond,
    int sealBacklog,
    long sealBacklogRows,
    long diskBytes,
    long logBytes,
    long appendsHeldBack,
    long heldBackMillis) {

  /** Copies the column list. */
  public SourceStats {
    columns = List.copyOf(columns);
  }

  /**
   * Memory of one column across sealed segments.
   *
   * @param name column name
   * @param type column type
   * @param bytes heap bytes
   */
  public record ColumnBytes(String name, ColumnType type, long bytes) {}
}
