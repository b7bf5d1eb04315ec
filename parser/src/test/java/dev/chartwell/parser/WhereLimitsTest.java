package dev.chartwell.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Hostile where texts: nesting past the limit is a syntax error with its position, never a stack
 * overflow; long flat chains parse without deep recursion; overlong texts are refused.
 */
class WhereLimitsTest {

  /** Runs on a thread with the JVM's default stack, as request threads have. */
  private static Object onDefaultStack(Runnable r) throws Exception {
    AtomicReference<Object> out = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                r.run();
                out.set("ok");
              } catch (Throwable e) {
                out.set(e);
              }
            });
    t.start();
    t.join();
    return out.get();
  }

  @Test
  void nestingAtTheLimitParsesOnADefaultStack() throws Exception {
    int d = WhereParser.MAX_DEPTH;
    String lucene = "(".repeat(d) + "a:1" + ")".repeat(d);
    String sql = "(".repeat(d) + "a = 1" + ")".repeat(d);
    String nots = "NOT ".repeat(d) + "a:1";
    String sqlNots = "NOT ".repeat(d) + "a = 1";
    assertEquals("ok", onDefaultStack(() -> WhereParser.parse(lucene, WhereLanguage.LUCENE)));
    assertEquals("ok", onDefaultStack(() -> WhereParser.parse(sql, WhereLanguage.SQL)));
    assertEquals("ok", onDefaultStack(() -> WhereParser.parse(nots, WhereLanguage.LUCENE)));
    assertEquals("ok", onDefaultStack(() -> WhereParser.parse(sqlNots, WhereLanguage.SQL)));
    Expr e = WhereParser.parse(sqlNots, WhereLanguage.SQL);
    assertEquals("ok", onDefaultStack(() -> WherePrinter.print(e, WhereLanguage.SQL)));
  }

  @Test
  void deeperNestingIsASyntaxErrorWithItsPosition() throws Exception {
    String[][] cases = {
      {"lucene", "(".repeat(30_000) + "a:1" + ")".repeat(30_000)},
      {"sql", "(".repeat(30_000) + "a = 1" + ")".repeat(30_000)},
      {"lucene", "NOT ".repeat(5_000) + "a:1"},
      {"lucene", "-".repeat(5_000) + "a"},
      {"sql", "NOT ".repeat(5_000) + "a = 1"},
      {"lucene", "a:(" + "(".repeat(4_000) + "b" + ")".repeat(4_000) + ")"},
    };
    for (String[] c : cases) {
      WhereLanguage language = c[0].equals("sql") ? WhereLanguage.SQL : WhereLanguage.LUCENE;
      Object result = onDefaultStack(() -> WhereParser.parse(c[1], language));
      assertTrue(result instanceof WhereSyntaxException, c[0] + ": " + result);
      WhereSyntaxException e = (WhereSyntaxException) result;
      assertTrue(e.getMessage().contains("nested deeper than 256 levels"), e.getMessage());
      assertEquals(1, e.line());
      assertTrue(e.column() > 256, "column " + e.column());
    }
  }

  @Test
  void longFlatChainsParseWithoutDeepRecursion() throws Exception {
    StringBuilder sql = new StringBuilder("a = 0");
    StringBuilder lucene = new StringBuilder("a:0");
    for (int i = 1; i < 4_000; i++) {
      sql.append(i % 2 == 0 ? " AND " : " OR ").append("a = ").append(i);
      lucene.append(i % 2 == 0 ? " AND " : " OR ").append("a:").append(i);
    }
    assertTrue(sql.length() <= WhereParser.MAX_LENGTH);
    assertEquals("ok", onDefaultStack(() -> WhereParser.parse(sql.toString(), WhereLanguage.SQL)));
    assertEquals(
        "ok", onDefaultStack(() -> WhereParser.parse(lucene.toString(), WhereLanguage.LUCENE)));
    Expr e = WhereParser.parse(sql.toString(), WhereLanguage.SQL);
    assertTrue(e instanceof Expr.Or or && or.operands().size() == 2_001, e.getClass().toString());
  }

  @Test
  void overlongTextsAreRefused() {
    String text = "a:1 ".repeat(20_000);
    WhereSyntaxException e =
        assertThrows(
            WhereSyntaxException.class, () -> WhereParser.parse(text, WhereLanguage.LUCENE));
    assertTrue(e.getMessage().contains("longer than 65536 characters"), e.getMessage());
  }
}
