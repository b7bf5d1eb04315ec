package dev.chartwell.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.exec.ReferenceEvaluator.Ev;
import dev.chartwell.engine.query.AggFn;
import dev.chartwell.engine.query.ChartQuery;
import dev.chartwell.engine.query.ChartResult;
import dev.chartwell.engine.query.Granularity;
import dev.chartwell.engine.query.QueryOptions;
import dev.chartwell.engine.query.Series;
import dev.chartwell.engine.query.SeriesReturnType;
import dev.chartwell.engine.source.Event;
import dev.chartwell.engine.source.Source;
import dev.chartwell.engine.source.SourceKind;
import dev.chartwell.engine.source.SourceSpec;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Fold;
import dev.chartwell.parser.Expr.Operand;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WherePrinter;
import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The engine against {@link ReferenceEvaluator}: random events in two sources (sparse and dense
 * fields of every type, out-of-order times) × random where trees in both languages × random
 * queries, with one and several segments, one and several threads, indexes on and off. Also
 * NOT(NOT(e)) ≡ e.
 */
class DifferentialProperties {
  static final long T0 = 1_700_000_000_000L;
  static final List<String> SVC = List.of("api", "web", "Auth", "db-1", "x y");
  static final List<String> WORDS =
      List.of(
          "error", "timeout", "GET", "user_service", "Connection", "reset", "ok", "a1b2", "café");
  static final List<String> NUM_STR = List.of("1", "2.5", "abc", "-3", "", "1e2", "10");
  static final List<Object> LITERALS =
      List.of(
          "api", "web", "auth", "x y", "h3", "200", "404", "500", "0.5", "2.25", "-3.5", "1", "2.5",
          "abc", "10", "true", "false", "", "a", "z", "1e2", "100");
  static final List<String> FIELDS =
      List.of("svc", "host", "status", "dur", "ok", "num", "Body", "nothing", "lat");

  record Dataset(List<Ev> a, List<Ev> b) {}

  record Case(
      Dataset data,
      int segmentRows,
      int threads,
      ChartQuery query,
      List<Expr> wheres,
      List<WhereLanguage> languages) {}

  /** How often each kind of case came up, to check that the generators exercise something. */
  private final Map<String, Integer> coverage = new HashMap<>();

  private int cases;

  @Test
  void engineEqualsReference() {
    qt().withExamples(1000).forAll(cases()).checkAssert(this::engineEqualsReference);
    // The generators must keep producing cases that exercise something.
    assertTrue(share("result rows: 5+") >= 0.10, coverage::toString);
    assertTrue(share("result rows: 0") <= 0.60, coverage::toString);
    assertTrue(share("segments: several") >= 0.25, coverage::toString);
    assertTrue(share("filtered: yes") >= 0.50, coverage::toString);
  }

  private double share(String label) {
    return coverage.getOrDefault(label, 0) / (double) cases;
  }

  private void engineEqualsReference(Case c) {
    ChartResult expected =
        ReferenceEvaluator.run(
            c.query(),
            Map.of("A", c.data().a(), "B", c.data().b()),
            Map.of("A", "Body", "B", "Body"),
            c.wheres());
    String rows = expected.rows().isEmpty() ? "0" : expected.rows().size() < 5 ? "1-4" : "5+";
    String segments = c.data().a().size() > c.segmentRows() ? "several" : "one";
    String filtered = c.wheres().stream().allMatch(w -> w instanceof Expr.MatchAll) ? "no" : "yes";
    cases++;
    coverage.merge("result rows: " + rows, 1, Integer::sum);
    coverage.merge("segments: " + segments, 1, Integer::sum);
    coverage.merge("filtered: " + filtered, 1, Integer::sum);
    try (Engine engine =
        Engine.builder().segmentRows(c.segmentRows()).workerThreads(c.threads()).build()) {
      load(engine, "A", c.data().a());
      load(engine, "B", c.data().b());
      assertSame(expected, engine.query(c.query(), QueryOptions.DEFAULT), "indexes on", c);
      assertSame(expected, engine.query(c.query(), new QueryOptions(false)), "indexes off", c);
      // NOT(NOT(e)) ≡ e
      List<Series> doubled = new ArrayList<>();
      for (int i = 0; i < c.query().series().size(); i++) {
        Series s = c.query().series().get(i);
        Expr e = c.wheres().get(i);
        // SQL has no literal for "everything"; an empty where stays empty.
        Expr twice = e instanceof Expr.MatchAll ? e : new Expr.Not(new Expr.Not(e));
        doubled.add(withWhere(s, twice, c.languages().get(i)));
      }
      ChartQuery q2 =
          new ChartQuery(
              c.query().startTime(),
              c.query().endTime(),
              c.query().granularity(),
              doubled,
              c.query().returnType());
      assertSame(expected, engine.query(q2), "NOT(NOT(e))", c);
    }
  }

