package dev.chartwell.engine.internal.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.EventBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's synthetic events have the value shapes of real logs that decide which code a query
 * runs: repeated times, times on bucket bounds, repeated trace ids and ids sharing leading bytes,
 * and few server errors.
 */
class SyntheticLogsTest {
  private static final long START = 1_767_139_200_123L; // not on a whole second
  private static final long END = START + 24 * 3_600_000L;
  private static final int TOTAL = 20_000;

  private static List<SyntheticLogs.Row> events(long seed) {
    SyntheticLogs logs = new SyntheticLogs(seed, START, END);
    List<SyntheticLogs.Row> events = new ArrayList<>();
    for (int i = 0; i < TOTAL; i++) {
      SyntheticLogs.Row row = new SyntheticLogs.Row();
      logs.next(i, TOTAL, row);
      events.add(row);
    }
    return events;
  }

  @Test
  void timesStayInTheRangeAndRepeat() {
    List<SyntheticLogs.Row> events = events(42);
    assertEquals(TOTAL, events.size());
    Map<Long, Integer> perTime = new HashMap<>();
    long wholeSeconds = 0;
    for (SyntheticLogs.Row e : events) {
      long ts = e.timestamp;
      assertTrue(ts >= START && ts <= END, "time out of range: " + ts);
      perTime.merge(ts, 1, Integer::sum);
      wholeSeconds += ts % 1000 == 0 ? 1 : 0;
    }
    // the ordered 40% and a quarter of the rest on whole seconds (and so on minute bounds too)
    assertTrue(wholeSeconds >= TOTAL * 0.5, "whole seconds: " + wholeSeconds);
    assertTrue(perTime.size() < TOTAL, "no two events share a time");
    assertTrue(perTime.keySet().stream().anyMatch(t -> t % 60_000 == 0), "none on a minute bound");
    // the ordered part comes first, in order but for a few up to five minutes late
    int ordered = (int) (TOTAL * SyntheticLogs.ORDERED);
    int late = 0;
    long latest = Long.MIN_VALUE;
    for (int i = 0; i < ordered; i++) {
      long ts = events.get(i).timestamp;
      if (ts < latest) {
        late++;
        assertTrue(latest - ts <= 300_000, "later than five minutes: " + (latest - ts));
      }
      latest = Math.max(latest, ts);
    }
    assertTrue(late > 0 && late < ordered * SyntheticLogs.LATE * 2, "late: " + late);
  }

  @Test
  void traceIdsRepeatAndShareLeadingBytes() {
    Map<String, Integer> perId = new HashMap<>();
    for (SyntheticLogs.Row e : events(42)) {
      String id = e.traceId;
      assertTrue(id.matches("[0-9a-f]{32}"), id);
      perId.merge(id, 1, Integer::sum);
    }
    long repeated = perId.values().stream().filter(n -> n > 1).count();
    assertTrue(repeated > TOTAL * SyntheticLogs.SAME_TRACE / 4, "repeated ids: " + repeated);
    // different ids with the same first 8 bytes (a distinct count's prefix key)
    Map<String, Set<String>> byPrefix = new HashMap<>();
    for (String id : perId.keySet()) {
      byPrefix.computeIfAbsent(id.substring(0, 8), k -> new HashSet<>()).add(id);
    }
    assertTrue(byPrefix.values().stream().anyMatch(ids -> ids.size() > 1), "no shared prefix");
  }

  @Test
  void serverErrorsAreRare() {
    int withStatus = 0;
    int errors = 0;
    for (SyntheticLogs.Row e : events(42)) {
      if (e.status != 0) {
        withStatus++;
        errors += e.status >= 500 ? 1 : 0;
      }
    }
    double share = (double) errors / withStatus;
    // under 4,096 in 65,536 rows (6.25%): their row sets are arrays, as on real data
    assertTrue(share > 0.04 && share < 0.0625, "5xx share " + share);
  }

  @Test
  void theSameSeedGivesTheSameEvents() {
    SyntheticLogs a = new SyntheticLogs(7, START, END);
    SyntheticLogs b = new SyntheticLogs(7, START, END);
    SyntheticLogs.Row x = new SyntheticLogs.Row();
    SyntheticLogs.Row y = new SyntheticLogs.Row();
    for (int i = 0; i < 2_000; i++) {
      a.next(i, 2_000, x);
      b.next(i, 2_000, y);
      assertEquals(
          List.of(x.timestamp, x.traceId, x.body, x.host, x.status, x.method),
          List.of(y.timestamp, y.traceId, y.body, y.host, y.status, y.method));
      assertEquals(Double.doubleToLongBits(x.duration), Double.doubleToLongBits(y.duration));
    }
  }

  @Test
  void aBatchHoldsTheEventsWithTheirAbsentFields() {
    EventBatch batch = new EventBatch();
    new SyntheticLogs(42, START, END).put(batch, 0, TOTAL, TOTAL);
    assertEquals(TOTAL, batch.size());
    long withoutDuration = events(42).stream().filter(e -> Double.isNaN(e.duration)).count();
    assertTrue(withoutDuration > 0 && withoutDuration < TOTAL / 10, "" + withoutDuration);
  }
}
