package dev.chartwell.engine.api;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.ChartwellException;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.RejectedEventException;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.StorageFailedException;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.WritesRefusedException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Misuse is refused at the API's edge, in the engine's own words (written as a user would). */
class MisuseTest {
  static final long T0 = 1_700_000_000_000L;

  private static Event event(long ts) {
    return new Event(ts, Map.of("Body", "hello"));
  }

  @Test
  void everyMethodOfAClosedEngineSaysSo() {
    Engine engine = Engine.builder().build();
    Source logs = engine.createSource(SourceSpec.log("logs").build());
    logs.append(event(T0));
    engine.close();
    EventBatch batch = new EventBatch().add(event(T0));
    ChartQuery q = ChartQuery.over(T0, T0 + 60_000).source("logs").series(Series.count()).build();
    List<Executable> calls =
        List.of(
            () -> engine.createSource(SourceSpec.log("more").build()),
            () -> engine.source("logs"),
            engine::sources,
            () -> engine.dropSource("logs"),
            () -> engine.query(q),
            () -> engine.search(SearchQuery.of("logs")),
            engine::stats,
            engine::queryCounters,
            engine::heldBytes,
            engine::diskBytes,
            engine::enforceStorageLimits,
            () -> logs.append(event(T0)),
            () -> logs.appendBatch(List.of(event(T0))),
            () -> logs.append(batch),
            () -> logs.appendPending(batch),
            logs::seal,
            logs::awaitSealing,
            logs::stats,
            logs::columns);
    for (int i = 0; i < calls.size(); i++) {
      EngineClosedException e =
          assertThrows(EngineClosedException.class, calls.get(i), "call " + i);
      assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }
    assertEquals("logs", logs.id(), "a source's identity stays readable");
    assertDoesNotThrow(engine::close, "close is idempotent");
    assertDoesNotThrow(engine::close);
  }

  @Test
  void appendsToADroppedSourceNameIt() {
    try (Engine engine = Engine.builder().build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      assertTrue(engine.dropSource("logs"));
      UnknownSourceException e =
          assertThrows(UnknownSourceException.class, () -> logs.append(event(T0)));
      assertEquals("logs", e.sourceId());
      assertTrue(e.getMessage().contains("dropped"), e.getMessage());
    }
  }

  @Test
  void nullArgumentsAreRefusedAtTheEdgeByName() {
    try (Engine engine = Engine.builder().build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      assertNpe("event", () -> logs.append((Event) null));
      assertNpe("events", () -> logs.appendBatch(null));
      assertNpe("batch", () -> logs.append((EventBatch) null));
      assertNpe("batch", () -> logs.appendPending(null));
      assertNpe("spec", () -> engine.createSource(null));
      assertNpe("id", () -> engine.source(null));
      assertNpe("id", () -> engine.dropSource(null));
      assertNpe("query", () -> engine.query(null));
      assertNpe("query", () -> engine.search(null));
      assertNpe("event", () -> new EventBatch().add(null));
      // A null element: nothing of the list is kept, and the message gives its index.
      List<Event> withNull = Arrays.asList(event(T0), null, event(T0 + 1));
      assertNpe("events[1] is null", () -> logs.appendBatch(withNull));
      assertEquals(0, logs.stats().rows());
      assertNpe("where", () -> Series.count().where(null));
      assertNpe("sourceId", () -> SearchQuery.of(null));
    }
  }

  private static void assertNpe(String message, Executable call) {
    NullPointerException e = assertThrows(NullPointerException.class, call);
    assertEquals(message, e.getMessage());
  }

