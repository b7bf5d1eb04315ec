package dev.chartwell.engine.internal.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.WhereLanguage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventSearchTest {
  private static final long T0 = 1_700_000_000_000L;

  private static Engine engineWith(int segmentRows, int events) {
    Engine engine = Engine.builder().segmentRows(segmentRows).workerThreads(1).build();
    Source s =
        engine.createSource(
            new SourceSpec("logs", "logs", SourceKind.LOG, "Timestamp", "Body", "Body", List.of()));
    List<Event> batch = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      batch.add(
          new Event(
              T0 + i * 1000L,
              Map.of(
                  "Body", "event " + i, "level", i % 10 == 0 ? "error" : "info", "n", (long) i)));
    }
    s.appendBatch(batch);
    return engine;
  }

  private static SearchQuery query(String where, int limit, int offset, SearchOrder order) {
    return new SearchQuery(
        "logs",
        T0,
        T0 + 1_000_000,
        where,
        WhereLanguage.LUCENE,
        List.of("Timestamp", "n", "level", "missing"),
        order,
        limit,
        offset);
  }

  @Test
  void newestFirstWithOffsetAcrossSegments() {
    try (Engine engine = engineWith(7, 100)) {
      SearchResult r =
          engine.search(query("level:error", 3, 2, SearchOrder.NEWEST_FIRST), QueryOptions.DEFAULT);
      // errors are events 0, 10, ..., 90; newest first, skip two: 70, 60, 50
      assertEquals(List.of(70L, 60L, 50L), r.rows().stream().map(m -> m.get("n")).toList());
      assertEquals(T0 + 70_000, r.rows().get(0).get("Timestamp"));
      assertEquals("error", r.rows().get(0).get("level"));
      assertTrue(r.rows().get(0).containsKey("missing"));
      assertEquals(null, r.rows().get(0).get("missing"));
      assertEquals("Timestamp", r.timestampColumn());
    }
  }

  @Test
  void oldestFirstAndTimeRangeInclusive() {
    try (Engine engine = engineWith(7, 100)) {
      SearchQuery q =
          new SearchQuery(
              "logs",
              T0 + 5_000,
              T0 + 8_000,
              "",
              null,
              List.of("n"),
              SearchOrder.OLDEST_FIRST,
              10,
              0);
      SearchResult r = engine.search(q, QueryOptions.DEFAULT);
      assertEquals(List.of(5L, 6L, 7L, 8L), r.rows().stream().map(m -> m.get("n")).toList());
    }
  }

  @Test
  void anOffsetPastTheEndIsAnEmptyPage() {
    try (Engine engine = engineWith(7, 20)) {
      SearchResult r = engine.search(query("", 5, 100, null), QueryOptions.DEFAULT);
      assertEquals(List.of(), r.rows());
    }
  }

  @Test
  void everyColumnWhenNoneIsNamed() {
    try (Engine engine = engineWith(7, 3)) {
      SearchQuery q = new SearchQuery("logs", T0, T0 + 10_000, null, null, null, null, 1, 0);
      SearchResult r = engine.search(q, QueryOptions.DEFAULT);
      // the timestamp, then the schema: the implicit column, then the others as first seen
      assertEquals(List.of("Timestamp", "Body"), r.columns().subList(0, 2));
      assertEquals(java.util.Set.of("level", "n"), java.util.Set.copyOf(r.columns().subList(2, 4)));
      assertEquals("event 2", r.rows().get(0).get("Body"));
    }
  }

  @Test
  void problemsNameTheirField() {
    try (Engine engine = engineWith(7, 3)) {
      InvalidQueryException bad =
          assertThrows(
              InvalidQueryException.class,
              () -> engine.search(query("(level:", 1, 0, null), QueryOptions.DEFAULT));
      assertTrue(bad.getMessage().startsWith("where: "), bad.getMessage());
      bad =
          assertThrows(
              InvalidQueryException.class,
              () -> engine.search(query("", 0, -1, null), QueryOptions.DEFAULT));
      assertTrue(bad.getMessage().contains("limit: must be from 1 to 10000"), bad.getMessage());
      assertTrue(bad.getMessage().contains("offset: must be from 0 to 100000"), bad.getMessage());
      SearchQuery unknown = new SearchQuery("nope", T0, T0, null, null, null, null, 1, 0);
      assertThrows(
          UnknownSourceException.class, () -> engine.search(unknown, QueryOptions.DEFAULT));
    }
  }

  @Test
  void aCancelledSearchStops() {
    try (Engine engine = engineWith(7, 50)) {
      QueryControl control = new QueryControl();
      control.cancel("the client disconnected");
      QueryAbortedException e =
          assertThrows(
              QueryAbortedException.class,
              () ->
                  engine.search(query("", 5, 0, null), QueryOptions.DEFAULT.withControl(control)));
      assertEquals(QueryAbortedException.Reason.CANCELLED, e.reason());
      assertEquals(1, engine.queryCounters().cancelled());
    }
  }
}
