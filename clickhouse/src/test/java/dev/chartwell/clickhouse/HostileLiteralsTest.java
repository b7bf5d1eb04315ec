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

  @Test
  void aSlowQueryStopsAtTheConnectionsTimeoutNamingIt() {
    ClickHouseClient quick =
        new ClickHouseClient(
            new ClickHouseConnection(
                "quick", java.net.URI.create(server.url()), "default", "", Duration.ofSeconds(1)));
    long start = System.nanoTime();
    ClickHouseException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ClickHouseException.class,
            () -> quick.query("SELECT sleep(2.5) FORMAT TabSeparated", null));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertEquals(ClickHouseException.Kind.TIMEOUT, e.kind(), e.getMessage());
    assertTrue(seconds < 2.2, "stopped at the timeout, not after the query: " + seconds);
    assertTrue(
        e.getMessage().contains("'quick'") && e.getMessage().contains("1 s"), e.getMessage());
  }

  @Test
  void aCancelledQueryStopsWaiting() throws Exception {
    dev.chartwell.engine.QueryControl control = new dev.chartwell.engine.QueryControl();
    Thread canceller =
        new Thread(
            () -> {
              try {
                Thread.sleep(300);
              } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
              }
              control.cancel("the client disconnected");
            });
    canceller.start();
    long start = System.nanoTime();
    org.junit.jupiter.api.Assertions.assertThrows(
        dev.chartwell.engine.QueryAbortedException.class,
        () -> client.query("SELECT sleep(2) FORMAT TabSeparated", control));
    assertTrue((System.nanoTime() - start) / 1e9 < 1.5);
    canceller.join();
  }
}
