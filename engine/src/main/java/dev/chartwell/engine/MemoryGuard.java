package dev.chartwell.engine;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.SourceCore;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The engine's memory limits: refusing appends while the events held exceed {@link
 * Engine.Builder#maxMemoryBytes} or the heap is too full ({@link Engine.Builder#maxHeapOccupancy}),
 * and evicting the oldest sealed heap segments across sources past {@link
 * Engine.Builder#memoryLimitBytes}.
 *
 * <p>With tenants ({@link Engine.Builder#tenants}), memory past the limit is shared fairly: a
 * tenant is refused only while it holds more than its share, the limit divided by the tenants that
 * hold events in memory or ask to (the writer's own counts); a tenant under its share is admitted
 * even past the limit, so one tenant filling the memory never refuses another. The total then stays
 * under about twice the limit (each tenant under its share adds at most that share past it), and
 * the heap guard still refuses everyone when the heap is too full.
 *
 * <p>Kept apart from {@link Engine} because it is a policy of its own over the sources' byte
 * counts, with its own lock, while the engine is the API and the wiring. The admission check runs
 * before every append: it reads volatile counters and allocates nothing unless it refuses.
 */
final class MemoryGuard {
  private final long memoryLimitBytes;
  private final long maxMemoryBytes;
  private final double maxHeapOccupancy;
  private final HeapWatch heap;
  private final Map<String, Source> sources;
  private final Supplier<List<SourceCore>> cores;
  private final Function<String, String> tenantOf;
  private final Object evictionLock = new Object();

  /**
   * @param memoryLimitBytes heap bytes of sealed segments beyond which the oldest are evicted
   *     ({@link Long#MAX_VALUE}: never)
   * @param maxMemoryBytes bytes held beyond which appends are refused ({@link Long#MAX_VALUE}:
   *     never)
   * @param maxHeapOccupancy share of the heap after collection beyond which appends are refused (1:
   *     never)
   * @param sources the engine's sources, read live
   * @param cores a fresh list of the sources' cores
   * @param tenantOf the tenant of a source id ({@code null}: one tenant, the old rule)
   */
  MemoryGuard(
      long memoryLimitBytes,
      long maxMemoryBytes,
      double maxHeapOccupancy,
      Map<String, Source> sources,
      Supplier<List<SourceCore>> cores,
      Function<String, String> tenantOf) {
    this.tenantOf = tenantOf;
    this.memoryLimitBytes = memoryLimitBytes;
    this.maxMemoryBytes = maxMemoryBytes;
    this.maxHeapOccupancy = maxHeapOccupancy;
    this.heap = maxHeapOccupancy < 1 ? new HeapWatch() : null;
    this.sources = sources;
    this.cores = cores;
  }

  /**
   * @return the eviction limit, as configured
   */
  long memoryLimitBytes() {
    return memoryLimitBytes;
  }

  /**
   * Refuses a write while the events held exceed {@link Engine.Builder#maxMemoryBytes} (with
   * tenants: while the writer's tenant holds more than its share) or the heap after collection is
   * fuller than {@link Engine.Builder#maxHeapOccupancy}.
   *
   * @param sourceId the source written to
   * @throws WritesRefusedException when it refuses
   */
  void admit(String sourceId) {
    if (maxMemoryBytes != Long.MAX_VALUE) {
      long held = heldBytes();
      if (held > maxMemoryBytes && tenantOf != null) {
        admitFairly(sourceId, held);
      } else if (held > maxMemoryBytes) {
        throw new WritesRefusedException(
            String.format(
                Locale.ROOT,
                "the events held in memory (%,d MB) reached the limit of %,d MB; retry later,"
                    + " raise the limit, or drop sources no longer needed",
                held >> 20,
                maxMemoryBytes >> 20));
      }
    }
    if (heap != null && heap.over(maxHeapOccupancy)) {
      throw new WritesRefusedException(
          String.format(
              Locale.ROOT,
              "the heap is %.1f%% full after garbage collection (limit %.0f%%); retry later",
              100 * heap.occupancyAfterGc(),
              100 * maxHeapOccupancy));
    }
  }

  /** Past the limit: refuses the writer's tenant only when it holds more than its fair share. */
  private void admitFairly(String sourceId, long held) {
    Map<String, Long> byTenant = new HashMap<>();
    for (Source s : sources.values()) {
      long bytes = s.core().headBytes() + s.core().sealedBytes();
      if (bytes > 0) {
        byTenant.merge(tenant(s.id()), bytes, Long::sum);
      }
    }
    String tenant = tenant(sourceId);
    long own = byTenant.getOrDefault(tenant, 0L);
    int wanting = byTenant.size() + (byTenant.containsKey(tenant) ? 0 : 1);
    long share = maxMemoryBytes / wanting;
    if (own > share) {
      throw new WritesRefusedException(
          String.format(
              Locale.ROOT,
              "the events held in memory (%,d MB) reached the limit of %,d MB, and tenant"
                  + " '%s' holds %,d MB, more than its fair share of %,d MB (the limit shared by"
                  + " the %d tenants holding events in memory); retry later",
              held >> 20,
              maxMemoryBytes >> 20,
              tenant,
              own >> 20,
              share >> 20,
              wanting));
    }
  }

  /**
   * @param sourceId a source id
   * @return its tenant ({@code ""} when the tenants function knows none)
   */
  String tenant(String sourceId) {
    String t = tenantOf == null ? null : tenantOf.apply(sourceId);
    return t == null ? "" : t;
  }

  /**
   * @return the bytes of events held in memory: unsealed heads and sealed segments
   */
  long heldBytes() {
    long total = 0;
    for (Source s : sources.values()) {
      total += s.core().headBytes() + s.core().sealedBytes();
    }
    return total;
  }

  /** Evicts the sealed heap segments holding the oldest events until under the limit. */
  void enforceLimit() {
    if (memoryLimitBytes == Long.MAX_VALUE) {
      return;
    }
    synchronized (evictionLock) {
      long total = totalBytes();
      while (total > memoryLimitBytes) {
        SourceCore victimSource = null;
        Segment victim = null;
        for (SourceCore s : cores.get()) {
          for (Segment seg : s.sealedSegments()) {
            if (seg.heapBytes() == 0) {
              continue; // mapped from a file: eviction frees no heap
            }
            if (victim == null || seg.maxTimestamp() < victim.maxTimestamp()) {
              victim = seg;
              victimSource = s;
            }
          }
        }
        if (victim == null) {
          return; // only heads are left; they are never evicted
        }
        if (victimSource.sealed().evict(victim)) {
          total -= victim.heapBytes();
        } else {
          return; // could not publish the source without it; its storage reported why
        }
      }
    }
  }

  private long totalBytes() {
    long total = 0;
    for (SourceCore s : cores.get()) {
      for (Segment seg : s.sealedSegments()) {
        total += seg.heapBytes();
      }
    }
    return total;
  }

  /** Stops watching the heap. */
  void close() {
    if (heap != null) {
      heap.close();
    }
  }
}
