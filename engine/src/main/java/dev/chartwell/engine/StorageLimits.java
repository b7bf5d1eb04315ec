package dev.chartwell.engine;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.SourceCore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Retention and the disk limit: whole sealed segments are dropped when their newest event is older
 * than the retention, and the segments with the oldest events (across sources) while the files take
 * more than the limit. Heads, and heads being sealed, are never dropped.
 */
final class StorageLimits {
  /** How often the limits are applied even without seals (retention moves with the clock). */
  static final Duration PERIOD = Duration.ofSeconds(10);

  private final Duration retention;
  private final long maxDiskBytes;
  private final Clock clock;
  private final Supplier<List<SourceCore>> sources;

  StorageLimits(
      Duration retention, long maxDiskBytes, Clock clock, Supplier<List<SourceCore>> sources) {
    this.retention = retention;
    this.maxDiskBytes = maxDiskBytes;
    this.clock = clock;
    this.sources = sources;
  }

  /**
   * @return whether any limit is set
   */
  boolean active() {
    return retention != null || maxDiskBytes != Long.MAX_VALUE;
  }

  /**
   * @return how many segments were dropped
   */
  synchronized int enforce() {
    int dropped = 0;
    if (retention != null) {
      long cutoff = clock.millis() - retention.toMillis();
      for (SourceCore s : sources.get()) {
        dropped += s.dropSegments(seg -> seg.maxTimestamp() < cutoff, false);
      }
    }
    if (maxDiskBytes != Long.MAX_VALUE) {
      List<SourceCore> all = sources.get();
      long total = 0;
      for (SourceCore s : all) {
        total += s.diskBytes();
      }
      while (total > maxDiskBytes) {
        SourceCore owner = null;
        Segment oldest = null;
        for (SourceCore s : all) {
          for (Segment seg : s.sealedSegments()) {
            if (seg.file() != null
                && (oldest == null || seg.maxTimestamp() < oldest.maxTimestamp())) {
              oldest = seg;
              owner = s;
            }
          }
        }
        if (oldest == null) {
          break; // only logs and heads are left; they are never dropped
        }
        Segment victim = oldest;
        if (owner.dropSegments(seg -> seg == victim, false) == 0) {
          break; // dropped meanwhile, or the source could not publish (it reported why)
        }
        dropped++;
        total -= victim.bytes();
      }
    }
    return dropped;
  }
}
