package dev.chartwell.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's data directory lock survives a refused open in its own process: that refusal used to
 * close a channel on {@code chartwell.lock}, which released the server's lock (POSIX locks belong
 * to the process), and a second server in another process then got in.
 */
class DataDirectoryLockTest {
  static final long PID = ProcessHandle.current().pid();

  @TempDir Path tmp;

  @Test
  void aRefusedOpenInThisProcessKeepsOtherProcessesOut() throws Exception {
    Path dir = tmp.resolve("data");
    try (DataDirectory first = DataDirectory.open(dir)) {
      IOException same = assertThrows(IOException.class, () -> DataDirectory.open(dir));
      List<String> outcomes = openElsewhere(dir, 3);

      assertEquals(3, outcomes.size(), outcomes.toString());
      for (String o : outcomes) {
        assertTrue(o.startsWith("outcome refused "), "another process got in: " + o);
        assertTrue(o.contains(dir.toRealPath().toString()), "names the directory: " + o);
        assertTrue(o.contains("pid " + PID), "names the holder: " + o);
      }
      String m = same.getMessage();
      assertTrue(m.contains(dir.toString()), "names the directory: " + m);
      assertTrue(m.contains("this process") && m.contains("pid " + PID), "the holder: " + m);
    }
    assertEquals(List.of("outcome opened"), openElsewhere(dir, 1), "released on close");
  }

  /** Runs {@link DataDirectoryOpenChild} in another JVM; returns its outcome lines. */
  private static List<String> openElsewhere(Path dir, int attempts) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-Xmx64m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            DataDirectoryOpenChild.class.getName(),
            dir.toString(),
            Integer.toString(attempts));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process child = pb.start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
    return out.lines().filter(l -> l.startsWith("outcome ")).toList();
  }
}
