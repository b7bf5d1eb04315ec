package dev.chartwell.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

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

  @Property(tries = 1000)
  void engineEqualsReference(@ForAll("cases") Case c) {
    ChartResult expected =
        ReferenceEvaluator.run(
            c.query(),
            Map.of("A", c.data().a(), "B", c.data().b()),
            Map.of("A", "Body", "B", "Body"),
            c.wheres());
    String rows = expected.rows().isEmpty() ? "0" : expected.rows().size() < 5 ? "1-4" : "5+";
    String segments = c.data().a().size() > c.segmentRows() ? "several" : "one";
    String filtered = c.wheres().stream().allMatch(w -> w instanceof Expr.MatchAll) ? "no" : "yes";
    Statistics.label("result rows").collect(rows);
    Statistics.label("segments").collect(segments);
    Statistics.label("filtered").collect(filtered);
    // The generators must keep producing cases that exercise something.
    Statistics.label("result rows").coverage(k -> k.check("5+").percentage(p -> p >= 10));
    Statistics.label("result rows").coverage(k -> k.check("0").percentage(p -> p <= 60));
    Statistics.label("segments").coverage(k -> k.check("several").percentage(p -> p >= 25));
    Statistics.label("filtered").coverage(k -> k.check("yes").percentage(p -> p >= 50));
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

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<Dataset> data = Combinators.combine(events(), events()).as(Dataset::new);
    return data.flatMap(
        d ->
            Combinators.combine(
                    Arbitraries.of(2, 5, 13, 100_000),
                    Arbitraries.of(1, 3),
                    queries(),
                    Arbitraries.integers().between(0, 99),
                    Arbitraries.integers().between(0, 99))
                .as(
                    (rows, threads, q, a, b) ->
                        new Case(
                            d,
                            rows,
                            threads,
                            snapToEvents(q.get1(), d, a, b),
                            q.get2(),
                            q.get3())));
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

  private Arbitrary<List<Ev>> events() {
    Arbitrary<Map<String, Object>> fields =
        Combinators.combine(
                maybe(Arbitraries.of(SVC), 4),
                maybe(Arbitraries.integers().between(1, 9).map(i -> "h" + i), 2),
                maybe(Arbitraries.of(200L, 404L, 500L, -1L, 0L), 3),
                maybe(Arbitraries.of(0.5, 1.0, 2.25, -3.5, 100.0, 0.1), 2),
                maybe(Arbitraries.of(true, false), 1),
                maybe(Arbitraries.of(NUM_STR), 2),
                maybe(body(), 5),
                Arbitraries.of(1.5, -2.0, 0.25, 8.0, 1e6))
            .as(
                (svc, host, status, dur, ok, num, body, lat) -> {
                  Map<String, Object> m = new LinkedHashMap<>();
                  put(m, "svc", svc);
                  put(m, "host", host);
                  put(m, "status", status);
                  put(m, "dur", dur);
                  put(m, "ok", ok);
                  put(m, "num", num);
                  put(m, "Body", body);
                  m.put("lat", lat); // always present: exercises the dense-array paths
                  return m;
                });
    Arbitrary<Long> offset =
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.longs().between(0, 4_000)),
            Tuple.of(1, Arbitraries.longs().between(-2_000, 0)));
    return Combinators.combine(offset, fields)
        .as((o, f) -> new Object[] {o, f})
        .list()
        .ofMinSize(8)
        .ofMaxSize(40)
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

  private static final Object NONE = new Object();

  private static <T> Arbitrary<Object> maybe(Arbitrary<T> a, int weight) {
    return Arbitraries.frequencyOf(
        Tuple.of(weight, a.map(x -> (Object) x)), Tuple.of(1, Arbitraries.just(NONE)));
  }

  private static Arbitrary<String> body() {
    return Combinators.combine(
            Arbitraries.of(WORDS).list().ofMinSize(1).ofMaxSize(4),
            Arbitraries.of(" ", "-", "/", ": ", "_"))
        .as((words, sep) -> String.join(sep, words));
  }

  /** A query with its series' where trees and the language each is written in. */
  private Arbitrary<Tuple.Tuple3<ChartQuery, List<Expr>, List<WhereLanguage>>> queries() {
    Arbitrary<Long> start =
        Arbitraries.longs().between(T0 + 2_900_000, T0 + 3_150_000).withoutEdgeCases();
    Arbitrary<Long> length =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.longs().between(0, 60_000)),
            Tuple.of(6, Arbitraries.longs().between(900_000, 3_000_000).withoutEdgeCases()));
    Arbitrary<Granularity> granularity =
        Arbitraries.of(
            Granularity.named("30s").orElseThrow(),
            Granularity.named("1m").orElseThrow(),
            Granularity.named("5m").orElseThrow(),
            Granularity.named("1h").orElseThrow(),
            Granularity.named("1d").orElseThrow());
    Arbitrary<List<String>> groupBy =
        Arbitraries.oneOf(
            Arbitraries.just(List.of()),
            Arbitraries.of("svc", "host", "status", "dur", "ok", "nothing").map(List::of),
            Arbitraries.just(List.of("svc", "ok")));
    Arbitrary<Tuple.Tuple3<Series, Expr, WhereLanguage>> series = oneSeries();
    return Combinators.combine(
            start,
            length,
            granularity,
            groupBy,
            series.list().ofMinSize(1).ofMaxSize(3),
            Arbitraries.of(true, false))
        .as(
            (s, len, g, gb, list, ratio) -> {
              List<Series> ss = new ArrayList<>();
              List<Expr> wheres = new ArrayList<>();
              List<WhereLanguage> langs = new ArrayList<>();
              for (Tuple.Tuple3<Series, Expr, WhereLanguage> t : list) {
                Series x = t.get1();
                ss.add(
                    new Series(
                        x.sourceId(),
                        x.aggFn(),
                        x.field(),
                        x.level(),
                        x.where(),
                        x.whereLanguage(),
                        gb));
                wheres.add(t.get2());
                langs.add(t.get3());
              }
              SeriesReturnType type =
                  ratio && ss.size() == 2 ? SeriesReturnType.RATIO : SeriesReturnType.COLUMN;
              return Tuple.of(new ChartQuery(s, s + len, g, ss, type), wheres, langs);
            });
  }

  private Arbitrary<Tuple.Tuple3<Series, Expr, WhereLanguage>> oneSeries() {
    Arbitrary<AggFn> fn = Arbitraries.of(AggFn.class);
    Arbitrary<String> field =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.of("status", "dur", "num", "lat")),
            Tuple.of(2, Arbitraries.of("svc", "host", "ok", "Body", "nothing")));
    Arbitrary<Double> level = Arbitraries.of(0.0, 0.25, 0.5, 0.9, 1.0);
    Arbitrary<WhereLanguage> language = Arbitraries.of(WhereLanguage.class);
    return Combinators.combine(
            Arbitraries.of("A", "B"), fn, field, level, language, Arbitraries.of(true, false))
        .flatAs(
            (src, f, fld, lvl, lang, countWithField) ->
                where(lang)
                    .map(
                        w -> {
                          String useField = f.isCount() && !countWithField ? null : fld;
                          Series s =
                              new Series(
                                  src,
                                  f,
                                  useField,
                                  lvl,
                                  WherePrinter.print(w, lang),
                                  lang,
                                  List.of());
                          return Tuple.of(s, w, lang);
                        }));
  }

  private Arbitrary<Expr> where(WhereLanguage lang) {
    Arbitrary<Expr> leaf = lang == WhereLanguage.LUCENE ? luceneLeaf() : sqlLeaf();
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(new Expr.MatchAll())),
        Tuple.of(3, Arbitraries.recursive(() -> leaf, DifferentialProperties::compose, 0, 2)));
  }

  private static Arbitrary<Expr> compose(Arbitrary<Expr> child) {
    return Arbitraries.frequencyOf(
        Tuple.of(1, child.list().ofMinSize(2).ofMaxSize(3).map(Expr::and)),
        Tuple.of(2, child.list().ofMinSize(2).ofMaxSize(3).map(Expr::or)),
        Tuple.of(2, child.map(Expr.Not::new)));
  }

  private static Arbitrary<String> literal() {
    return Arbitraries.of(LITERALS).map(Object::toString);
  }

  /** Mostly values the field really has, so that predicates match often enough to test. */
  private static Arbitrary<String> literalFor(String field) {
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
    return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(own)), Tuple.of(1, literal()));
  }

  /** A field and a literal for it. */
  private static Arbitrary<Tuple.Tuple2<String, String>> fieldValue() {
    return field().flatMap(f -> literalFor(f).map(v -> Tuple.of(f, v)));
  }

  private static Arbitrary<String> field() {
    return Arbitraries.of(FIELDS);
  }

  private static Arbitrary<String> likePattern() {
    return Combinators.combine(
            Arbitraries.of("", "a", "er", "h", "1", "x y", "ap", "_", "T"),
            Arbitraries.of("%", "", "_"),
            Arbitraries.of("", "i", "r", "0", "b"),
            Arbitraries.of("%", "", "_"))
        .as((a, w1, b, w2) -> a + w1 + b + w2);
  }

  private Arbitrary<Expr> luceneLeaf() {
    Arbitrary<String> word = Arbitraries.of(WORDS).map(w -> w.toLowerCase(java.util.Locale.ROOT));
    return Arbitraries.oneOf(
        word.filter(dev.chartwell.parser.Tokens::isSingleToken).map(Expr.Token::new),
        Arbitraries.of(
                "connection reset", "user_service", "get/user", "error: ok", "café", "a1b2-ok")
            .map(Expr.Phrase::new),
        Arbitraries.of("tim%", "%out", "%ser%", "e%r", "%1%").map(Expr.TokenPattern::new),
        fieldValue().filter(t -> !t.get2().isEmpty()).map(t -> new Expr.Match(t.get1(), t.get2())),
        Combinators.combine(fieldValue(), Arbitraries.of(CompareOp.class))
            .as((t, op) -> new Expr.Compare(Operand.of(t.get1()), op, t.get2())),
        field()
            .flatMap(
                f ->
                    Combinators.combine(
                            literalFor(f),
                            Arbitraries.of(true, false),
                            literalFor(f),
                            Arbitraries.of(true, false))
                        .as((lo, li, hi, hin) -> new Expr.Range(Operand.of(f), lo, li, hi, hin))),
        Combinators.combine(
                field(),
                likePattern().filter(p -> p.contains("%") && !p.equals("%") && !p.contains("_")))
            .as((f, p) -> new Expr.Like(Operand.of(f), p, true)),
        field().map(Expr.Exists::new),
        field().map(f -> new Expr.Not(new Expr.IsNull(f))));
  }

  private Arbitrary<Expr> sqlLeaf() {
    Arbitrary<Operand> operand =
        Combinators.combine(
                field(),
                Arbitraries.frequencyOf(
                    Tuple.of(3, Arbitraries.just(Fold.NONE)),
                    Tuple.of(1, Arbitraries.of(Fold.LOWER, Fold.UPPER))))
            .as(Operand::new);
    return Arbitraries.oneOf(
        operand.flatMap(
            o ->
                Combinators.combine(Arbitraries.of(CompareOp.class), literalFor(o.field()))
                    .as((op, v) -> new Expr.Compare(o, op, v))),
        operand.flatMap(
            o ->
                Combinators.combine(literalFor(o.field()), literalFor(o.field()))
                    .as((lo, hi) -> new Expr.Range(o, lo, true, hi, true))),
        operand.flatMap(
            o ->
                literalFor(o.field())
                    .list()
                    .ofMinSize(1)
                    .ofMaxSize(3)
                    .map(values -> new Expr.In(o, values))),
        Combinators.combine(operand, likePattern(), Arbitraries.of(true, false)).as(Expr.Like::new),
        field().map(Expr.IsNull::new),
        Combinators.combine(
                field(), Arbitraries.of("error", "GET", "get", "ok", "h3", "api", "200"))
            .as(Expr.HasToken::new),
        Combinators.combine(
                field(),
                Arbitraries.of("rr", "Ti", "x y", "1", "-", "é"),
                Arbitraries.of(true, false))
            .as(Expr.Contains::new));
  }
}
