package dev.chartwell.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.clickhouse.local.LocalClickHouse;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.internal.exec.DifferentialProperties;
import dev.chartwell.engine.internal.exec.ReferenceEvaluator.Ev;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Operand;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WherePrinter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile strings as values and as literals of every kind of predicate: quotes, backslashes, NUL
 * and other control characters, SQL that would end a literal early, LIKE wildcards, non-ASCII and
 * astral characters. Each literal must reach ClickHouse as exactly itself (it comes back unchanged
 * from {@code SELECT}) and each predicate must select what the engine selects. Also: the timeout
 * and cancellation of a slow query.
 */
class HostileLiteralsTest {
  static final List<String> HOSTILE =
      List.of(
          "'",
          "''",
          "\\",
          "\\'",
          "a\\\\b",
          "x\u0000y",
          "\u0000",
          "tab\there",
          "line\nbreak\r\n",
          "') OR 1=1 --",
          "\\'; DROP TABLE cw_h; --",
          "`id`",
          "\"quoted\"",
          "100%_sure",
          "caf\u00e9 \u00c9T\u00c9",
          "\u65e5\u672c\u8a9e",
          "emoji \ud83d\ude00!",
          "$1 ${x} {0}",
          "\u0007\u001b[31m",
          "");

  private static LocalClickHouse server;
  private static ClickHouseClient client;

