package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real OutOfMemoryError while serving a request makes the process write one line and exit with
 * status 3, instead of living on as a zombie that answers /health and fails everything else: after
 * large arrays, and after small objects that fill the heap to its last bytes, where building the
 * line could fail in turn.
 */
class OutOfMemoryTest {
  @ParameterizedTest
  @ValueSource(strings = {"/hoard", "/hoard-small"})
  void outOfMemoryInARequestExitsWithOneLine(String route, @TempDir Path dir) throws Exception {
    Path err = dir.resolve("err.txt");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                // The test classpath holds two SLF4J providers (logback, for loki4j's appender, and
                // the server's JUL one): name the server's, so SLF4J writes nothing to stderr.
                "-Dslf4j.provider=org.slf4j.jul.JULServiceProvider",
                "-Dslf4j.internal.verbosity=WARN",
                "-cp",
                System.getProperty("java.class.path"),
                OutOfMemoryChild.class.getName())
            .redirectError(err.toFile())
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertTrue(line != null && line.startsWith("port "), "child said: " + line);
      HttpTestClient http = new HttpTestClient(Integer.parseInt(line.substring(5)));
      assertEquals(200, http.send("GET", "/health", null).statusCode());
      try {
        http.send("GET", route, null);
      } catch (java.io.IOException expected) {
        // the process is gone before it answers
      }
      boolean exited = child.waitFor(30, TimeUnit.SECONDS);
      assertTrue(
          exited, () -> "the process did not exit; it wrote:\n" + String.join("\n", lines(err)));
      assertEquals(FatalErrors.EXIT_OUT_OF_MEMORY, child.exitValue());
      List<String> lines = lines(err);
      assertEquals(1, lines.size(), String.join("\n", lines));
      assertTrue(lines.get(0).startsWith("chartwell: out of memory in request "), lines.get(0));
    } finally {
      child.destroyForcibly();
    }
  }

  /**
   * Two threads that run out of memory at once write one line between them: the second waits for
   * the first to halt (both once wrote a line, now and then, and the test above failed on it).
   */
  @Test
  void twoThreadsOutOfMemoryAtOnceWriteOneLine(@TempDir Path dir) throws Exception {
    Path err = dir.resolve("err.txt");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                OutOfMemoryRaceChild.class.getName())
            .redirectError(err.toFile())
            .start();
    try {
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not exit");
      assertEquals(FatalErrors.EXIT_OUT_OF_MEMORY, child.exitValue());
      List<String> lines = lines(err);
      assertEquals(1, lines.size(), String.join("\n", lines));
      assertTrue(
          lines.get(0).startsWith("chartwell: out of memory in thread racer-"), lines.get(0));
    } finally {
      child.destroyForcibly();
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (java.io.IOException e) {
      return List.of("(" + file + " unreadable: " + e + ")");
    }
  }
}
