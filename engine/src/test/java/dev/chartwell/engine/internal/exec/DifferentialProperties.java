package dev.chartwell.engine.internal.exec;

import static dev.chartwell.engine.testing.Gens.check;
import static dev.chartwell.engine.testing.Gens.lists;
import static dev.chartwell.engine.testing.Gens.of;
import static dev.chartwell.engine.testing.Gens.oneOf;
import static dev.chartwell.engine.testing.Gens.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.internal.exec.ReferenceEvaluator.Ev;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.engine.testing.Gens;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Fold;
import dev.chartwell.parser.Expr.Operand;
import dev.chartwell.parser.Tokens;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WherePrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The engine against {@link ReferenceEvaluator}: random events in two sources (sparse and dense
 * fields of every type, out-of-order times) × random where trees in both languages × random
 * queries, with one and several segments, one and several threads, indexes on and off. Also
 * NOT(NOT(e)) ≡ e.
 */
public class DifferentialProperties {
  static final long T0 = 1_700_000_000_000L;
  static final List<String> SVC = List.of("api", "web", "Auth", "db-1", "x y", "");
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

  /**
   * The events of the two sources, A and B.
   *
   * @param a events of A
   * @param b events of B
   */
  public record Dataset(List<Ev> a, List<Ev> b) {}

  /**
   * One example: data, engine set-up and a query with its where trees. Public, with {@link #cases},
   * for the ClickHouse backend's differential test, which reuses this generator.
   *
   * @param data the events
   * @param segmentRows rows per segment
   * @param threads worker threads
   * @param query the query
   * @param wheres each series' where tree
   * @param languages each series' where language
   */
  public record Case(
      Dataset data,
      int segmentRows,
      int threads,
      ChartQuery query,
      List<Expr> wheres,
      List<WhereLanguage> languages) {

    /** The where texts as the series say them, one a line. */
    String whereTexts() {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < wheres.size(); i++) {
        sb.append("\nwhere ")
            .append(i)
            .append(" (")
            .append(languages.get(i))
            .append("): ")
            .append(WherePrinter.print(wheres.get(i), languages.get(i)))
            .append("\n  tree ")
            .append(wheres.get(i));
      }
      return sb.toString();
    }

    @Override
    public String toString() {
      StringBuilder sb =
          new StringBuilder()
              .append("segmentRows ")
              .append(segmentRows)
              .append(" threads ")
              .append(threads)
              .append("\nquery ")
              .append(query)
              .append(whereTexts());
      events(sb, "A", data.a());
      events(sb, "B", data.b());
      return sb.toString();
    }

