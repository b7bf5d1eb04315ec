package dev.chartwell.engine;

import java.util.List;

/**
 * Size, memory, disk and ingestion of the engine.
 *
 * @param sources per source: rows, segments, bytes per column, evictions, disk, seal backlog and
 *     ingestion rate
 * @param memoryLimitBytes the configured limit ({@link Long#MAX_VALUE} when unlimited)
 */
public record EngineStats(List<SourceStats> sources, long memoryLimitBytes) {
  /** Copies the list. */
  public EngineStats {
    sources = List.copyOf(sources);
  }

  /**
   * @return heap bytes of all sources
   */
  public long bytes() {
    long total = 0;
    for (SourceStats s : sources) {
      total += s.bytes();
    }
    return total;
  }

  /**
   * @return bytes on disk of all sources (segment files and logs)
   */
  public long diskBytes() {
    long total = 0;
    for (SourceStats s : sources) {
      total += s.diskBytes();
    }
    return total;
  }

  /**
   * @return events appended per second to all sources, over the last few seconds
   */
  public double eventsPerSecond() {
    double total = 0;
    for (SourceStats s : sources) {
      total += s.eventsPerSecond();
    }
    return total;
  }

  /**
   * @return events held by all sources
   */
  public long rows() {
    long total = 0;
    for (SourceStats s : sources) {
      total += s.rows();
    }
    return total;
  }
}
