package dev.chartwell.engine;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.SourceCore;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Retention and the disk limits: whole sealed segments are dropped when their newest event is older
 * than the retention; a tenant's segments with the oldest events while its files take more than its
 * quota; and, while all the files take more than the limit, the oldest segments of the tenant whose
 * files take the most, as long as it holds more than its share of the limit (the limit divided by
 * the tenants with files; without tenants: the oldest across sources). Heads, and heads being
 * sealed, are never dropped, so one tenant's ingestion never drops the events of another that holds
 * less than its share.
 */
final class StorageLimits {
  /** How often the limits are applied even without seals (retention moves with the clock). */
  static final Duration PERIOD = Duration.ofSeconds(10);

  private final Duration retention;
  private final long maxDiskBytes;
  private final Clock clock;
  private final Supplier<List<SourceCore>> sources;
  private final Function<String, String> tenantOf;
  private final ToLongFunction<String> quotaOf;

  /**
   * @param tenantOf the tenant of a source id, never {@code null} ({@code s -> ""}: one tenant)
   * @param quotaOf the disk quota of a tenant ({@link Long#MAX_VALUE}: none), {@code null} for none
   */
  StorageLimits(
      Duration retention,
      long maxDiskBytes,
      Clock clock,
      Supplier<List<SourceCore>> sources,
      Function<String, String> tenantOf,
      ToLongFunction<String> quotaOf) {
    this.retention = retention;
    this.maxDiskBytes = maxDiskBytes;
    this.clock = clock;
    this.sources = sources;
    this.tenantOf = tenantOf;
    this.quotaOf = quotaOf;
  }

  /**
   * @return whether any limit is set
   */
  boolean active() {
    return retention != null || maxDiskBytes != Long.MAX_VALUE || quotaOf != null;
  }

  /**
   * @return how many segments were dropped
   */
  synchronized int enforce() {
    int dropped = 0;
    if (retention != null) {
      long cutoff = clock.millis() - retention.toMillis();
      for (SourceCore s : sources.get()) {
        dropped += s.sealed().drop(seg -> seg.maxTimestamp() < cutoff, false);
      }
    }
    if (maxDiskBytes == Long.MAX_VALUE && quotaOf == null) {
      return dropped;
    }
    List<SourceCore> all = sources.get();
    Map<String, Long> used = new HashMap<>();
    long total = 0;
    for (SourceCore s : all) {
      long bytes = s.diskBytes();
      used.merge(tenantOf.apply(s.id()), bytes, Long::sum);
      total += bytes;
    }
    if (quotaOf != null) {
      for (Map.Entry<String, Long> e : used.entrySet()) {
        long quota = quotaOf.applyAsLong(e.getKey());
        long freed = 0;
        while (e.getValue() - freed > quota) {
          long bytes = dropOldest(all, e.getKey());
          if (bytes < 0) {
            break;
          }
          dropped++;
          freed += bytes;
        }
        e.setValue(e.getValue() - freed);
        total -= freed;
      }
    }
    // Past the limit, only a tenant holding more than its share of it gives up segments: one
    // whose unsealed events (logs) fill the disk must not make another, smaller one pay.
    long share = used.isEmpty() ? maxDiskBytes : maxDiskBytes / used.size();
    while (total > maxDiskBytes) {
      String largest = null;
      for (Map.Entry<String, Long> e : used.entrySet()) {
        if (largest == null || e.getValue() > used.get(largest)) {
          largest = e.getKey();
        }
      }
      if (largest == null || used.get(largest) <= share) {
        break; // the tenants over their share have only logs and heads left
      }
      long bytes = dropOldest(all, largest);
      if (bytes < 0) {
        used.remove(largest); // only its logs and heads are left: the next largest, if over
        continue;
      }
      dropped++;
      total -= bytes;
      used.merge(largest, -bytes, Long::sum);
    }
    return dropped;
  }

  /**
   * Drops the sealed segment file holding the oldest events of a tenant.
   *
   * @return its bytes, or -1 when there was none to drop (or the source could not publish)
   */
  private long dropOldest(List<SourceCore> all, String tenant) {
    SourceCore owner = null;
    Segment oldest = null;
    for (SourceCore s : all) {
      if (!tenantOf.apply(s.id()).equals(tenant)) {
        continue;
      }
      for (Segment seg : s.sealedSegments()) {
        if (seg.file() != null && (oldest == null || seg.maxTimestamp() < oldest.maxTimestamp())) {
          oldest = seg;
          owner = s;
        }
      }
    }
    if (oldest == null) {
      return -1; // only logs and heads are left; they are never dropped
    }
    Segment victim = oldest;
    if (owner.sealed().drop(seg -> seg == victim, false) == 0) {
      return -1; // dropped meanwhile, or the source could not publish (it reported why)
    }
    return victim.bytes();
  }
}