    private static void events(StringBuilder sb, String source, List<Ev> events) {
      sb.append("\nevents of ").append(source).append(" (").append(events.size()).append(")");
      for (Ev e : events) {
        sb.append("\n  ").append(e.ts()).append(' ').append(e.fields());
      }
    }
  }

  /** A query with its series' where trees and the language each is written in. */
  private record Query(ChartQuery query, List<Expr> wheres, List<WhereLanguage> languages) {}

  /** One series with its where tree and language. */
  private record OneSeries(Series series, Expr where, WhereLanguage language) {}

  private record FieldValue(String field, String value) {}

  /**
   * Coverage: how often each label took each value over the run, checked after the run (the
   * generators must keep producing cases that exercise something).
   */
  private final Map<String, Map<String, Integer>> coverage = new TreeMap<>();

  private int examples;

  @Test
  void engineEqualsReference() {
    // QuickTheories shrinks one random draw at a time, which gets nowhere with a case of a thousand
    // draws (and takes a query per try); CaseShrinker shrinks a failing case by its structure.
    check(1000, 0, cases(), CaseShrinker::candidates, this::engineEqualsReference);
    System.out.println("DifferentialProperties: " + examples + " examples, " + coverage);
    checkCoverage("result rows", "5+", p -> p >= 10);
    checkCoverage("result rows", "0", p -> p <= 60);
    checkCoverage("segments", "several", p -> p >= 25);
    checkCoverage("filtered", "yes", p -> p >= 50);
  }

  private void collect(String label, String value) {
    coverage.computeIfAbsent(label, k -> new TreeMap<>()).merge(value, 1, Integer::sum);
  }

  private void checkCoverage(String label, String value, DoublePredicate percentage) {
    double p = 100.0 * coverage.get(label).getOrDefault(value, 0) / examples;
    assertTrue(
        percentage.test(p),
        () -> "coverage of " + label + " = " + value + ": " + p + "% " + coverage.get(label));
  }

  private void engineEqualsReference(Case c) {
    ChartResult expected = expected(c);
    String rows = expected.rows().isEmpty() ? "0" : expected.rows().size() < 5 ? "1-4" : "5+";
    String segments = c.data().a().size() > c.segmentRows() ? "several" : "one";
    String filtered = c.wheres().stream().allMatch(w -> w instanceof Expr.MatchAll) ? "no" : "yes";
    examples++;
    collect("result rows", rows);
    collect("segments", segments);
    collect("filtered", filtered);
    compare(c, expected);
  }

  /**
   * @param c a case
   * @return what the reference evaluator answers
   */
  public static ChartResult expected(Case c) {
    return ReferenceEvaluator.run(
        c.query(),
        Map.of("A", c.data().a(), "B", c.data().b()),
        Map.of("A", "Body", "B", "Body"),
        c.wheres());
  }

  private static void compare(Case c, ChartResult expected) {
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

  /**
   * Loads events into a new log source of an engine (timestamp {@code Timestamp}, implicit column
   * {@code Body}), half as a batch, half one by one.
   *
   * @param engine the engine
   * @param id the source id
   * @param events the events
   */
  public static void load(Engine engine, String id, List<Ev> events) {
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
        Languages.engine(language),
        s.groupBy());
  }

  /**
   * Fails, with the case, when two results differ (values within 1e-9, relative).
   *
   * @param expected the expected result
   * @param actual the result tested
   * @param how what produced it
   * @param c the case
   */
  public static void assertSame(ChartResult expected, ChartResult actual, String how, Case c) {
    String context =
        how
            + "\nquery "
            + c.query()
            + c.whereTexts()
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

  /**
   * @return random cases: two data sets, an engine set-up and a query
   */
  public static Gen<Case> cases() {
    Gen<List<Ev>> events = events();
    Gen<Integer> segmentRows = of(2, 5, 13, 100_000);
    Gen<Integer> threads = of(1, 3);
    Gen<Query> queries = queries();
    Gen<Integer> percent = integers().between(0, 99);
    return in -> {
      Dataset d = new Dataset(events.generate(in), events.generate(in));
      int rows = segmentRows.generate(in);
      int t = threads.generate(in);
      Query q = queries.generate(in);
      int a = percent.generate(in);
      int b = percent.generate(in);
      return new Case(d, rows, t, snapToEvents(q.query(), d, a, b), q.wheres(), q.languages());
    };
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

  static Gen<List<Ev>> events() {
    Gen<Object> svc = maybe(of(SVC), 4);
    Gen<Object> host = maybe(integers().between(1, 9).map(i -> "h" + i), 2);
    Gen<Object> status = maybe(of(200L, 404L, 500L, -1L, 0L), 3);
    Gen<Object> dur = maybe(of(0.5, 1.0, 2.25, -3.5, 100.0, 0.1), 2);
    Gen<Object> ok = maybe(of(true, false), 1);
    Gen<Object> num = maybe(of(NUM_STR), 2);
    Gen<Object> body = maybe(body(), 5);
    Gen<Double> lat = of(1.5, -2.0, 0.25, 8.0, 1e6);
    Gen<Map<String, Object>> fields =
        in -> {
          Map<String, Object> m = new LinkedHashMap<>();
          put(m, "svc", svc.generate(in));
          put(m, "host", host.generate(in));
          put(m, "status", status.generate(in));
          put(m, "dur", dur.generate(in));
          put(m, "ok", ok.generate(in));
          put(m, "num", num.generate(in));
          put(m, "Body", body.generate(in));
          m.put("lat", lat.generate(in)); // always present: exercises the dense-array paths
          return m;
        };
    Gen<Long> offset = weighted(8, longs().between(0, 4_000), 1, longs().between(-2_000, 0));
    return lists(offset.zip(fields, Ev::new), 8, 40)
        .map(
            list -> {
              List<Ev> out = new ArrayList<>();
              long t = T0 + 3_000_000;
              for (Ev x : list) {
                t += x.ts() * 30; // mostly forward, sometimes back in time
                out.add(new Ev(t, x.fields()));
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

  private static <T> Gen<Object> maybe(Gen<T> a, int weight) {
    return weighted(weight, a.map(x -> (Object) x), 1, Generate.constant(NONE));
  }

  private static Gen<String> body() {
    return lists(of(WORDS), 1, 4)
        .zip(of(" ", "-", "/", ": ", "_"), (words, sep) -> String.join(sep, words));
  }

  private static Gen<Query> queries() {
    Gen<Long> start = longs().between(T0 + 2_900_000, T0 + 3_150_000);
    Gen<Long> length =
        weighted(1, longs().between(0, 60_000), 6, longs().between(900_000, 3_000_000));
    Gen<Granularity> granularity =
        of(
            Granularity.named("30s").orElseThrow(),
            Granularity.named("1m").orElseThrow(),
            Granularity.named("5m").orElseThrow(),
            Granularity.named("1h").orElseThrow(),
            Granularity.named("1d").orElseThrow());
    Gen<List<String>> groupBy =
        oneOf(
            Generate.constant(List.<String>of()),
            of("svc", "host", "status", "dur", "ok", "nothing").map(f -> List.of(f)),
            Generate.constant(List.of("svc", "ok")));
    Gen<List<OneSeries>> series = lists(oneSeries(), 1, 3);
    Gen<Boolean> ratio = of(true, false);
    return in -> {
      long s = start.generate(in);
      long len = length.generate(in);
      Granularity g = granularity.generate(in);
      List<String> gb = groupBy.generate(in);
      List<OneSeries> list = series.generate(in);
      boolean r = ratio.generate(in);
      List<Series> ss = new ArrayList<>();
      List<Expr> wheres = new ArrayList<>();
      List<WhereLanguage> langs = new ArrayList<>();
      for (OneSeries t : list) {
        Series x = t.series();
        ss.add(
            new Series(
                x.sourceId(), x.aggFn(), x.field(), x.level(), x.where(), x.whereLanguage(), gb));
        wheres.add(t.where());
        langs.add(t.language());
      }
      SeriesReturnType type =
          r && ss.size() == 2 ? SeriesReturnType.RATIO : SeriesReturnType.COLUMN;
      return new Query(new ChartQuery(s, s + len, g, ss, type), wheres, langs);
    };
  }

  private static Gen<OneSeries> oneSeries() {
    Gen<String> source = of("A", "B");
    Gen<AggFn> fn = of(AggFn.values());
    Gen<String> field =
        weighted(
            6, of("status", "dur", "num", "lat"), 2, of("svc", "host", "ok", "Body", "nothing"));
    Gen<Double> level = of(0.0, 0.25, 0.5, 0.9, 1.0);
    Gen<WhereLanguage> language = of(WhereLanguage.values());
    Gen<Boolean> countWithField = of(true, false);
    Map<WhereLanguage, Gen<Expr>> where =
        Map.of(
            WhereLanguage.LUCENE, where(WhereLanguage.LUCENE),
            WhereLanguage.SQL, where(WhereLanguage.SQL));
    return in -> {
      String src = source.generate(in);
      AggFn f = fn.generate(in);
      String fld = field.generate(in);
      double lvl = level.generate(in);
      WhereLanguage lang = language.generate(in);
      boolean withField = countWithField.generate(in);
      Expr w = where.get(lang).generate(in);
      String useField = f.isCount() && !withField ? null : fld;
      Series s =
          new Series(
              src,
              f,
              useField,
              lvl,
              WherePrinter.print(w, lang),
              Languages.engine(lang),
              List.of());
      return new OneSeries(s, w, lang);
    };
  }

  static Gen<Expr> where(WhereLanguage lang) {
    Gen<Expr> leaf = lang == WhereLanguage.LUCENE ? luceneLeaf() : sqlLeaf();
    return weighted(
        1,
        Generate.constant(new Expr.MatchAll()),
        3,
        Gens.recursive(leaf, DifferentialProperties::compose, 0, 2));
  }

  private static Gen<Expr> compose(Gen<Expr> child) {
    return weighted(
        1,
        lists(child, 2, 3).map(Expr::and),
        2,
        lists(child, 2, 3).map(Expr::or),
        2,
        child.map(Expr.Not::new));
  }

  private static Gen<String> literal() {
    return of(LITERALS).map(Object::toString);
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
    return weighted(3, of(own), 1, literal());
  }

  /** A field and a literal for it. */
  private static Gen<FieldValue> fieldValue() {
    return field().flatMap(f -> literalFor(f).map(v -> new FieldValue(f, v)));
  }

  private static Gen<String> field() {
    return of(FIELDS);
  }

  private static Gen<String> likePattern() {
    return of("", "a", "er", "h", "1", "x y", "ap", "_", "T")
        .zip(
            of("%", "", "_"),
            of("", "i", "r", "0", "b"),
            of("%", "", "_"),
            (a, w1, b, w2) -> a + w1 + b + w2);
  }

  private static Gen<Expr> luceneLeaf() {
    Gen<String> word = of(WORDS).map(w -> w.toLowerCase(Locale.ROOT));
    Gen<Boolean> bool = of(true, false);
    return oneOf(
        word.assuming(Tokens::isSingleToken).map(Expr.Token::new),
        of("connection reset", "user_service", "get/user", "error: ok", "café", "a1b2-ok")
            .map(Expr.Phrase::new),
        of("tim%", "%out", "%ser%", "e%r", "%1%").map(Expr.TokenPattern::new),
        fieldValue()
            .assuming(t -> !t.value().isEmpty())
            .map(t -> new Expr.Match(t.field(), t.value())),
        fieldValue()
            .zip(
                of(CompareOp.values()),
                (t, op) -> new Expr.Compare(Operand.of(t.field()), op, t.value())),
        field()
            .flatMap(
                f ->
                    literalFor(f)
                        .zip(
                            bool,
                            literalFor(f),
                            bool,
                            (lo, li, hi, hin) -> new Expr.Range(Operand.of(f), lo, li, hi, hin))),
        field()
            .zip(
                likePattern().assuming(p -> p.contains("%") && !p.equals("%") && !p.contains("_")),
                (f, p) -> new Expr.Like(Operand.of(f), p, true)),
        field().map(Expr.Exists::new),
        field().map(f -> new Expr.Not(new Expr.IsNull(f))));
  }

  private static Gen<Expr> sqlLeaf() {
    Gen<Operand> operand =
        field()
            .zip(
                weighted(3, Generate.constant(Fold.NONE), 1, of(Fold.LOWER, Fold.UPPER)),
                Operand::new);
    Gen<Boolean> bool = of(true, false);
    return oneOf(
        operand.flatMap(
            o ->
                of(CompareOp.values())
                    .zip(literalFor(o.field()), (op, v) -> new Expr.Compare(o, op, v))),
        operand.flatMap(
            o ->
                literalFor(o.field())
                    .zip(literalFor(o.field()), (lo, hi) -> new Expr.Range(o, lo, true, hi, true))),
        operand.flatMap(
            o -> lists(literalFor(o.field()), 1, 3).map(values -> new Expr.In(o, values))),
        operand.zip(likePattern(), bool, Expr.Like::new),
        field().map(Expr.IsNull::new),
        field().zip(of("error", "GET", "get", "ok", "h3", "api", "200"), Expr.HasToken::new),
        field().zip(of("rr", "Ti", "x y", "1", "-", "é"), bool, Expr.Contains::new));
  }
}
