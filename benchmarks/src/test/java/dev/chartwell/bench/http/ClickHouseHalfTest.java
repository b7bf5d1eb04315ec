package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.bench.BenchLogs;
import dev.chartwell.bench.BenchMain;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.WhereLanguage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ClickHouse half of the side-by-side harness against a real ClickHouse, when one is installed
 * (Debian's clickhouse-server): it starts from the harness's temporary configuration, loads a
 * generated file with JSONEachRow, and its answers to the SQL of Q1–Q6 are those of Chartwell's
 * engine to the chart requests of Q1–Q6 over the same events. Without ClickHouse the test is
 * skipped and says so on standard error.
 */
class ClickHouseHalfTest {
  static final int ROWS = 20_000;

  @TempDir Path dir;

  @Test
  void clickHouseAnswersQ1toQ6AsTheEngineDoes() throws Exception {
    Optional<List<String>> command = ClickHouse.find(null);
    if (command.isEmpty()) {
      System.err.println(
          "SKIPPED ClickHouseHalfTest: no clickhouse-server installed"
              + " (apt-get install clickhouse-server to run it)");
      Assumptions.abort("no clickhouse-server installed");
    }
    Path file = dir.resolve("bench-logs.ndjson");
    BenchMain.writeNdjson(ROWS, 42, file);
    Http http = new Http();
    try (ClickHouse ch =
            ClickHouse.start(command.get(), Files.createDirectories(dir.resolve("ch")), http);
        Engine engine = Engine.builder().build()) {
      ch.createTable();
      ch.load(file, 2);
      assertEquals(ROWS, ch.parts()[0]);
      Source source =
          engine.createSource(
              new SourceSpec(
                  "bench", "bench", SourceKind.LOG, "Timestamp", "Body", "Body", List.of()));
      List<Event> events = new ArrayList<>();
      BenchLogs gen = new BenchLogs(ROWS, 42);
      while (gen.hasNext()) {
        events.add(gen.next());
      }
      source.appendBatch(events);
      for (BenchQueries.Query q : BenchQueries.all("bench", ClickHouse.TABLE, BenchLogs.END)) {
        ChartResult r = engine.query(chartQuery(Http.JSON.readTree(q.chartBody())));
        Answer expected = Answer.fromChartwell(asServerJson(r), q.series().size());
        Answer actual =
            Answer.fromClickHouse(
                new String(ch.select(q.sql(), ""), StandardCharsets.UTF_8),
                q.groups(),
                q.series().size());
        assertEquals(
            List.of(), Answer.differences(expected, actual, q.series(), 1e-9, 5), q.name());
        assertEquals(expected.rows(), actual.rows(), q.name());
      }
    }
  }

  /** The harness's chart request as the engine query the server would make of it. */
  private static ChartQuery chartQuery(JsonNode body) {
    List<Series> series = new ArrayList<>();
    for (JsonNode s : body.get("series")) {
      List<String> groupBy = new ArrayList<>();
      s.path("groupBy").forEach(g -> groupBy.add(g.asText()));
      series.add(
          new Series(
              s.get("sourceId").asText(),
              AggFn.fromWireName(s.get("aggFn").asText()).orElseThrow(),
              s.has("field") ? s.get("field").asText() : null,
              s.has("level") ? s.get("level").asDouble() : null,
              s.has("where") ? s.get("where").asText() : null,
              WhereLanguage.LUCENE,
              groupBy));
    }
    return new ChartQuery(
        body.get("startTime").asLong(),
        body.get("endTime").asLong(),
        Granularity.named(body.get("granularity").asText()).orElseThrow(),
        series,
        null);
  }

  /** The engine's rows in the shape of the server's answer. */
  private static JsonNode asServerJson(ChartResult r) {
    ObjectNode body = Http.JSON.createObjectNode();
    ArrayNode data = body.putArray("data");
    for (ChartResult.Row row : r.rows()) {
      ObjectNode o = data.addObject();
      o.put("ts_bucket", row.bucket());
      row.group().forEach(o.putArray("group")::add);
      for (int i = 0; i < row.values().size(); i++) {
        Number v = row.values().get(i);
        if (v != null) {
          o.put("series_" + i + ".data", v.doubleValue());
        }
      }
    }
    return body;
  }
}
