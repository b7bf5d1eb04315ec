package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LoadProgressTest {
  @Test
  void aLineSaysEventsBytesRatesAndTimeLeft() {
    assertEquals(
        "1,200,000 events, 321.6 of 2,683.7 MB (11%), 100,000 events/s, 26.8 MB/s, 1m 28s left",
        LoadProgress.line(1_200_000, 321_600_000, 2_683_700_000L, 12));
    assertEquals(
        "0 events, 0.0 of 268.4 MB (0%), 0 events/s, 0.0 MB/s, time left unknown",
        LoadProgress.line(0, 0, 268_400_000, 0.5));
    assertEquals(
        "10 events, 0.0 of 0.0 MB (100%), 10 events/s, 0.0 MB/s, 0s left",
        LoadProgress.line(10, 2_000, 2_000, 1));
  }

  @Test
  void durationsAreShort() {
    assertEquals("0s", LoadProgress.duration(0.2));
    assertEquals("59s", LoadProgress.duration(59.4));
    assertEquals("1m 00s", LoadProgress.duration(59.6));
    assertEquals("3m 05s", LoadProgress.duration(185));
    assertEquals("1h 02m", LoadProgress.duration(3_725));
    assertEquals("0s", LoadProgress.duration(-3));
  }

  @Test
  void onATerminalTheLineIsRewrittenAndClearedAtTheEnd() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (LoadProgress p = new LoadProgress(1_000, out, true, false)) {
      p.add(10, 100);
      p.print(); // what each tick does
    }
    String s = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(s.startsWith("\r10 events, 0.0 of 0.0 MB (10%)"), s);
    assertTrue(s.endsWith("\r\033[K"), "the line is cleared: " + s);
    assertTrue(!s.contains("\n"), "no new lines on a terminal: " + s);
  }

  @Test
  void quietPrintsNothing() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (LoadProgress p =
        new LoadProgress(
            1_000, new PrintStream(bytes, true, StandardCharsets.UTF_8), false, true)) {
      p.add(10, 100);
      assertEquals(10, p.events());
    }
    assertEquals(0, bytes.size());
  }
}
