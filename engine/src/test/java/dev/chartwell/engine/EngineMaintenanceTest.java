package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.junit.jupiter.api.Test;

/** The engine's maintenance once its thread has stopped, as while the engine closes. */
class EngineMaintenanceTest {

  @Test
  void aSealThatEndsWhileTheEngineClosesIsNotTakenForAStorageFailure() {
    ScheduledThreadPoolExecutor stopped = new ScheduledThreadPoolExecutor(1);
    stopped.shutdown();
    List<String> reported = new ArrayList<>();
    MemoryGuard memory =
        new MemoryGuard(Long.MAX_VALUE, Long.MAX_VALUE, 1, Map.of(), List::of, null);
    EngineMaintenance maintenance =
        new EngineMaintenance(
            stopped,
            new StorageLimits(null, 1 << 20, Clock.systemUTC(), List::of, id -> id, null),
            null,
            memory,
            List::of,
            reported::add);

    // Before, the refusal of the stopped thread was thrown to the sealing thread, which then
    // reported the source's storage as failed and refused its writes.
    maintenance.afterSeal(null);

    assertTrue(stopped.isShutdown());
    assertEquals(0, stopped.getCompletedTaskCount());
    assertEquals(List.of(), reported);
  }
}