  private static void load(Engine engine, String id, List<Ev> events) {
    Source s =
        engine.createSource(
            new SourceSpec(id, id, SourceKind.LOG, "Timestamp", "Body", "Body", List.of()));
    List<Event> batch = new ArrayList<>();
    for (Ev e : events) {
      batch.add(new Event(e.ts(), e.fields()));
    }
    // Part by part, so that sealing happens between appends too.
    int half = batch.size() / 2;
    assertEquals(half, s.appendBatch(batch.subList(0, half)).accepted());
    for (Event e : batch.subList(half, batch.size())) {
      s.append(e);
    }
  }

  private static Series withWhere(Series s, Expr where, WhereLanguage language) {
    return new Series(
        s.sourceId(),
        s.aggFn(),
        s.field(),
        s.level(),
        WherePrinter.print(where, language),
        language,
        s.groupBy());
  }

  private static void assertSame(ChartResult expected, ChartResult actual, String how, Case c) {
    String context =
        how
            + "\nquery "
            + c.query()
            + "\nsegmentRows "
            + c.segmentRows()
            + " threads "
            + c.threads();
    if (expected.rows().size() != actual.rows().size()) {
      fail(context + "\nexpected " + expected.rows() + "\nactual   " + actual.rows());
    }
    for (int r = 0; r < expected.rows().size(); r++) {
      ChartResult.Row e = expected.rows().get(r);
      ChartResult.Row a = actual.rows().get(r);
      if (e.bucket() != a.bucket()
          || !e.group().equals(a.group())
          || !close(e.values(), a.values())) {
        fail(
            context
                + "\nrow "
                + r
                + "\nexpected "
                + expected.rows()
                + "\nactual   "
                + actual.rows());
      }
    }
  }

  private static boolean close(List<Number> e, List<Number> a) {
    if (e.size() != a.size()) {
      return false;
    }
    for (int i = 0; i < e.size(); i++) {
      Number x = e.get(i);
      Number y = a.get(i);
      if (x == null || y == null) {
        if (x != y) {
          return false;
        }
      } else if (x instanceof Long || y instanceof Long) {
        if (!x.equals(y)) {
          return false;
        }
      } else {
        double dx = x.doubleValue();
        double dy = y.doubleValue();
        if (Math.abs(dx - dy) > 1e-9 * Math.max(1, Math.max(Math.abs(dx), Math.abs(dy)))) {
          return false;
        }
      }
    }
    return true;
  }

  static Gen<Case> cases() {
    Gen<Dataset> data = events().zip(events(), Dataset::new);
    return data.flatMap(
        d ->
            Gens.of(2, 5, 13, 100_000)
                .zip(
                    Gens.of(1, 3),
                    queries(),
                    Gens.ints(0, 99).zip(Gens.ints(0, 99), (a, b) -> new int[] {a, b}),
                    (rows, threads, q, ab) ->
                        new Case(
                            d,
                            rows,
                            threads,
                            snapToEvents(q.query(), d, ab[0], ab[1]),
                            q.wheres(),
                            q.languages())));
  }

  /** Half of the time, the range ends exactly on event timestamps (inclusive ends matter there). */
  private static ChartQuery snapToEvents(ChartQuery q, Dataset d, int a, int b) {
    List<Ev> events = d.a();
    if (events.isEmpty() || (a + b) % 2 == 0) {
      return q;
    }
    long x = events.get(a % events.size()).ts();
    long y = events.get(b % events.size()).ts();
    return new ChartQuery(
        Math.min(x, y), Math.max(x, y), q.granularity(), q.series(), q.returnType());
  }

