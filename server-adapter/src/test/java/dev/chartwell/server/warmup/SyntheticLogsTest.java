package dev.chartwell.server.warmup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
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

  private static List<JsonNode> events(long seed) throws Exception {
    SyntheticLogs logs = new SyntheticLogs(seed, START, END);
    ObjectMapper mapper = new ObjectMapper();
    List<JsonNode> events = new ArrayList<>();
    for (int from = 0; from < TOTAL; from += 5_000) {
      String body = new String(logs.body(from, 5_000, TOTAL), StandardCharsets.UTF_8);
      for (String line : body.split("\n")) {
        events.add(mapper.readTree(line));
      }
    }
    return events;
  }

  @Test
  void timesStayInTheRangeAndRepeat() throws Exception {
    List<JsonNode> events = events(42);
    assertEquals(TOTAL, events.size());
    Map<Long, Integer> perTime = new HashMap<>();
    long wholeSeconds = 0;
    for (JsonNode e : events) {
      long ts = e.get("Timestamp").asLong();
      assertTrue(ts >= START && ts <= END, "time out of range: " + ts);
      perTime.merge(ts, 1, Integer::sum);
      wholeSeconds += ts % 1000 == 0 ? 1 : 0;
    }
    // the ordered 40% and a quarter of the rest on whole seconds (and so on minute bounds too)
    assertTrue(wholeSeconds >= TOTAL * 0.5, "whole seconds: " + wholeSeconds);
    assertTrue(perTime.size() < TOTAL, "no two events share a time");
    assertTrue(perTime.keySet().stream().anyMatch(t -> t % 60_000 == 0), "none on a minute bound");
    // the ordered part comes first, in order
    int ordered = (int) (TOTAL * SyntheticLogs.ORDERED);
    for (int i = 1; i < ordered; i++) {
      assertTrue(
          events.get(i - 1).get("Timestamp").asLong() <= events.get(i).get("Timestamp").asLong());
    }
  }

  @Test
  void traceIdsRepeatAndShareLeadingBytes() throws Exception {
    Map<String, Integer> perId = new HashMap<>();
    for (JsonNode e : events(42)) {
      String id = e.get("TraceId").asText();
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
  void serverErrorsAreRare() throws Exception {
    int withStatus = 0;
    int errors = 0;
    for (JsonNode e : events(42)) {
      if (e.has("status")) {
        withStatus++;
        errors += e.get("status").asInt() >= 500 ? 1 : 0;
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
    assertArrayEquals(a.body(0, 1_000, 2_000), b.body(0, 1_000, 2_000));
    assertArrayEquals(a.body(1_000, 1_000, 2_000), b.body(1_000, 1_000, 2_000));
  }
}
