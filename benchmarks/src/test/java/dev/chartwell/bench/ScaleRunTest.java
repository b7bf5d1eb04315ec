package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code scale} command on a small data set: loaded once, then opened as it is. */
class ScaleRunTest {
  @TempDir Path dir;

  @Test
  void loadsMeasuresAndChecksThenOpensWhatItLoaded() {
    Map<String, String> flags =
        Map.of("rows", "30000", "dir", dir.resolve("data").toString(), "rounds", "2");
    List<String> first = run(flags);
    assertTrue(first.get(0).startsWith("generation alone: 30,000 events in "), first.get(0));
    assertTrue(first.stream().anyMatch(l -> l.startsWith("load: 30,000 events in ")), "" + first);
    assertTrue(
        first.stream()
            .anyMatch(l -> l.matches("disk: [0-9,]+ bytes in .* [0-9.]+ bytes per event")),
        "" + first);
    for (String q : List.of("Q1", "Q4", "Q5")) {
      assertEquals(
          1,
          first.stream()
              .filter(l -> l.matches(q + ": first [0-9.]+ ms, median of 2 after it .* checked\\)"))
              .count(),
          q + " in " + first);
    }
    List<String> second = run(flags);
    assertTrue(
        second.stream().anyMatch(l -> l.startsWith("opened: 30,000 events in ")), "" + second);
  }

  private static List<String> run(Map<String, String> flags) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ScaleRun.run(flags, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }
}