  /** One event's fields before they become a map: absent ones are {@link #NONE}. */
  private record Fields(
      Object svc, Object host, Object status, Object dur, Object ok, Object num, Object body) {}

  private static Gen<List<Ev>> events() {
    Gen<Fields> first =
        maybe(Gens.of(SVC.toArray(String[]::new)), 4)
            .zip(
                maybe(Gens.ints(1, 9).map(i -> "h" + i), 2),
                maybe(Gens.of(200L, 404L, 500L, -1L, 0L), 3),
                maybe(Gens.of(0.5, 1.0, 2.25, -3.5, 100.0, 0.1), 2),
                (svc, host, status, dur) -> new Fields(svc, host, status, dur, NONE, NONE, NONE));
    Gen<Map<String, Object>> fields =
        first.zip(
            maybe(Gens.of(true, false), 1),
            maybe(Gens.of(NUM_STR.toArray(String[]::new)), 2),
            maybe(body(), 5),
            Gens.of(1.5, -2.0, 0.25, 8.0, 1e6),
            (f, ok, num, body, lat) -> {
              Map<String, Object> m = new LinkedHashMap<>();
              put(m, "svc", f.svc());
              put(m, "host", f.host());
              put(m, "status", f.status());
              put(m, "dur", f.dur());
              put(m, "ok", ok);
              put(m, "num", num);
              put(m, "Body", body);
              m.put("lat", lat); // always present: exercises the dense-array paths
              return m;
            });
    Gen<Long> offset =
        Generate.frequency(Pair.of(8, Gens.longs(0, 4_000)), Pair.of(1, Gens.longs(-2_000, 0)));
    return Gens.listOf(offset.zip(fields, (o, f) -> new Object[] {o, f}), 8, 40)
        .map(
            list -> {
              List<Ev> out = new ArrayList<>();
              long t = T0 + 3_000_000;
              for (Object[] x : list) {
                t += (Long) x[0] * 30; // mostly forward, sometimes back in time
                @SuppressWarnings("unchecked")
                Map<String, Object> f = (Map<String, Object>) x[1];
                out.add(new Ev(t, f));
              }
              return out;
            });
  }

  private static void put(Map<String, Object> m, String k, Object v) {
    if (v != NONE) {
      m.put(k, v);
    }
  }

  private static final Object NONE =
      new Object() {
        @Override
        public String toString() {
          return "(absent)";
        }
      };

  private static <T> Gen<Object> maybe(Gen<T> a, int weight) {
    return Generate.frequency(
        Pair.of(weight, a.map(x -> (Object) x)), Pair.of(1, Generate.constant(NONE)));
  }

  private static Gen<String> body() {
    return Gens.listOf(Gens.of(WORDS.toArray(String[]::new)), 1, 4)
        .zip(Gens.of(" ", "-", "/", ": ", "_"), (words, sep) -> String.join(sep, words));
  }

  /** A query with its series' where trees and the language each is written in. */
  record QueryCase(ChartQuery query, List<Expr> wheres, List<WhereLanguage> languages) {}

  /** One series with its where tree and language. */
  record SeriesCase(Series series, Expr where, WhereLanguage language) {}

