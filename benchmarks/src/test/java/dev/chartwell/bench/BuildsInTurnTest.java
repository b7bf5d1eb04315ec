package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void runsAQueryOnEachBuildsOwnCopyOfTheData(@TempDir Path data) throws Exception {
    String classPath = System.getProperty("java.class.path");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BuildsInTurn.run(
        Map.of(
            "benchmark",
            "q2",
            "jars",
            classPath + "," + classPath,
            "data",
            data.toString(),
            "rows",
            "20000",
            "rounds",
            "3",
            "warmup",
            "1"),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals("q2, 2 builds in turn, 3 rounds after 1 warm-up rounds:", lines[0]);
    assertEquals(3, lines.length, String.join("\n", lines));
    assertTrue(Files.isDirectory(data.resolve("0")) && Files.isDirectory(data.resolve("1")));
  }

  @Test
  void namesWhatIsWrongWithItsFlags() {
    assertEquals(
        "--benchmark takes seal, ingest or q1 to q6, got 'query'",
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
