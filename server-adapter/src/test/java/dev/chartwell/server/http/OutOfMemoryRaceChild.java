package dev.chartwell.server.http;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;

/**
 * A child process for {@link OutOfMemoryTest}: two threads die of an out-of-memory error at the
 * same moment. Its error stream holds the first line back until the other thread has either started
 * a line of its own or is parked, so the race that once wrote two lines is played out every time
 * rather than now and then.
 */
public final class OutOfMemoryRaceChild {
  private OutOfMemoryRaceChild() {}

  /**
   * @param args unused
   * @throws Exception when interrupted
   */
  public static void main(String[] args) throws Exception {
    CyclicBarrier start = new CyclicBarrier(2);
    Runnable die =
        () -> {
          try {
            start.await();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          throw new OutOfMemoryError("Java heap space");
        };
    Thread first = new Thread(die, "racer-1");
    Thread second = new Thread(die, "racer-2");
    HeldBackStream err = new HeldBackStream(System.err, List.of(first, second));
    FatalErrors fatal = new FatalErrors(err);
    first.setUncaughtExceptionHandler(fatal);
    second.setUncaughtExceptionHandler(fatal);
    first.start();
    second.start();
    first.join();
    second.join();
  }

  /** Writes a line only once every other racer is writing one too or waits parked. */
  private static final class HeldBackStream extends PrintStream {
    private final List<Thread> racers;
    private final Set<Thread> writing = ConcurrentHashMap.newKeySet();

    HeldBackStream(OutputStream out, List<Thread> racers) {
      super(out, true);
      this.racers = racers;
    }

    @Override
    public void println(String line) {
      writing.add(Thread.currentThread());
      while (!othersWritingOrParked()) {
        Thread.onSpinWait();
      }
      super.println(line);
    }

    private boolean othersWritingOrParked() {
      for (Thread racer : racers) {
        if (racer != Thread.currentThread()
            && !writing.contains(racer)
            && racer.getState() != Thread.State.WAITING) {
          return false;
        }
      }
      return true;
    }
  }
}