  private static Gen<QueryCase> queries() {
    Gen<Long> start = Gens.longs(T0 + 2_900_000, T0 + 3_150_000);
    Gen<Long> length =
        Generate.frequency(
            Pair.of(1, Gens.longs(0, 60_000)), Pair.of(6, Gens.longs(900_000, 3_000_000)));
    Gen<Granularity> granularity =
        Gens.of("30s", "1m", "5m", "1h", "1d").map(g -> Granularity.named(g).orElseThrow());
    Gen<List<String>> groupBy =
        Gens.oneOf(
            Generate.constant(List.<String>of()),
            Gens.of("svc", "host", "status", "dur", "ok", "nothing").map((String f) -> List.of(f)),
            Generate.constant(List.of("svc", "ok")));
    Gen<ChartQuery> shape =
        start.zip(
            length,
            granularity,
            (s, len, g) -> new ChartQuery(s, s + len, g, List.of(), SeriesReturnType.COLUMN));
    return shape.zip(
        groupBy,
        Gens.listOf(oneSeries(), 1, 3),
        Generate.booleans(),
        (q, gb, list, ratio) -> {
          List<Series> ss = new ArrayList<>();
          List<Expr> wheres = new ArrayList<>();
          List<WhereLanguage> langs = new ArrayList<>();
          for (SeriesCase t : list) {
            Series x = t.series();
            ss.add(
                new Series(
                    x.sourceId(),
                    x.aggFn(),
                    x.field(),
                    x.level(),
                    x.where(),
                    x.whereLanguage(),
                    gb));
            wheres.add(t.where());
            langs.add(t.language());
          }
          SeriesReturnType type =
              ratio && ss.size() == 2 ? SeriesReturnType.RATIO : SeriesReturnType.COLUMN;
          return new QueryCase(
              new ChartQuery(q.startTime(), q.endTime(), q.granularity(), ss, type), wheres, langs);
        });
  }

  /** The parts of a series other than its where. */
  private record SeriesShape(
      String source, AggFn fn, String field, Double level, boolean countWithField) {}

  private static Gen<SeriesCase> oneSeries() {
    Gen<String> field =
        Generate.frequency(
            Pair.of(6, Gens.of("status", "dur", "num", "lat")),
            Pair.of(2, Gens.of("svc", "host", "ok", "Body", "nothing")));
    Gen<SeriesShape> shape =
        Gens.of("A", "B")
            .zip(
                Generate.enumValues(AggFn.class),
                field,
                Gens.of(0.0, 0.25, 0.5, 0.9, 1.0),
                Generate.booleans(),
                SeriesShape::new);
    return shape
        .zip(Generate.enumValues(WhereLanguage.class), (x, lang) -> new Object[] {x, lang})
        .flatMap(
            pair -> {
              SeriesShape x = (SeriesShape) pair[0];
              WhereLanguage lang = (WhereLanguage) pair[1];
              return where(lang)
                  .map(
                      w -> {
                        String useField =
                            x.fn().isCount() && !x.countWithField() ? null : x.field();
                        Series s =
                            new Series(
                                x.source(),
                                x.fn(),
                                useField,
                                x.level(),
                                WherePrinter.print(w, lang),
                                lang,
                                List.of());
                        return new SeriesCase(s, w, lang);
                      });
            });
  }

  private static Gen<Expr> where(WhereLanguage lang) {
    Gen<Expr> leaf = lang == WhereLanguage.LUCENE ? luceneLeaf() : sqlLeaf();
    Gen<Expr> tree = Gens.ints(0, 2).flatMap(depth -> nested(leaf, depth));
    return Generate.frequency(
        Pair.of(1, Generate.constant((Expr) new Expr.MatchAll())), Pair.of(3, tree));
  }

  private static Gen<Expr> nested(Gen<Expr> leaf, int depth) {
    return depth == 0 ? leaf : compose(nested(leaf, depth - 1));
  }

  private static Gen<Expr> compose(Gen<Expr> child) {
    return Generate.frequency(
        Pair.of(1, Gens.listOf(child, 2, 3).map(Expr::and)),
        Pair.of(2, Gens.listOf(child, 2, 3).map(Expr::or)),
        Pair.of(2, child.map(e -> (Expr) new Expr.Not(e))));
  }

  private static Gen<String> literal() {
    return Gens.of(LITERALS.toArray()).map(Object::toString);
  }

  /** Mostly values the field really has, so that predicates match often enough to test. */
  private static Gen<String> literalFor(String field) {
    List<String> own =
        switch (field) {
          case "svc" -> SVC;
          case "host" -> List.of("h1", "h2", "h3", "h5", "h9");
          case "status" -> List.of("200", "404", "500", "-1", "0", "250");
          case "dur" -> List.of("0.5", "1.0", "2.25", "-3.5", "100", "0.1", "1");
          case "lat" -> List.of("1.5", "-2", "0.25", "8", "1e6", "1000000");
          case "ok" -> List.of("true", "false", "TRUE");
          case "num" -> NUM_STR;
          case "Body" -> WORDS;
          default -> List.of("api", "1");
        };
    return Generate.frequency(Pair.of(3, Generate.pick(own)), Pair.of(1, literal()));
  }

