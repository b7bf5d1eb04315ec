package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ServerTimingTest {
  private static String millis(long nanos) {
    StringBuilder sb = new StringBuilder();
    ServerTiming.appendMillis(sb, nanos);
    return sb.toString();
  }

  @Test
  void durationsAreMillisecondsWithThreeDecimals() {
    assertEquals("0.000", millis(0));
    assertEquals("0.000", millis(-5)); // a clock that stepped back is not a negative duration
    assertEquals("0.001", millis(1_000));
    assertEquals("0.001", millis(500)); // rounded to the microsecond
    assertEquals("0.010", millis(10_000));
    assertEquals("1.234", millis(1_234_000));
    assertEquals("12345.678", millis(12_345_678_000L));
  }

  @Test
  void metricsAreListedInOrderAndTotalLast() {
    ServerTiming t = new ServerTiming(1_000_000);
    t.add("engine", 2_500_000);
    t.add("write", 300_000);
    assertEquals("engine;dur=2.500, write;dur=0.300, total;dur=4.000", t.header(5_000_000));
    assertEquals("total;dur=0.000", new ServerTiming(7).header(7));
  }

  @Test
  void metricNamesAreTokens() {
    ServerTiming t = new ServerTiming(0);
    assertThrows(IllegalArgumentException.class, () -> t.add("two words", 1));
    assertThrows(IllegalArgumentException.class, () -> t.add("a;dur=1", 1));
    assertThrows(IllegalArgumentException.class, () -> t.add("", 1));
    assertThrows(IllegalArgumentException.class, () -> t.add("caf\u00e9", 1));
    assertThrows(IllegalArgumentException.class, () -> t.add("a,b", 1));
    t.add("Seal-wait_2", 1_000);
    assertEquals("Seal-wait_2;dur=0.001, total;dur=0.000", t.header(0));
  }
}
