package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code interleaved} command on a small data set: a median per query it ran. */
class InterleavedQueriesTest {
  @Test
  void printsAMedianPerQuery() {
    List<String> lines =
        run(Map.of("rows", "20000", "storage", "heap", "rounds", "3", "warmup", "1"));
    assertEquals(7, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).startsWith("20,000 events (heap), 3 rounds after 1 warm-up rounds"));
    for (int q = 1; q <= 6; q++) {
      assertTrue(lines.get(q).matches("Q" + q + " +[0-9.]+ ms"), lines.get(q));
    }
  }

  @Test
  void oneQueryWithTheCachesEvicted() {
    List<String> lines =
        run(
            Map.of(
                "rows",
                "20000",
                "storage",
                "heap",
                "rounds",
                "3",
                "warmup",
                "1",
                "only",
                "q4",
                "evict-mb",
                "1"));
    assertEquals(2, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).endsWith("only Q4, 1 MiB walked before each; medians:"), lines.get(0));
    assertTrue(lines.get(1).startsWith("Q4 "), lines.get(1));
  }

  @Test
  void refusesAnUnknownQuery() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run(Map.of("rows", "2000", "storage", "heap", "only", "q7")));
    assertTrue(e.getMessage().contains("q1 to q6"), e.getMessage());
  }

  private static List<String> run(Map<String, String> flags) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    InterleavedQueries.run(flags, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }
}
