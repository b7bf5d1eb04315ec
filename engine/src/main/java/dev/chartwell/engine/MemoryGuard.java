package dev.chartwell.engine;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.SourceCore;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The engine's memory limits: refusing appends while the events held exceed {@link
 * Engine.Builder#maxMemoryBytes} or the heap is too full ({@link Engine.Builder#maxHeapOccupancy}),
 * and evicting the oldest sealed heap segments across sources past {@link
 * Engine.Builder#memoryLimitBytes}.
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
   */
  MemoryGuard(
      long memoryLimitBytes,
      long maxMemoryBytes,
      double maxHeapOccupancy,
      Map<String, Source> sources,
      Supplier<List<SourceCore>> cores) {
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
   * Refuses a write while the events held exceed {@link Engine.Builder#maxMemoryBytes} or the heap
   * after collection is fuller than {@link Engine.Builder#maxHeapOccupancy}.
   *
   * @throws WritesRefusedException when it refuses
   */
  void admit() {
    if (maxMemoryBytes != Long.MAX_VALUE) {
      long held = heldBytes();
      if (held > maxMemoryBytes) {
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
        if (victimSource.evict(victim)) {
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