  @Test
  void timestampsAQueryCannotAddressAreRejectedWithTheReason() {
    try (Engine engine = Engine.builder().build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      logs.append(event(Source.MIN_TIMESTAMP));
      logs.append(event(Source.MAX_TIMESTAMP));
      assertRejected(logs, -1, "before 1970");
      assertRejected(logs, 0, "before 2001-09-09T01:46:40Z");
      assertRejected(logs, Source.MIN_TIMESTAMP - 1, "earliest time a chart query addresses");
      assertRejected(
          logs, 1_700_000_000L, "looks like seconds: as seconds it is 2023-11-14T22:13:20Z");
      assertRejected(logs, Source.MAX_TIMESTAMP + 1, "after the year 9999");
      assertRejected(logs, T0 * 1000, "looks like microseconds: 2023-11-14T22:13:20Z");
      assertRejected(logs, T0 * 1_000_000, "looks like nanoseconds: 2023-11-14T22:13:20Z");
      assertRejected(logs, Long.MAX_VALUE, "after the year 9999");
      // Both ends are reachable: a search over the whole range finds them, and so do charts.
      assertEquals(2, engine.search(SearchQuery.of("logs")).rows().size());
      long year3000 = java.time.Instant.parse("3000-01-01T00:00:00Z").toEpochMilli();
      logs.append(event(year3000));
      for (long t : new long[] {Source.MIN_TIMESTAMP, year3000, Source.MAX_TIMESTAMP}) {
        ChartResult chart =
            engine.query(
                ChartQuery.over(Math.max(Source.MIN_TIMESTAMP, t - 3_600_000), t + 60_000)
                    .source("logs")
                    .every(Granularity.MINUTE)
                    .series(Series.count())
                    .build());
        long counted = 0;
        for (ChartResult.Row row : chart.rows()) {
          counted += row.values().get(0).longValue();
        }
        assertEquals(1, counted, "a chart of the hour around " + t);
      }
      // In a batch, the rejection has the event's index.
      var r = logs.appendBatch(List.of(event(T0), event(1_700_000_000L)));
      assertEquals(1, r.accepted());
      assertEquals(1, r.rejections().get(0).index());
      assertTrue(r.rejections().get(0).reason().contains("looks like seconds"));
      assertEquals(4, logs.stats().rows());
    }
  }

  private static void assertRejected(Source logs, long ts, String why) {
    RejectedEventException e =
        assertThrows(RejectedEventException.class, () -> logs.append(event(ts)));
    assertTrue(e.getMessage().contains(why), e.getMessage());
    assertTrue(e.getMessage().startsWith("timestamp " + ts + " "), e.getMessage());
  }

  @Test
  void everyDeliberateExceptionIsAChartwellException() {
    for (Class<?> c :
        List.of(
            InvalidQueryException.class,
            UnknownSourceException.class,
            RejectedEventException.class,
            WritesRefusedException.class,
            StorageFailedException.class,
            EngineClosedException.class,
            QueryAbortedException.class)) {
      assertTrue(ChartwellException.class.isAssignableFrom(c), c.getName());
      assertTrue(RuntimeException.class.isAssignableFrom(c), "unchecked: " + c.getName());
    }
    assertTrue(new WritesRefusedException("full").retryable());
    assertTrue(new QueryAbortedException(QueryAbortedException.Reason.BUSY, "busy").retryable());
    assertFalse(
        new QueryAbortedException(QueryAbortedException.Reason.TIMEOUT, "slow").retryable());
    assertFalse(new InvalidQueryException("series: wrong").retryable());
    assertTrue(
        new StorageFailedException(Path.of("x"), "writing", new java.io.IOException("disk"))
            .getMessage()
            .contains("disk"));

    try (Engine engine = Engine.builder().build()) {
      engine.createSource(SourceSpec.log("logs").build());
      ChartwellException invalid =
          assertThrows(
              ChartwellException.class,
              () -> engine.query(ChartQuery.over(T0, T0 + 1000).source("logs").build()));
      assertTrue(invalid instanceof InvalidQueryException, invalid.toString());
      ChartwellException unknown =
          assertThrows(
              ChartwellException.class,
              () ->
                  engine.query(
                      ChartQuery.over(T0, T0 + 1000)
                          .source("nope")
                          .series(Series.count())
                          .build()));
      assertTrue(unknown instanceof UnknownSourceException, unknown.toString());
      assertThrows(UnknownSourceException.class, () -> engine.search(SearchQuery.of("nope")));
    }
    try (Engine engine = Engine.builder().maxMemoryBytes(1).build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      logs.append(event(T0)); // the first append is admitted while nothing is held
      WritesRefusedException full =
          assertThrows(WritesRefusedException.class, () -> logs.append(event(T0)));
      assertTrue(full.retryable());
    }
  }
}
