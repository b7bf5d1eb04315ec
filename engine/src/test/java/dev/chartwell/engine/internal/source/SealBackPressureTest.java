package dev.chartwell.engine.internal.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When sealing falls behind, appends wait instead of piling heads up on the heap: the sealing
 * thread is held shut here, so the backlog can only grow by appends.
 */
@Timeout(
    value = 60,
    threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a lost wake-up fails, not hangs
class SealBackPressureTest {
  private static final int ROWS = 10;

  /** Runs nothing until opened, then everything it was given and is given, on one thread. */
  private static final class Gate implements Executor {
    private final List<Runnable> held = new ArrayList<>();
    private boolean open;

    @Override
    public synchronized void execute(Runnable task) {
      if (open) {
        start(task);
      } else {
        held.add(task);
      }
    }

    synchronized void open() {
      open = true;
      held.forEach(Gate::start);
      held.clear();
    }

    private static void start(Runnable task) {
      Thread t = new Thread(task, "test-sealer");
      t.setDaemon(true);
      t.start();
    }
  }

  private static SourceCore source(Executor sealers) {
    SourceSpec spec =
        new SourceSpec(null, "logs", SourceKind.LOG, "Timestamp", "Body", "Body", List.of());
    return SourceCore.create(
        new SourceCore.Setup(
            "s1",
            spec,
            ROWS,
            Long.MAX_VALUE,
            s -> {},
            () -> {},
            SourceStorage.inMemory(),
            sealers));
  }

  private static List<Event> batch(int first) {
    List<Event> events = new ArrayList<>();
    for (int i = first; i < first + ROWS; i++) {
      events.add(new Event(1_700_000_001_000L + i, Map.of("Body", "event " + i)));
    }
    return events;
  }

  /** Appends one batch on its own thread, returning the thread and the append's outcome. */
  private static CompletableFuture<AppendResult> appendAsync(
      SourceCore s, int first, List<Thread> t) {
    CompletableFuture<AppendResult> f = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                f.complete(s.append(Batches.of(batch(first))));
              } catch (RuntimeException e) {
                f.completeExceptionally(e);
              }
            });
    thread.setDaemon(true);
    t.add(thread);
    thread.start();
    return f;
  }

  private static void awaitBlocked(Thread t) throws InterruptedException {
    // Until it waits (the class's 60 s timeout stops a hung test).
    while (t.getState() != Thread.State.WAITING && t.isAlive()) {
      Thread.sleep(1);
    }
    assertEquals(Thread.State.WAITING, t.getState(), "the appender waits for the sealing thread");
  }

  @Test
  void appendsWaitWhileTheBacklogIsFullAndAllGoOnOnceSealingCatchesUp() throws Exception {
    Gate gate = new Gate();
    SourceCore s = source(gate);
    int first = 0;
    // A backlog of up to MAX_PENDING + 1 heads is taken without waiting.
    for (int i = 0; i <= SealQueue.MAX_PENDING; i++) {
      assertEquals(ROWS, s.append(Batches.of(batch(first))).accepted());
      first += ROWS;
    }
    List<Thread> threads = new ArrayList<>();
    List<CompletableFuture<AppendResult>> waiting = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      waiting.add(appendAsync(s, first, threads));
      first += ROWS;
    }
    for (Thread t : threads) {
      awaitBlocked(t);
    }
    for (CompletableFuture<AppendResult> f : waiting) {
      assertFalse(f.isDone(), "no append goes on while the backlog is full");
    }
    assertEquals(
        (SealQueue.MAX_PENDING + 1) * ROWS, s.stats().rows(), "the waiting appends took no event");

    gate.open();
    for (CompletableFuture<AppendResult> f : waiting) {
      assertEquals(ROWS, f.get(30, TimeUnit.SECONDS).accepted());
    }
    s.awaitSealing();
    assertEquals(first, s.stats().rows());
    assertEquals(first / ROWS, s.sealedSegments().size());
    assertEquals(3, s.stats().appendsHeldBack(), "each of the three waiting appends is counted");
  }

  @Test
  void shuttingDownWakesTheWaitingAppendersWithAClearRefusal() throws Exception {
    Gate gate = new Gate(); // shut: nothing is sealed
    SourceCore s = source(gate);
    int first = 0;
    for (int i = 0; i <= SealQueue.MAX_PENDING; i++) {
      s.append(Batches.of(batch(first)));
      first += ROWS;
    }
    List<Thread> threads = new ArrayList<>();
    CompletableFuture<AppendResult> waiting = appendAsync(s, first, threads);
    awaitBlocked(threads.get(0));
    // shutting down wakes the appender, then waits for the sealing thread, which the gate holds
    CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> s.shutdown(false));
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> waiting.get(30, TimeUnit.SECONDS));
    EngineClosedException refused = assertInstanceOf(EngineClosedException.class, e.getCause());
    assertTrue(refused.getMessage().contains("closed"), refused.getMessage());
    gate.open();
    closing.get(30, TimeUnit.SECONDS);
  }
}