  @BeforeAll
  static void start() throws Exception {
    server = LocalServer.start(HostileLiteralsTest.class);
    client = LocalServer.client(server, "hostile");
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
      server.deleteFiles();
    }
  }

  @Test
  void everyLiteralReachesClickHouseAsItself() {
    for (String s : HOSTILE) {
      String back = client.query("SELECT " + Sql.string(s) + " FORMAT TabSeparated", null);
      assertEquals(s, TabSeparated.unescape(back.substring(0, back.length() - 1)), s);
    }
  }

  @Test
  void predicatesOnHostileValuesSelectWhatTheEngineSelects() {
    long t0 = 1_700_000_000_000L;
    List<Ev> events = new ArrayList<>();
    for (int i = 0; i < HOSTILE.size(); i++) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("svc", HOSTILE.get(i));
      f.put("Body", "before " + HOSTILE.get(i) + " after");
      f.put("lat", 1.0);
      events.add(new Ev(t0 + i * 1000L, f));
    }
    client.query("DROP TABLE IF EXISTS default.cw_h", null);
    client.query("CREATE TABLE default.cw_h " + ClickHouseDifferentialProperties.COLUMNS, null);
    ClickHouseTable table =
        ClickHouseTable.fromDescribe(
            "default",
            "cw_h",
            client.query("DESCRIBE TABLE default.cw_h FORMAT TabSeparated", null),
            "Timestamp",
            "Body");
    List<Event> batch = new ArrayList<>();
    for (Ev e : events) {
      batch.add(new Event(e.ts(), e.fields()));
    }
    assertTrue(new RowInserter(client, table).insert(batch).isEmpty());
    ClickHouseBackend backend =
        new ClickHouseBackend(id -> Optional.of(new ClickHouseBackend.Bound(client, table)));
    int checked = 0;
    try (Engine engine = Engine.builder().build()) {
      DifferentialProperties.load(engine, "A", events);
      for (String s : HOSTILE) {
        for (Expr e : predicates(s)) {
          for (WhereLanguage lang : WhereLanguage.values()) {
            if (!WherePrinter.canPrint(e, lang)) {
              continue;
            }
            ChartQuery q =
                new ChartQuery(
                    t0,
                    t0 + 60_000,
                    Granularity.named("1m").orElseThrow(),
                    List.of(
                        new Series(
                            "A",
                            AggFn.COUNT,
                            null,
                            null,
                            WherePrinter.print(e, lang),
                            Languages.engine(lang),
                            List.of("svc"))),
                    SeriesReturnType.COLUMN);
            ChartResult expected = engine.query(q, QueryOptions.DEFAULT);
            ChartResult actual = backend.query(q, QueryOptions.DEFAULT);
            assertEquals(expected.rows(), actual.rows(), lang + ": " + WherePrinter.print(e, lang));
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 200, "checked " + checked);
  }

  private static List<Expr> predicates(String s) {
    List<Expr> out = new ArrayList<>();
    Operand svc = Operand.of("svc");
    out.add(new Expr.Compare(svc, CompareOp.EQ, s));
    out.add(new Expr.Compare(svc, CompareOp.GT, s));
    out.add(new Expr.Contains("svc", s, false));
    out.add(new Expr.Contains("Body", s, true));
    out.add(new Expr.In(svc, List.of(s, "x")));
    out.add(new Expr.Range(svc, s, true, s + "z", false));
    out.add(new Expr.Like(svc, "%" + likeEscape(s) + "%", false));
    out.add(new Expr.Like(new Operand("svc", Expr.Fold.UPPER), likeEscape(s), true));
    out.add(new Expr.Not(new Expr.Compare(svc, CompareOp.EQ, s)));
    if (!s.isEmpty()) {
      out.add(new Expr.Match("svc", s));
    }
    return out;
  }

  private static String likeEscape(String s) {
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }

  /**
   * A query that runs 30 s however busy the machine is: one row a second (one row a block, so that
   * no block sleeps longer than ClickHouse allows), without the connection's execution time limit.
   */
  static String thirtySeconds(String tag) {
    return "SELECT sleepEachRow(1), '"
        + tag
        + "' FROM numbers(30)"
        + " SETTINGS max_block_size = 1, max_execution_time = 0 FORMAT TabSeparated";
  }

  /** Ends the tagged query in ClickHouse too (the client only stopped waiting for it). */
  static void kill(String tag) {
    try {
      client.query("KILL QUERY WHERE query LIKE '%" + tag + "%' AND query NOT LIKE '%KILL%'", null);
    } catch (RuntimeException e) {
      // it ends by itself within 30 s
    }
  }

  @Test
  void aSlowQueryStopsAtTheConnectionsTimeoutNamingIt() {
    ClickHouseClient quick =
        new ClickHouseClient(
            new ClickHouseConnection(
                "quick", java.net.URI.create(server.url()), "default", "", Duration.ofSeconds(1)));
    ClickHouseException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ClickHouseException.class, () -> quick.query(thirtySeconds("timed-out"), null));
    kill("timed-out");
    // The client's own deadline ended the wait ("no answer within"), not an answer of ClickHouse
    // after the query: a query of 30 s cannot have answered, and no wall clock is needed to see it.
    assertEquals(ClickHouseException.Kind.TIMEOUT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("no answer within"), e.getMessage());
    assertTrue(
        e.getMessage().contains("'quick'") && e.getMessage().contains("1 s"), e.getMessage());
  }

  @Test
  void aCancelledQueryStopsWaiting() throws Exception {
    dev.chartwell.engine.QueryControl control = new dev.chartwell.engine.QueryControl();
    java.util.concurrent.atomic.AtomicReference<Throwable> cancellerFailed =
        new java.util.concurrent.atomic.AtomicReference<>();
    // Cancels once ClickHouse runs the query (the wait has begun), as a disconnecting client would.
    Thread canceller =
        new Thread(
            () -> {
              try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (client
                        .query(
                            "SELECT count() FROM system.processes WHERE query LIKE"
                                + " '%cancel-me%' AND query NOT LIKE '%system.processes%'"
                                + " FORMAT TabSeparated",
                            null)
                        .strip()
                        .equals("0")
                    && System.nanoTime() < deadline) {
                  Thread.sleep(20);
                }
              } catch (Exception | AssertionError e) {
                cancellerFailed.set(e);
              }
              control.cancel("the client disconnected");
            });
    canceller.start();
    // The query would run 30 s: an abort is the cancel ending the wait (no stopwatch needed).
    org.junit.jupiter.api.Assertions.assertThrows(
        dev.chartwell.engine.QueryAbortedException.class,
        () -> client.query(thirtySeconds("cancel-me"), control));
    kill("cancel-me");
    canceller.join(TimeUnit.SECONDS.toMillis(60));
    assertEquals(null, cancellerFailed.get());
  }
}
