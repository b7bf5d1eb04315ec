package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.bench.BenchLogs;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchQueriesTest {
  static final long END = BenchLogs.END;
  static final long START = END - BenchLogs.SPAN;
  final List<BenchQueries.Query> qs = BenchQueries.all("SRC", "t", END);

  @Test
  void theSqlAsksWhatTheChartRequestAsks() {
    String day = " WHERE Timestamp >= " + START + " AND Timestamp <= " + END;
    assertEquals(
        "SELECT intDiv(Timestamp, 60000) * 60000 AS bucket, count() FROM t"
            + day
            + " AND SeverityText = 'error' GROUP BY bucket ORDER BY bucket FORMAT TabSeparated",
        qs.get(0).sql());
    assertEquals(
        "SELECT intDiv(Timestamp, 60000) * 60000 AS bucket, ServiceName, quantile(0.95)(Duration)"
            + " FROM t"
            + day
            + " AND SeverityText IN ('warn', 'error') GROUP BY bucket, ServiceName"
            + " ORDER BY bucket, ServiceName FORMAT TabSeparated",
        qs.get(1).sql());
    assertEquals(
        "SELECT intDiv(Timestamp, 300000) * 300000 AS bucket, count(), countIf(SeverityText ="
            + " 'error'), avg(Duration), max(Duration), uniqExact(host) FROM t"
            + day
            + " GROUP BY bucket ORDER BY bucket FORMAT TabSeparated",
        qs.get(2).sql());
    long q4 = START + 6 * 3_600_000L;
    assertEquals(
        "SELECT intDiv(Timestamp, 60000) * 60000 AS bucket, count() FROM t WHERE Timestamp >= "
            + q4
            + " AND Timestamp <= "
            + (q4 + 6 * 3_600_000L)
            + " AND ServiceName = 'svc-3' AND status >= 500 GROUP BY bucket ORDER BY bucket"
            + " FORMAT TabSeparated",
        qs.get(3).sql());
    assertEquals(
        "SELECT intDiv(Timestamp, 1800000) * 1800000 AS bucket, count() FROM t"
            + day
            + " AND Body LIKE '%timeout%' GROUP BY bucket ORDER BY bucket FORMAT TabSeparated",
        qs.get(4).sql());
    assertEquals(
        "SELECT intDiv(Timestamp, 3600000) * 3600000 AS bucket, uniqExact(TraceId) FROM t"
            + day
            + " GROUP BY bucket ORDER BY bucket FORMAT TabSeparated",
        qs.get(5).sql());
  }

  @Test
  void chartRequestsAreTheBenchmarkQueries() throws Exception {
    JsonNode q2 = Http.JSON.readTree(qs.get(1).chartBody());
    assertEquals(START, q2.get("startTime").asLong());
    assertEquals(END, q2.get("endTime").asLong());
    assertEquals("1m", q2.get("granularity").asText());
    JsonNode s = q2.get("series").get(0);
    assertEquals("SRC", s.get("sourceId").asText());
    assertEquals("quantile", s.get("aggFn").asText());
    assertEquals(0.95, s.get("level").asDouble());
    assertEquals("SeverityText:(warn OR error)", s.get("where").asText());
    assertEquals("ServiceName", s.get("groupBy").get(0).asText());
    JsonNode q4 = Http.JSON.readTree(qs.get(3).chartBody()).get("series").get(0);
    assertEquals("ServiceName:\"svc-3\" AND status:>=500", q4.get("where").asText());
    assertEquals(5, Http.JSON.readTree(qs.get(2).chartBody()).get("series").size());
    for (BenchQueries.Query q : qs) {
      assertEquals(
          q.series().size(),
          Http.JSON.readTree(q.chartBody()).get("series").size(),
          q.name() + ": a kind per series");
    }
    assertEquals(
        List.of("Q1", "Q2", "Q3", "Q4", "Q5", "Q6"),
        qs.stream().map(BenchQueries.Query::name).toList());
  }
}
