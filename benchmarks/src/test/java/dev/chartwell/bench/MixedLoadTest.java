package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The {@code mixed} command on a small data set: four phases, each with its latencies, and the
 * appending thread's CPU time in each phase that appended (it was once read from outside the thread
 * after it had been told to stop, and came out as 0.00 s when the thread ended first).
 */
class MixedLoadTest {
  private static final Pattern PER_MILLION =
      Pattern.compile("per million events: sealing ([0-9.]+) s, appending ([0-9.]+) s");

  @Test
  void everyPhaseReportsItsLatenciesAndTheAppendingThreadsCpu() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    MixedLoad.run(
        Map.of("rows", "20000", "rate", "5000", "qps", "4", "seconds", "1"),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    List<String> phases = lines.stream().filter(l -> l.contains(" p50 ")).toList();
    assertEquals(4, phases.size(), String.join("\n", lines));
    assertTrue(phases.get(0).startsWith("alone "), phases.get(0));
    assertTrue(phases.get(1).startsWith("ingesting 5000/s "), phases.get(1));
    assertTrue(phases.get(2).startsWith("ingesting half capacity "), phases.get(2));
    assertTrue(phases.get(3).startsWith("alone, data as left "), phases.get(3));
    List<String> appending = lines.stream().filter(l -> l.contains("per million events")).toList();
    assertEquals(2, appending.size(), String.join("\n", lines));
    for (String line : appending) {
      Matcher m = PER_MILLION.matcher(line);
      assertTrue(m.find(), line);
      assertTrue(Double.parseDouble(m.group(2)) > 0, "no appending CPU in: " + line);
    }
  }
}
