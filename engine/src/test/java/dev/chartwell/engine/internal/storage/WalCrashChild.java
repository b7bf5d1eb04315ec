package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.testing.KilledChild;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The process {@link WalCrashTest} kills: appends with {@code request} from two threads until it is
 * killed, printing each acknowledged append as {@code ack <run> <thread> <first counter> <count>
 * <last position> end} once {@code append} returned. Halts when its standard input closes, so it
 * never outlives a test JVM that died before killing it.
 */
final class WalCrashChild {
  private WalCrashChild() {}

  /**
   * @param args the log directory and the run number
   * @throws Exception when the log cannot be opened or fails
   */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int run = Integer.parseInt(args[1]);
    KilledChild.haltWhenParentGoes();
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    WriteAheadLog wal = WriteAheadLog.open(dir, FsyncPolicy.REQUEST, 64 * 1024);
    out.println("ready " + wal.lastPosition() + " end");
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      int thread = t;
      threads.add(
          new Thread(
              () -> {
                Random random = new Random(run * 31L + thread);
                long counter = 0;
                while (true) {
                  int n = 1 + random.nextInt(random.nextBoolean() ? 3 : 200);
                  List<byte[]> batch = new ArrayList<>(n);
                  for (int i = 0; i < n; i++) {
                    batch.add(payload(run, thread, counter + i));
                  }
                  long last = wal.append(batch);
                  synchronized (out) {
                    out.println(
                        "ack " + run + " " + thread + " " + counter + " " + n + " " + last
                            + " end");
                  }
                  counter += n;
                }
              }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
  }

  /** The record for one counter value of one thread of one run: its key and some filler. */
  static byte[] payload(int run, int thread, long counter) {
    String key = run + ":" + thread + ":" + counter + ":";
    StringBuilder sb = new StringBuilder(key);
    while (sb.length() < 150) {
      sb.append((char) ('a' + (sb.length() * 7 + counter) % 26));
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The key of a record: {@code run:thread:counter}. */
  static String key(byte[] payload) {
    String s = new String(payload, StandardCharsets.UTF_8);
    int end = s.indexOf(':', s.indexOf(':', s.indexOf(':') + 1) + 1);
    return s.substring(0, end);
  }
}
