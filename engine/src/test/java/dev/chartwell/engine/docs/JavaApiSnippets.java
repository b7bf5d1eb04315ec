package dev.chartwell.engine.docs;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.ChartwellException;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.EngineStats;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.RejectedEventException;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.WhereLanguage;
import dev.chartwell.engine.WritesRefusedException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The Java snippets of {@code docs/java-api.md}, compiled (and run by {@link JavaApiSnippetsTest}).
 * Each region between {@code // [snippet:NAME]} and {@code // [end]} is the page's code block
 * marked {@code <!-- snippet: NAME -->}; the test fails when they differ.
 */
final class JavaApiSnippets {
  /** What a request looks like in the batch example. */
  record Request(long millis, String service, int status) {}

  static Engine configure(Path dir) {
    // [snippet:configure]
    Engine engine =
        Engine.builder()
            .dataDirectory(dir) // keep events on disk (default: in memory only)
            .fsyncPolicy(FsyncPolicy.REQUEST) // an append returns once on disk (the default)
            .retention(Duration.ofDays(30)) // drop segments older than this (default: keep)
            .workerThreads(4) // query parallelism (default: cores)
            .segmentRows(1 << 18) // rows per sealed segment (default 262,144)
            .build();
    // [end]
    return engine;
  }

  static Engine warmedUp(Path dir) {
    // [snippet:warm-up]
    Engine engine =
        Engine.builder()
            .dataDirectory(dir)
            .warmUp(true) // compile the append and query paths in the background (default: off)
            .build();
    // [end]
    return engine;
  }

  static Source sources(Engine engine) {
    // [snippet:sources]
    Source logs =
        engine
            .source("app-logs")
            .orElseGet(
                () ->
                    engine.createSource(
                        SourceSpec.log("app-logs") // Timestamp, and Body searched by bare terms
                            .name("app logs")
                            .column("status", ColumnType.LONG) // optional: fix a type up front
                            .build()));
    Source spans = engine.createSource(SourceSpec.trace("spans").build());
    // [end]
    return logs;
  }

  static AppendResult append(Source logs, List<Event> events) {
    // [snippet:append]
    logs.append(
        Event.now(Map.of("Body", "GET /users 200 in 12ms", "ServiceName", "api", "status", 200)));
    logs.append(new Event(1_767_225_600_000L, Map.of("Body", "at a given time, epoch ms")));

    AppendResult r = logs.appendBatch(events); // valid events kept, others reported by index
    for (AppendResult.Rejection rejected : r.rejections()) {
      System.out.println("event " + rejected.index() + ": " + rejected.reason());
    }
    // [end]
    return r;
  }

  static AppendResult batch(Source logs, List<Request> requests) {
    // [snippet:batch]
    EventBatch batch = new EventBatch();
    int service = batch.field("ServiceName"), status = batch.field("status");
    for (Request req : requests) {
      batch.startEvent();
      batch.timestamp(req.millis());
      batch.putString(service, req.service()); // or putString(field, utf8Bytes, from, to)
      batch.putLong(status, req.status());
      batch.endEvent(); // abandonEvent() drops a half-built one
    }
    AppendResult r = logs.append(batch); // rejections by position in the batch
    batch.clear();
    // [end]
    return r;
  }

  static ChartResult chart(Engine engine, Instant start, Instant end) {
    // [snippet:chart]
    ChartQuery q =
        ChartQuery.over(start, end) // both inclusive; or ChartQuery.last(Duration.ofHours(1))
            .source("app-logs") // read by every series that names no source
            .every(Granularity.MINUTE) // default Granularity.AUTO
            .series(
                Series.count().where("SeverityText:error"),
                Series.quantile(0.95, "Duration")
                    .where("ServiceName IN ('api', 'web')", WhereLanguage.SQL))
            .groupBy("ServiceName")
            .build();
    ChartResult r = engine.query(q);
    for (ChartResult.Row row : r.rows()) {
      long bucket = row.bucket(); // bucket start, epoch ms
      List<String> group = row.group(); // group values, "" where an event lacked the field
      List<Number> values = row.values(); // per series: Long for counts, Double otherwise, or null
    }
    // [end]
    return r;
  }

  static ChartResult ratio(Engine engine) {
    // [snippet:ratio]
    ChartResult errorRate =
        engine.query(
            ChartQuery.last(Duration.ofDays(1))
                .source("app-logs")
                .series(Series.count().where("SeverityText:error"), Series.count())
                .ratio() // one value per row: series 0 / series 1
                .build());
    // [end]
    return errorRate;
  }

  static SearchResult search(Engine engine) {
    // [snippet:search]
    SearchResult found =
        engine.search(
            SearchQuery.of("app-logs")
                .where("SeverityText:error AND timeout") // a bare term searches Body
                .between(Instant.now().minus(Duration.ofHours(1)), Instant.now())
                .columns("Timestamp", "ServiceName", "Body") // default: every column
                .order(SearchOrder.NEWEST_FIRST) // the default
                .limit(100)); // the default; offset(n) pages on
    for (Map<String, Object> event : found.rows()) {
      System.out.println(event.get("Timestamp") + " " + event.get("Body"));
    }
    // [end]
    return found;
  }

  static void errors(Engine engine, Source logs, Event event, ChartQuery q) {
    // [snippet:errors]
    try {
      logs.append(event);
    } catch (RejectedEventException e) {
      // this event cannot be stored; the message names the field or the timestamp bound
    } catch (WritesRefusedException e) {
      // memory is full for now: e.retryable() is true, try again later
    } catch (EngineClosedException e) {
      // the application is shutting down
    }
    try {
      ChartResult r = engine.query(q);
    } catch (InvalidQueryException e) {
      List<String> problems = e.problems(); // "series[0].field: is required for aggFn avg"
    } catch (UnknownSourceException e) {
      String missing = e.sourceId();
    } catch (ChartwellException e) {
      // any other refusal of the engine: QueryAbortedException, StorageFailedException...
    }
    // [end]
  }

  static ChartResult cancel(Engine engine, ChartQuery q, ExecutorService pool) throws Exception {
    // [snippet:cancel]
    QueryControl control = new QueryControl();
    Future<ChartResult> f =
        pool.submit(
            () ->
                engine.query(
                    q,
                    QueryOptions.DEFAULT.withControl(control).withTimeout(Duration.ofSeconds(5))));
    control.cancel("the user closed the dashboard"); // the query stops within milliseconds
    // [end]
    try {
      return f.get();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof QueryAbortedException a) {
        return null;
      }
      throw e;
    }
  }

  static EngineStats stats(Engine engine) {
    // [snippet:stats]
    EngineStats stats = engine.stats();
    stats.sources().forEach(s -> System.out.println(s.id() + ": " + s.rows() + " events"));
    // [end]
    return stats;
  }
}
