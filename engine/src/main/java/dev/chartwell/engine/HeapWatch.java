package dev.chartwell.engine;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * How full the heap is after garbage collection: the share of the maximum heap still in use after
 * the latest collection. Unlike the current usage, which includes garbage, this is what the data
 * really holds, so writes can be refused before the heap runs out rather than after.
 *
 * <p>A young collection leaves the old generation as it was, dead objects included (arrays that
 * outgrew their builders, heads already sealed), so its reading can overstate what is live. A
 * reading over the limit from a young collection is therefore confirmed before it refuses anything:
 * a full collection is requested (at most once per {@link #CONFIRM_INTERVAL_NANOS}) and its result
 * decides. Only a process near its limit pays for that pause, and it pays it instead of refusing
 * writes it could take.
 */
final class HeapWatch implements AutoCloseable {
  /** The shortest time between two confirming full collections. */
  static final long CONFIRM_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final long maxHeap;
  private final LongSupplier collectAndMeasure;
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::onNotification;
  private volatile long usedAfterGc;
  private volatile boolean lastWasFull;
  private long lastConfirm = System.nanoTime() - CONFIRM_INTERVAL_NANOS;

  HeapWatch() {
    this(Runtime.getRuntime().maxMemory(), HeapWatch::fullCollection);
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
  }

  /**
   * A watch fed by {@link #record} alone (tests).
   *
   * @param maxHeap the maximum heap in bytes
   * @param collectAndMeasure runs a full collection and returns the heap bytes in use after it
   */
  HeapWatch(long maxHeap, LongSupplier collectAndMeasure) {
    this.maxHeap = maxHeap;
    this.collectAndMeasure = collectAndMeasure;
  }

  private static long fullCollection() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private void onNotification(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long used = 0;
    for (MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
      used += u.getUsed();
    }
    // Non-heap pools (metaspace, code cache) are in the map too; they are small next to the heap
    // and only make the estimate err on the safe side.
    record(used, info.getGcAction().contains("major"));
  }

  /**
   * Takes the reading of one collection.
   *
   * @param used bytes in use after it
   * @param full whether it collected the whole heap (a young collection does not)
   */
  void record(long used, boolean full) {
    usedAfterGc = used;
    lastWasFull = full;
  }

  /**
   * @return the share of the maximum heap in use after the latest collection (0 before any)
   */
  double occupancyAfterGc() {
    return maxHeap == Long.MAX_VALUE ? 0 : (double) usedAfterGc / maxHeap;
  }

  /**
   * Whether the heap is fuller than {@code limit} after collection, a young collection's reading
   * over it confirmed by a full collection first (see the class comment).
   *
   * @param limit a share of the maximum heap
   * @return true when writes should be refused
   */
  boolean over(double limit) {
    if (occupancyAfterGc() <= limit || lastWasFull) {
      return occupancyAfterGc() > limit;
    }
    synchronized (this) {
      long now = System.nanoTime();
      if (!lastWasFull && now - lastConfirm >= CONFIRM_INTERVAL_NANOS) {
        lastConfirm = now;
        record(collectAndMeasure.getAsLong(), true);
      }
    }
    return occupancyAfterGc() > limit;
  }

  @Override
  public void close() {
    for (NotificationEmitter e : emitters) {
      try {
        e.removeNotificationListener(listener);
      } catch (ListenerNotFoundException ignored) {
        // already gone
      }
    }
  }
}
