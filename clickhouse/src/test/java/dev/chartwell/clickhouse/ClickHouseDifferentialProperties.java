package dev.chartwell.clickhouse;

import static dev.chartwell.engine.testing.Gens.check;

import dev.chartwell.clickhouse.local.LocalClickHouse;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.internal.exec.CaseShrinker;
import dev.chartwell.engine.internal.exec.DifferentialProperties;
import dev.chartwell.engine.internal.exec.DifferentialProperties.Case;
import dev.chartwell.engine.internal.exec.DifferentialProperties.Dataset;
import dev.chartwell.engine.internal.exec.ReferenceEvaluator.Ev;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ClickHouse backend against the engine, on the engine's own differential generator: the same
 * random events (sparse and dense fields of every type) loaded into the engine and, through {@link
 * RowInserter}, into two ClickHouse tables; random where trees in both languages × random queries
 * (every aggFn, granularity, groupBy, ratio) must answer identically on both.
 *
 * <p>One change to the generated data: timestamps are made unique within a source (a collision is
 * moved by a millisecond), because ClickHouse has no arrival order to break the ties of {@code
 * last_value} and {@code any} the way the engine does (docs/clickhouse.md).
 */
class ClickHouseDifferentialProperties {
  /** The tables' definition: the generator's fields, each in the type the engine gives it. */
  static final String COLUMNS =
      "(Timestamp Int64, svc Nullable(String), host Nullable(String), status Nullable(Int64),"
          + " dur Nullable(Float64), ok Nullable(Enum8('false' = 0, 'true' = 1)),"
          + " num Nullable(String), Body Nullable(String), lat Float64)"
          + " ENGINE = MergeTree ORDER BY Timestamp";

  private static LocalClickHouse server;
  private static ClickHouseClient client;
  private int examples;

  @BeforeAll
  static void start() throws Exception {
    server = LocalServer.start(ClickHouseDifferentialProperties.class);
    client = LocalServer.client(server, "differential");
    System.out.println("ClickHouseDifferentialProperties: ClickHouse " + server.version());
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
      server.deleteFiles();
    }
  }

  @Test
  void clickHouseEqualsEngine() {
    check(
        Integer.getInteger("CH_EXAMPLES", 250),
        0,
        DifferentialProperties.cases(),
        CaseShrinker::candidates,
        this::sameAnswers);
    System.out.println("ClickHouseDifferentialProperties: " + examples + " examples");
  }

  /**
   * Every series of each query reads the first one's source with its where, so that the backend
   * answers them from one shared scan ({@link ChartSql} folds such series into one branch).
   */
  @Test
  void seriesSharingAScanAnswerAsTheEngine() {
    check(
        Integer.getInteger("CH_EXAMPLES", 250) / 5,
        0,
        DifferentialProperties.cases().map(ClickHouseDifferentialProperties::sharingOneWhere),
        CaseShrinker::candidates,
        this::sameAnswers);
  }

  private static Case sharingOneWhere(Case c) {
    ChartQuery q = c.query();
    Series first = q.series().get(0);
    List<Series> series = new ArrayList<>();
    for (Series s : q.series()) {
      series.add(
          new Series(
              first.sourceId(),
              s.aggFn(),
              s.field(),
              s.level(),
              first.where(),
              first.whereLanguage(),
              s.groupBy()));
    }
    int n = series.size();
    return new Case(
        c.data(),
        c.segmentRows(),
        c.threads(),
        new ChartQuery(q.startTime(), q.endTime(), q.granularity(), series, q.returnType()),
        Collections.nCopies(n, c.wheres().get(0)),
        Collections.nCopies(n, c.languages().get(0)));
  }

  private void sameAnswers(Case generated) {
    Case c = withUniqueTimes(generated);
    examples++;
    ChartResult expected = engineAnswer(c);
    ClickHouseTable a = table("cw_a", c.data().a());
    ClickHouseTable b = table("cw_b", c.data().b());
    ClickHouseBackend backend =
        new ClickHouseBackend(
            id -> Optional.of(new ClickHouseBackend.Bound(client, id.equals("A") ? a : b)));
    ChartResult actual = backend.query(c.query(), QueryOptions.DEFAULT);
    DifferentialProperties.assertSame(expected, actual, "ClickHouse", c);
  }

  /** The case with its events' timestamps made unique within each source ({@link #unique}). */
  static Case withUniqueTimes(Case c) {
    return new Case(
        new Dataset(unique(c.data().a()), unique(c.data().b())),
        c.segmentRows(),
        c.threads(),
        c.query(),
        c.wheres(),
        c.languages());
  }

  /** The engine's answer to the case's query over its events. */
  static ChartResult engineAnswer(Case c) {
    try (Engine engine = Engine.builder().segmentRows(c.segmentRows()).workerThreads(1).build()) {
      DifferentialProperties.load(engine, "A", c.data().a());
      DifferentialProperties.load(engine, "B", c.data().b());
      return engine.query(c.query(), QueryOptions.DEFAULT);
    }
  }

  /** The tables made so far, by name: made once, emptied for each example. */
  private static final Map<String, ClickHouseTable> TABLES = new HashMap<>();

  /** Empties (making it the first time) and fills a table. */
  private static ClickHouseTable table(String name, List<Ev> events) {
    ClickHouseTable t =
        TABLES.computeIfAbsent(
            name,
            n -> {
              client.query("DROP TABLE IF EXISTS default." + n, null);
              client.query("CREATE TABLE default." + n + " " + COLUMNS, null);
              return ClickHouseTable.fromDescribe(
                  "default",
                  n,
                  client.query("DESCRIBE TABLE default." + n + " FORMAT TabSeparated", null),
                  "Timestamp",
                  "Body");
            });
    client.query("TRUNCATE TABLE default." + name, null);
    insert(client, t, events);
    return t;
  }

  /** Inserts the events into a table; fails if it rejects any. */
  static void insert(ClickHouseClient client, ClickHouseTable t, List<Ev> events) {
    List<Event> batch = new ArrayList<>();
    for (Ev e : events) {
      batch.add(new Event(e.ts(), e.fields()));
    }
    List<Map.Entry<Integer, String>> rejected = new RowInserter(client, t).insert(batch);
    if (!rejected.isEmpty()) {
      throw new AssertionError("rows rejected: " + rejected);
    }
  }

  /** The events, a timestamp met before moved a millisecond later until it is unique. */
  static List<Ev> unique(List<Ev> events) {
    Set<Long> seen = new HashSet<>();
    List<Ev> out = new ArrayList<>();
    for (Ev e : events) {
      long ts = e.ts();
      while (!seen.add(ts)) {
        ts++;
      }
      out.add(new Ev(ts, e.fields()));
    }
    return out;
  }
}
