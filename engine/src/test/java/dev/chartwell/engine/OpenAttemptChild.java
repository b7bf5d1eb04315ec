package dev.chartwell.engine;

import dev.chartwell.engine.testing.KilledChild;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The other process of {@link DataDirectoryLockTest}: tries, again and again, to open an engine on
 * a data directory another process holds, exactly as an application would ({@code
 * Engine.builder().dataDirectory(dir).build()}), and prints each outcome as one line: {@code
 * outcome opened} or {@code outcome refused <message>}. Its first line is {@code pid <its pid>}.
 */
final class OpenAttemptChild {
  private OpenAttemptChild() {}

  /**
   * @param args the data directory, how many opens to try, and the pause between them (ms)
   */
  public static void main(String[] args) throws Exception {
    KilledChild.haltWhenParentGoes();
    Path dir = Path.of(args[0]);
    int attempts = Integer.parseInt(args[1]);
    long pause = Long.parseLong(args[2]);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println("pid " + ProcessHandle.current().pid());
    for (int i = 0; i < attempts; i++) {
      try (Engine engine = Engine.builder().dataDirectory(dir).build()) {
        out.println("outcome opened");
      } catch (RuntimeException e) {
        out.println("outcome refused " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
      }
      Thread.sleep(pause);
    }
    out.println("done");
  }
}
