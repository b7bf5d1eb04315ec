package dev.chartwell.engine;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * How full the heap is after garbage collection: the share of the maximum heap still in use after
 * the latest collection. Unlike the current usage, which includes garbage, this is what the data
 * really holds, so writes can be refused before the heap runs out rather than after.
 */
final class HeapWatch implements AutoCloseable {
  private final long maxHeap = Runtime.getRuntime().maxMemory();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::onNotification;
  private volatile long usedAfterGc;

  HeapWatch() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
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
    usedAfterGc = used;
  }

  /**
   * @return the share of the maximum heap in use after the latest collection (0 before any)
   */
  double occupancyAfterGc() {
    return maxHeap == Long.MAX_VALUE ? 0 : (double) usedAfterGc / maxHeap;
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
