package dev.chartwell.engine;

import dev.chartwell.engine.testing.KilledChild;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The process {@link EngineCrashTest} kills: opens a durable engine (recovering what the last one
 * left), then appends from two threads to two sources, small segments so that seals, manifest
 * publications and log truncations happen all the time, and prints each acknowledged append as
 * {@code ack <source> <first key> <count> end} once it returned. A third thread seals the heads
 * every few milliseconds, as idle seals do, so that small segments are merged all the time too.
 * Halts when its standard input closes, so it never outlives a test JVM that died before killing
 * it.
 */
final class EngineCrashChild {
  private EngineCrashChild() {}

  /**
   * @param args the data directory and the run number
   */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int run = Integer.parseInt(args[1]);
    KilledChild.haltWhenParentGoes();
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Engine engine =
        Engine.builder()
            .dataDirectory(dir)
            .fsyncPolicy(FsyncPolicy.REQUEST)
            .segmentRows(500)
            .workerThreads(2)
            .reporter(line -> {})
            .build();
    List<Source> sources = new ArrayList<>();
    for (String id : List.of("a", "b")) {
      sources.add(
          engine.source(id).orElseGet(() -> engine.createSource(DurableEngineTest.spec(id))));
    }
    out.println("ready end");
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Source source = sources.get(t);
      int thread = t;
      threads.add(
          new Thread(
              () -> {
                Random random = new Random(run * 31L + thread);
                long counter = 0;
                while (true) {
                  int n = 1 + random.nextInt(random.nextBoolean() ? 3 : 400);
                  List<Event> batch = new ArrayList<>(n);
                  for (int i = 0; i < n; i++) {
                    batch.add(event(run, counter + i));
                  }
                  source.appendBatch(batch);
                  synchronized (out) {
                    out.println("ack " + source.id() + " " + key(run, counter) + " " + n + " end");
                  }
                  counter += n;
                }
              }));
    }
    threads.add(
        new Thread(
            () -> {
              Random random = new Random(run);
              while (true) {
                for (Source s : sources) {
                  s.core().seal();
                }
                try {
                  Thread.sleep(random.nextInt(5));
                } catch (InterruptedException e) {
                  return;
                }
              }
            }));
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
  }

  /** A key that orders by run, then counter: run * 10^9 + counter. */
  static long key(int run, long counter) {
    return run * 1_000_000_000L + counter;
  }

  static Event event(int run, long counter) {
    long key = key(run, counter);
    return new Event(
        DurableEngineTest.T0 + key % 86_400_000L,
        Map.of(
            "key",
            key,
            "Body",
            "event " + key + " of run " + run + (counter % 13 == 0 ? " timeout" : ""),
            "status",
            counter % 5 == 0 ? 500L : 200L,
            "Duration",
            counter * 0.5));
  }
}
