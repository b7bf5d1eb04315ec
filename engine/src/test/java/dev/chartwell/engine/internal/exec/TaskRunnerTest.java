package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.chartwell.engine.QueryControl;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runner of a query's tasks: on the pool and on the calling thread, results in task order. */
class TaskRunnerTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final TaskRunner runner = new TaskRunner(pool, 2);

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  @Test
  void resultsComeInTaskOrderWhoeverRanThem() {
    List<Callable<Integer>> tasks = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      int n = i;
      tasks.add(() -> n * n);
    }
    List<Integer> results = runner.execute(tasks, new QueryControl());
    for (int i = 0; i < 200; i++) {
      assertEquals(i * i, results.get(i));
    }
  }

  @Test
  @Timeout(60) // a runner that only waits for the workers would wait here for ever
  void aQueryFinishesOnItsOwnThreadWhileEveryWorkerIsBusy() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch busy = new CountDownLatch(2);
    for (int i = 0; i < 2; i++) {
      pool.execute(
          () -> {
            busy.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
    }
    busy.await();
    Thread caller = Thread.currentThread();
    AtomicInteger onCaller = new AtomicInteger();
    List<Callable<Integer>> tasks = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int n = i;
      tasks.add(
          () -> {
            if (Thread.currentThread() == caller) {
              onCaller.incrementAndGet();
            }
            return n;
          });
    }
    assertEquals(List.of(0, 1, 2, 3, 4), runner.execute(tasks, new QueryControl()));
    assertEquals(5, onCaller.get(), "the workers were busy: the caller ran every task");
    release.countDown();
  }

  @Test
  void aTaskThatFailsOnTheCallingThreadFailsTheQuery() {
    IllegalStateException boom = new IllegalStateException("boom");
    List<Callable<Integer>> tasks = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      int n = i;
      tasks.add(
          () -> {
            if (n == 7) {
              throw boom;
            }
            return n;
          });
    }
    assertSame(
        boom,
        assertThrows(IllegalStateException.class, () -> runner.execute(tasks, new QueryControl())));
  }
}
