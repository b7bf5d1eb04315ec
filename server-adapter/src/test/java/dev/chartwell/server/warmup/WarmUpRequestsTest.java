package dev.chartwell.server.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.internal.warmup.SyntheticLogs;
import dev.chartwell.engine.internal.warmup.WarmUpQueries;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warm-up's events and queries as the server's requests carry them. */
class WarmUpRequestsTest {
  private static final long END = 1_767_225_600_000L;
  private final ObjectMapper mapper = new ObjectMapper();

  @Test
  void eventsAreOneJsonObjectPerLineWithTheRowsFields() throws Exception {
    SyntheticLogs logs = new SyntheticLogs(42, END - 86_400_000L, END);
    SyntheticLogs same = new SyntheticLogs(42, END - 86_400_000L, END);
    String body = new String(WarmUpRequests.events(logs, 0, 3_000, 3_000), StandardCharsets.UTF_8);
    String[] lines = body.split("\n");
    assertEquals(3_000, lines.length);
    SyntheticLogs.Row row = new SyntheticLogs.Row();
    int withoutDuration = 0;
    for (int i = 0; i < lines.length; i++) {
      same.next(i, 3_000, row);
      JsonNode e = mapper.readTree(lines[i]);
      assertEquals(row.timestamp, e.get("Timestamp").asLong());
      assertEquals(row.traceId, e.get("TraceId").asText());
      assertEquals(row.body, e.get("Body").asText());
      assertEquals(row.method, e.get("LogAttributes").get("http.method").asText());
      assertEquals(Double.isNaN(row.duration), !e.has("Duration"));
      assertEquals(row.status == 0, !e.has("status"));
      withoutDuration += e.has("Duration") ? 0 : 1;
    }
    assertTrue(withoutDuration > 0, "every event has a duration");
  }

  @Test
  void chartBodiesCarryEverySeriesAsked() throws Exception {
    List<ChartQuery> queries = WarmUpQueries.of("src", END);
    List<String> bodies = WarmUpRequests.charts(queries);
    assertEquals(queries.size(), bodies.size());
    for (int q = 0; q < queries.size(); q++) {
      ChartQuery query = queries.get(q);
      JsonNode body = mapper.readTree(bodies.get(q));
      assertEquals(query.startTime(), body.get("startTime").asLong());
      assertEquals(query.granularity().name(), body.get("granularity").asText());
      assertEquals(query.series().size(), body.get("series").size());
      for (int s = 0; s < query.series().size(); s++) {
        Series series = query.series().get(s);
        JsonNode json = body.get("series").get(s);
        assertEquals(series.aggFn().wireName(), json.get("aggFn").asText());
        assertEquals(series.where() == null ? "" : series.where(), json.path("where").asText());
        assertEquals(series.groupBy().size(), json.path("groupBy").size());
      }
    }
    assertTrue(bodies.stream().anyMatch(b -> b.contains("\"seriesReturnType\":\"ratio\"")));
    assertTrue(bodies.stream().anyMatch(b -> b.contains("\"whereLanguage\":\"sql\"")));
  }
}
