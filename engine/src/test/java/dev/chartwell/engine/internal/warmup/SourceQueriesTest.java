package dev.chartwell.engine.internal.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.QueryCounters;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's queries over a real source are built from its own fields and values, answer rows
 * there, and are run on a query engine of the warm-up's own, which leaves the real engine's
 * counters as they were.
 */
class SourceQueriesTest {
  private static final int EVENTS = 150_000;

  private static Engine engineWithLogs() {
    Engine engine = Engine.builder().segmentRows(70_000).workerThreads(2).build();
    Source source = engine.createSource(SourceSpec.log("logs").build());
    long end = 1_767_225_600_000L;
    SyntheticLogs logs = new SyntheticLogs(7, end - 24 * 3_600_000L, end);
    EventBatch batch = new EventBatch();
    for (int from = 0; from < EVENTS; from += 10_000) {
      batch.clear();
      logs.put(batch, from, 10_000, EVENTS);
      source.append(batch);
    }
    source.awaitSealing();
    return engine;
  }

  private static List<ChartQuery> queries(Engine engine) {
    Source source = engine.sources().get(0);
    try (SourceSnapshot snapshot = Snapshots.of(source)) {
      return SourceQueries.of(source.id(), snapshot);
    }
  }

  @Test
  void buildsTheDashboardShapesFromTheSourcesOwnFields() {
    try (Engine engine = engineWithLogs()) {
      List<ChartQuery> queries = queries(engine);
      assertEquals(6, queries.size(), queries.toString());
      // the rarer severities filter, the service (10 values) groups, Duration is the number
      Series count = queries.get(0).series().get(0);
      assertEquals(AggFn.COUNT, count.aggFn());
      assertEquals("SeverityText:error", count.where());
      Series p95 = queries.get(1).series().get(0);
      assertEquals(AggFn.QUANTILE, p95.aggFn());
      assertEquals("Duration", p95.field());
      assertEquals(List.of("ServiceName"), p95.groupBy());
      assertEquals("SeverityText:error OR SeverityText:warn", p95.where());
      assertEquals(5, queries.get(2).series().size());
      String twoTerms = queries.get(3).series().get(0).where();
      assertTrue(twoTerms.matches("ServiceName:\"svc-[0-9]+\" AND status:>=5[0-9][0-9]"), twoTerms);
      assertEquals(AggFn.COUNT_DISTINCT, queries.get(5).series().get(0).aggFn());
      // each finds rows over the source's last day
      for (ChartQuery q : queries) {
        ChartResult r = engine.query(q);
        assertFalse(r.rows().isEmpty(), "no rows for " + q);
        assertTrue(
            r.rows().stream().anyMatch(row -> ((Number) row.values().get(0)).doubleValue() > 0),
            "only zeros for " + q);
      }
    }
  }

  @Test
  void aSourceOfFewEventsGetsTheShapesItsFieldsAllow() {
    try (Engine engine = Engine.builder().build()) {
      Source source = engine.createSource(SourceSpec.log("few").build());
      Instant t = Instant.parse("2026-01-01T00:00:00Z");
      source.append(Event.at(t, Map.of("Body", "disk timeout", "SeverityText", "error")));
      source.append(Event.at(t.plusSeconds(1), Map.of("Body", "all good", "SeverityText", "info")));
      List<ChartQuery> queries = queries(engine);
      assertFalse(queries.isEmpty());
      for (ChartQuery q : queries) {
        for (Series s : q.series()) {
          assertTrue(s.field() == null || s.field().equals("SeverityText"), s.toString());
        }
        engine.query(q);
      }
    }
    try (Engine engine = Engine.builder().build()) {
      Source empty = engine.createSource(SourceSpec.log("empty").build());
      try (SourceSnapshot snapshot = Snapshots.of(empty)) {
        assertEquals(List.of(), SourceQueries.of(empty.id(), snapshot));
      }
    }
  }

  @Test
  void roundsRunOnTheirOwnQueryEngineAndLeaveTheRealCountersAlone() throws Exception {
    try (Engine engine = engineWithLogs()) {
      QueryCounters before = engine.queryCounters();
      SourceRounds.Outcome outcome =
          SourceRounds.run(
              engine.sources(), 2, new Pacing(() -> false), System.nanoTime() + 60_000_000_000L, 2);
      assertEquals(new SourceRounds.Outcome(1, 6, 2, outcome.settled()), outcome);
      assertEquals(before, engine.queryCounters());
    }
  }

  @Test
  void roundsEndAtTheirDeadline() throws Exception {
    try (Engine engine = engineWithLogs()) {
      SourceRounds.Outcome outcome =
          SourceRounds.run(engine.sources(), 2, new Pacing(() -> false), System.nanoTime(), 5);
      assertEquals(0, outcome.rounds());
    }
  }
}
