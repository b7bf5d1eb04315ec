package dev.chartwell.engine.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Crash tests: run a {@code main} in a child JVM (on this test's class path), let it work for a
 * while after it says it is ready, and kill it with SIGKILL, as {@code kill -9} would.
 */
public final class KilledChild {
  private KilledChild() {}

  /**
   * Starts the child, waits for its first line of output, lets it run for {@code millis} more and
   * kills it.
   *
   * @param main the class whose {@code main} runs in the child
   * @param millis how long it runs after its first line
   * @param args the child's arguments
   * @return every line the child printed
   * @throws Exception when the child cannot be started or does not end after the kill
   */
  public static List<String> runAndKill(Class<?> main, long millis, String... args)
      throws Exception {
    return runAndKill(main, millis, lines -> true, args);
  }

  /**
   * Starts the child, waits for its first line of output, lets it run for {@code millis} more and
   * until its output shows the progress the test needs (however slow a busy machine makes it), and
   * kills it.
   *
   * @param main the class whose {@code main} runs in the child
   * @param millis how long it runs after its first line, at least
   * @param progressed whether the lines printed so far show enough progress to kill it
   * @param args the child's arguments
   * @return every line the child printed
   * @throws Exception when the child cannot be started or does not end after the kill
   */
  public static List<String> runAndKill(
      Class<?> main, long millis, Predicate<List<String>> progressed, String... args)
      throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process child = pb.start();
    List<String> lines = new ArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                  }
                }
              } catch (java.io.IOException e) {
                // the pipe closed with the process
              }
            });
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // a hung child only
    synchronized (lines) {
      while (lines.isEmpty() && child.isAlive() && System.nanoTime() < deadline) {
        lines.wait(100);
      }
    }
    Thread.sleep(millis); // a kill point of the caller's choosing, after what follows
    synchronized (lines) {
      while (!progressed.test(lines) && child.isAlive() && System.nanoTime() < deadline) {
        lines.wait(100);
      }
    }
    child.destroyForcibly(); // SIGKILL
    assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child ended");
    reader.join(30_000);
    synchronized (lines) {
      return new ArrayList<>(lines);
    }
  }

  /**
   * For the child's {@code main}: halts the child when its standard input closes, so that it never
   * outlives a test JVM that died before killing it.
   */
  public static void haltWhenParentGoes() {
    Thread guard =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // the test never writes; end of input means it is gone
                }
              } catch (java.io.IOException e) {
                // treat like end of input
              }
              Runtime.getRuntime().halt(3);
            });
    guard.setDaemon(true);
    guard.start();
  }
}