  /** A field and a literal for it. */
  private record FieldValue(String field, String value) {}

  private static Gen<FieldValue> fieldValue() {
    return field().flatMap(f -> literalFor(f).map(v -> new FieldValue(f, v)));
  }

  private static Gen<String> field() {
    return Generate.pick(FIELDS);
  }

  private static Gen<String> likePattern() {
    return Gens.of("", "a", "er", "h", "1", "x y", "ap", "_", "T")
        .zip(
            Gens.of("%", "", "_"),
            Gens.of("", "i", "r", "0", "b"),
            Gens.of("%", "", "_"),
            (a, w1, b, w2) -> a + w1 + b + w2);
  }

  /** A LIKE pattern as a Lucene wildcard can say it: some '%', not only '%', no '_'. */
  private static String asLuceneWildcard(String like) {
    String p = like.replace("_", "");
    if (!p.contains("%")) {
      p = p + "%";
    }
    return p.equals("%") ? "a%" : p;
  }

  private static Gen<Expr> luceneLeaf() {
    // QuickTheories rejects a whole case when any part fails an assumption, so the leaves are
    // drawn from valid values directly instead of filtered.
    List<String> words =
        WORDS.stream()
            .map(w -> w.toLowerCase(Locale.ROOT))
            .filter(dev.chartwell.parser.Tokens::isSingleToken)
            .toList();
    return Gens.oneOf(
        Generate.pick(words).map(Expr.Token::new),
        Gens.of("connection reset", "user_service", "get/user", "error: ok", "café", "a1b2-ok")
            .map(Expr.Phrase::new),
        Gens.of("tim%", "%out", "%ser%", "e%r", "%1%").map(Expr.TokenPattern::new),
        fieldValue().map(t -> new Expr.Match(t.field(), t.value().isEmpty() ? "a" : t.value())),
        fieldValue()
            .zip(
                Generate.enumValues(CompareOp.class),
                (t, op) -> new Expr.Compare(Operand.of(t.field()), op, t.value())),
        field()
            .flatMap(
                f ->
                    literalFor(f)
                        .zip(
                            Generate.booleans(),
                            literalFor(f),
                            Generate.booleans(),
                            (lo, li, hi, hin) -> new Expr.Range(Operand.of(f), lo, li, hi, hin))),
        field()
            .zip(
                likePattern().map(DifferentialProperties::asLuceneWildcard),
                (f, p) -> new Expr.Like(Operand.of(f), p, true)),
        field().map(Expr.Exists::new),
        field().map(f -> new Expr.Not(new Expr.IsNull(f))));
  }

  private static Gen<Expr> sqlLeaf() {
    Gen<Operand> operand =
        field()
            .zip(
                Generate.frequency(
                    Pair.of(3, Generate.constant(Fold.NONE)),
                    Pair.of(1, Gens.of(Fold.LOWER, Fold.UPPER))),
                Operand::new);
    return Gens.oneOf(
        operand.flatMap(
            o ->
                Generate.enumValues(CompareOp.class)
                    .zip(literalFor(o.field()), (op, v) -> new Expr.Compare(o, op, v))),
        operand.flatMap(
            o ->
                literalFor(o.field())
                    .zip(literalFor(o.field()), (lo, hi) -> new Expr.Range(o, lo, true, hi, true))),
        operand.flatMap(
            o -> Gens.listOf(literalFor(o.field()), 1, 3).map(values -> new Expr.In(o, values))),
        operand.zip(likePattern(), Generate.booleans(), Expr.Like::new),
        field().map(Expr.IsNull::new),
        field().zip(Gens.of("error", "GET", "get", "ok", "h3", "api", "200"), Expr.HasToken::new),
        field()
            .zip(
                Gens.of("rr", "Ti", "x y", "1", "-", "é"),
                Generate.booleans(),
                Expr.Contains::new));
  }
}
