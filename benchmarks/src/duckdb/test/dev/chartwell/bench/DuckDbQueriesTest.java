package dev.chartwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Engine;
import java.sql.DriverManager;
import java.util.List;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

/**
 * The DuckDB SQL of Q1–Q6 against the engine's chart queries on the same events: the answers must
 * be equal (the side-by-side's own check, run here on a small data set), and the comparison must
 * notice a difference.
 */
class DuckDbQueriesTest {
  private static final int ROWS = 50_000;

  @Test
  void duckDbAnswersQ1toQ6AsTheEngineDoes() throws Exception {
    BenchData.Loaded loaded = BenchData.inMemory(ROWS);
    try (Engine engine = loaded.engine();
        DuckDBConnection duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
      DuckDbSideBySide.loadDuckDb(duck, ROWS);
      List<ChartQuery> ours = QueryBenchmark.queries();
      List<DuckDbQueries.Sql> theirs = DuckDbQueries.all();
      for (int q = 0; q < ours.size(); q++) {
        DuckDbQueries.Answer cw = DuckDbQueries.Answer.of(engine.query(ours.get(q)));
        DuckDbQueries.Answer dd = DuckDbQueries.run(duck, theirs.get(q));
        assertTrue(cw.rows() > 0, "Q" + (q + 1) + " answered no rows");
        assertEquals(
            List.of(), DuckDbQueries.differences(cw, dd, theirs.get(q).series()), "Q" + (q + 1));
      }
      // a different query on one side must show as differences
      DuckDbQueries.Answer q1 = DuckDbQueries.Answer.of(engine.query(ours.get(0)));
      DuckDbQueries.Answer q4 = DuckDbQueries.run(duck, theirs.get(3));
      assertFalse(DuckDbQueries.differences(q1, q4, theirs.get(0).series()).isEmpty());
    }
  }

  @Test
  void numbersAgreeWithinTheToleranceAndCountsOnlyExactly() {
    assertTrue(DuckDbQueries.agree(1.0, 1.0 + 1e-12, DuckDbQueries.Kind.NUMBER));
    assertFalse(DuckDbQueries.agree(1.0, 1.0 + 1e-6, DuckDbQueries.Kind.NUMBER));
    assertFalse(DuckDbQueries.agree(100, 101, DuckDbQueries.Kind.COUNT));
    assertTrue(DuckDbQueries.agree(Double.NaN, Double.NaN, DuckDbQueries.Kind.NUMBER));
    assertFalse(DuckDbQueries.agree(Double.NaN, 1.0, DuckDbQueries.Kind.NUMBER));
  }
}
