package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code builds} command on this build twice (its class path as both), and its bad flags. */
class BuildsInTurnTest {

  @Test
  void sealsEachBuildInTurnAndPrintsOneLineEach() throws Exception {
    String classPath = System.getProperty("java.class.path");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BuildsInTurn.run(
        Map.of(
            "benchmark", "seal", "jars", classPath + "," + classPath, "rounds", "2", "warmup", "0"),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals("seal, 2 builds in turn, 2 rounds after 0 warm-up rounds:", lines[0]);
    assertEquals(3, lines.length, String.join("\n", lines));
    assertTrue(lines[1].matches(".* median +[0-9.]+ ms  p25 +[0-9.]+  min +[0-9.]+"), lines[1]);
  }

  @Test
  void namesWhatIsWrongWithItsFlags() {
    assertEquals(
        "--benchmark takes seal or ingest, got 'query'",
        assertThrows(
                IllegalArgumentException.class,
                () -> BuildsInTurn.run(Map.of("benchmark", "query", "jars", "x"), System.out))
            .getMessage());
    assertEquals(
        "no bench jar at /nonexistent/bench.jar",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    BuildsInTurn.run(
                        Map.of("benchmark", "seal", "jars", "/nonexistent/bench.jar"), System.out))
            .getMessage());
  }
}
