package dev.chartwell.engine.internal.exec;

import static dev.chartwell.engine.testing.Gens.check;
import static dev.chartwell.engine.testing.Gens.lists;
import static dev.chartwell.engine.testing.Gens.noShrink;
import static dev.chartwell.engine.testing.Gens.of;
import static dev.chartwell.engine.testing.Gens.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.internal.exec.ReferenceEvaluator.Ev;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WherePrinter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The engine's event search ({@link dev.chartwell.engine.internal.search.EventSearch}) against a
 * naive scan: every event filtered by time and by {@link ReferenceEvaluator#eval}, sorted by time
 * and arrival, then paged. Random events (out-of-order times, sparse fields of every type) in one
 * and several segments, random where trees in both languages, both orders, random limits, offsets
 * and columns, indexes on and off. It lives beside the chart query's reference evaluator, which it
 * shares.
 */
class SearchDifferentialProperties {
  private static final List<String> COLUMNS =
      List.of("Timestamp", "svc", "host", "status", "dur", "ok", "num", "Body", "lat", "nothing");

  record Case(
      List<Ev> events,
      int segmentRows,
      int threads,
      long start,
      long end,
      Expr where,
      WhereLanguage language,
      SearchOrder order,
      int limit,
      int offset,
      List<String> columns) {}

  private int nonEmpty;
  private int examples;

  @Test
  void searchEqualsNaiveScan() {
    check(500, 0, cases(), noShrink(), this::searchEqualsNaiveScan);
    // The generators must keep producing pages with events in them.
    assertTrue(nonEmpty * 100 / examples >= 30, () -> nonEmpty + " of " + examples + " non-empty");
  }

  private void searchEqualsNaiveScan(Case c) {
    List<Map<String, Object>> expected = expected(c);
    examples++;
    if (!expected.isEmpty()) {
      nonEmpty++;
    }
    try (Engine engine =
        Engine.builder().segmentRows(c.segmentRows()).workerThreads(c.threads()).build()) {
      DifferentialProperties.load(engine, "A", c.events());
      SearchQuery q =
          new SearchQuery(
              "A",
              c.start(),
              c.end(),
              WherePrinter.print(c.where(), c.language()),
              Languages.engine(c.language()),
              c.columns(),
              c.order(),
              c.limit(),
              c.offset());
      for (boolean indexes : new boolean[] {true, false}) {
        SearchResult r = engine.search(q, new QueryOptions(indexes));
        assertEquals(
            expected,
            reordered(r.rows(), columnsOf(c)),
            () -> "indexes " + indexes + " where " + WherePrinter.print(c.where(), c.language()));
        if (c.columns() != null) {
          assertEquals(c.columns(), r.columns());
        } else {
          // The schema's order (the implicit column first), after the timestamp.
          assertEquals("Timestamp", r.columns().get(0));
          assertEquals(new java.util.HashSet<>(columnsOf(c)), new java.util.HashSet<>(r.columns()));
        }
      }
    }
  }

  /** Rows with their keys in the given order (maps compare without order anyway). */
  private static List<Map<String, Object>> reordered(
      List<Map<String, Object>> rows, List<String> columns) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      columns.forEach(col -> m.put(col, r.get(col)));
      out.add(m);
    }
    return out;
  }

  private static List<String> columnsOf(Case c) {
    if (c.columns() != null) {
      return c.columns();
    }
    // Every column the engine learnt, in the order it first saw them: after the timestamp.
    List<String> all = new ArrayList<>();
    all.add("Timestamp");
    for (Ev e : c.events()) {
      for (String f : e.fields().keySet()) {
        if (!all.contains(f)) {
          all.add(f);
        }
      }
    }
    return all;
  }

  private static List<Map<String, Object>> expected(Case c) {
    List<Integer> matching = new ArrayList<>();
    for (int i = 0; i < c.events().size(); i++) {
      Ev e = c.events().get(i);
      if (e.ts() >= c.start()
          && e.ts() <= c.end()
          && ReferenceEvaluator.eval(c.where(), e.fields(), "Body")) {
        matching.add(i);
      }
    }
    // Time, then arrival: the list's order is the order the events were appended in.
    Comparator<Integer> oldest =
        Comparator.<Integer>comparingLong(i -> c.events().get(i).ts()).thenComparingInt(i -> i);
    matching.sort(c.order() == SearchOrder.NEWEST_FIRST ? oldest.reversed() : oldest);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int k = c.offset(); k < matching.size() && k < c.offset() + c.limit(); k++) {
      Ev e = c.events().get(matching.get(k));
      Map<String, Object> row = new LinkedHashMap<>();
      for (String col : columnsOf(c)) {
        row.put(col, col.equals("Timestamp") ? (Object) e.ts() : e.fields().get(col));
      }
      rows.add(row);
    }
    return rows;
  }

  private static Gen<Case> cases() {
    Gen<List<Ev>> events = DifferentialProperties.events();
    Gen<Integer> segmentRows = of(2, 5, 13, 100_000);
    Gen<Integer> threads = of(1, 3);
    Gen<Long> start =
        longs()
            .between(DifferentialProperties.T0 + 2_900_000, DifferentialProperties.T0 + 3_500_000);
    Gen<Long> length =
        weighted(1, longs().between(0, 60_000), 4, longs().between(1_000_000, 6_000_000));
    Gen<WhereLanguage> language = of(WhereLanguage.values());
    Map<WhereLanguage, Gen<Expr>> where =
        Map.of(
            WhereLanguage.LUCENE, DifferentialProperties.where(WhereLanguage.LUCENE),
            WhereLanguage.SQL, DifferentialProperties.where(WhereLanguage.SQL));
    Gen<SearchOrder> order = of(SearchOrder.values());
    Gen<Integer> limit = weighted(3, integers().between(1, 5), 1, integers().between(1, 50));
    Gen<Integer> offset = weighted(3, integers().between(0, 0), 2, integers().between(0, 12));
    Gen<List<String>> columns =
        weighted(
            1,
            in -> null,
            3,
            lists(of(COLUMNS), 1, 4).map(l -> List.copyOf(new java.util.LinkedHashSet<>(l))));
    return in -> {
      List<Ev> evs = events.generate(in);
      long s = start.generate(in);
      WhereLanguage lang = language.generate(in);
      return new Case(
          evs,
          segmentRows.generate(in),
          threads.generate(in),
          s,
          s + length.generate(in),
          where.get(lang).generate(in),
          lang,
          order.generate(in),
          limit.generate(in),
          offset.generate(in),
          columns.generate(in));
    };
  }
}
