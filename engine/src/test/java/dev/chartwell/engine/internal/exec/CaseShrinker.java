package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.internal.exec.DifferentialProperties.Case;
import dev.chartwell.engine.internal.exec.DifferentialProperties.Dataset;
import dev.chartwell.engine.internal.exec.ReferenceEvaluator.Ev;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WherePrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Simpler variants of a failing {@link Case}: fewer series, simpler where trees, fewer events and
 * fields, one segment, one thread, no groupBy.
 *
 * <p>QuickTheories shrinks the random draws behind a value, one draw at a time. A case is a
 * thousand or more draws, and shortening a list shifts every draw after it, so that its shrinking
 * leaves dozens of events behind; shrinking by these candidates gets to one or two.
 */
public final class CaseShrinker {
  private CaseShrinker() {}

  /** Simpler variants of {@code c}, roughly the biggest steps first. */
  /**
   * @param c a failing case
   * @return simpler cases to try
   */
  public static List<Case> candidates(Case c) {
    List<Case> out = new ArrayList<>();
    int n = c.query().series().size();
    for (int i = 0; n > 1 && i < n; i++) {
      out.add(withoutSeries(c, i));
    }
    if (c.query().returnType() != SeriesReturnType.COLUMN) {
      out.add(withQuery(c, c.query().series(), SeriesReturnType.COLUMN));
    }
    if (c.threads() != 1) {
      out.add(new Case(c.data(), c.segmentRows(), 1, c.query(), c.wheres(), c.languages()));
    }
    if (c.segmentRows() != 100_000) {
      out.add(new Case(c.data(), 100_000, c.threads(), c.query(), c.wheres(), c.languages()));
    }
    List<String> groupBy = c.query().series().get(0).groupBy();
    if (!groupBy.isEmpty()) {
      out.add(withGroupBy(c, List.of()));
      for (int i = 0; groupBy.size() > 1 && i < groupBy.size(); i++) {
        out.add(withGroupBy(c, List.of(groupBy.get(i))));
      }
    }
    for (int i = 0; i < n; i++) {
      for (Expr e : simpler(c.wheres().get(i), true)) {
        if (roundTrips(e, c.languages().get(i))) {
          out.add(withWhere(c, i, e));
        }
      }
    }
    for (List<Ev> events : fewer(c.data().a())) {
      out.add(withData(c, new Dataset(events, c.data().b())));
    }
    for (List<Ev> events : fewer(c.data().b())) {
      out.add(withData(c, new Dataset(c.data().a(), events)));
    }
    for (List<Ev> events : fewerFields(c.data().a())) {
      out.add(withData(c, new Dataset(events, c.data().b())));
    }
    for (List<Ev> events : fewerFields(c.data().b())) {
      out.add(withData(c, new Dataset(c.data().a(), events)));
    }
    return out;
  }

  /** Lists with a half, a quarter, ... and finally one event removed. */
  private static List<List<Ev>> fewer(List<Ev> events) {
    List<List<Ev>> out = new ArrayList<>();
    for (int chunk = Math.max(1, events.size() / 2); ; chunk /= 2) {
      for (int from = 0; from < events.size(); from += chunk) {
        List<Ev> rest = new ArrayList<>(events.subList(0, from));
        rest.addAll(events.subList(Math.min(events.size(), from + chunk), events.size()));
        out.add(rest);
      }
      if (chunk == 1) {
        return out;
      }
    }
  }

  /** Lists with one field of one event removed. */
  private static List<List<Ev>> fewerFields(List<Ev> events) {
    List<List<Ev>> out = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      Ev e = events.get(i);
      for (String field : e.fields().keySet()) {
        Map<String, Object> fields = new LinkedHashMap<>(e.fields());
        fields.remove(field);
        List<Ev> copy = new ArrayList<>(events);
        copy.set(i, new Ev(e.ts(), fields));
        out.add(copy);
      }
    }
    return out;
  }

  /** Simpler trees: everything, one operand, fewer operands, no NOT, simpler subtrees. */
  private static List<Expr> simpler(Expr e, boolean top) {
    List<Expr> out = new ArrayList<>();
    if (top && !(e instanceof Expr.MatchAll)) {
      out.add(new Expr.MatchAll());
    }
    List<Expr> operands =
        e instanceof Expr.And a ? a.operands() : e instanceof Expr.Or o ? o.operands() : null;
    Function<List<Expr>, Expr> rebuild = e instanceof Expr.And ? Expr::and : Expr::or;
    if (operands != null) {
      out.addAll(operands);
      for (int i = 0; operands.size() > 2 && i < operands.size(); i++) {
        List<Expr> rest = new ArrayList<>(operands);
        rest.remove(i);
        out.add(rebuild.apply(rest));
      }
      for (int i = 0; i < operands.size(); i++) {
        for (Expr s : simpler(operands.get(i), false)) {
          List<Expr> copy = new ArrayList<>(operands);
          copy.set(i, s);
          out.add(rebuild.apply(copy));
        }
      }
    } else if (e instanceof Expr.Not not) {
      out.add(not.operand());
      for (Expr s : simpler(not.operand(), false)) {
        out.add(new Expr.Not(s));
      }
    }
    return out;
  }

  /** Whether the tree reads back from its text as itself (the engine only sees the text). */
  private static boolean roundTrips(Expr e, WhereLanguage language) {
    try {
      return e.equals(WhereParser.parse(WherePrinter.print(e, language), language));
    } catch (RuntimeException ex) {
      return false;
    }
  }

  private static Case withData(Case c, Dataset d) {
    return new Case(d, c.segmentRows(), c.threads(), c.query(), c.wheres(), c.languages());
  }

  private static Case withQuery(Case c, List<Series> series, SeriesReturnType type) {
    ChartQuery q = c.query();
    return new Case(
        c.data(),
        c.segmentRows(),
        c.threads(),
        new ChartQuery(q.startTime(), q.endTime(), q.granularity(), series, type),
        c.wheres(),
        c.languages());
  }

  private static Case withoutSeries(Case c, int i) {
    List<Series> series = new ArrayList<>(c.query().series());
    List<Expr> wheres = new ArrayList<>(c.wheres());
    List<WhereLanguage> languages = new ArrayList<>(c.languages());
    series.remove(i);
    wheres.remove(i);
    languages.remove(i);
    ChartQuery q = c.query();
    SeriesReturnType type = series.size() == 2 ? q.returnType() : SeriesReturnType.COLUMN;
    return new Case(
        c.data(),
        c.segmentRows(),
        c.threads(),
        new ChartQuery(q.startTime(), q.endTime(), q.granularity(), series, type),
        wheres,
        languages);
  }

  private static Case withGroupBy(Case c, List<String> groupBy) {
    List<Series> series = new ArrayList<>();
    for (Series s : c.query().series()) {
      series.add(
          new Series(
              s.sourceId(),
              s.aggFn(),
              s.field(),
              s.level(),
              s.where(),
              s.whereLanguage(),
              groupBy));
    }
    return withQuery(c, series, c.query().returnType());
  }

  private static Case withWhere(Case c, int i, Expr where) {
    List<Series> series = new ArrayList<>(c.query().series());
    Series s = series.get(i);
    WhereLanguage language = c.languages().get(i);
    series.set(
        i,
        new Series(
            s.sourceId(),
            s.aggFn(),
            s.field(),
            s.level(),
            WherePrinter.print(where, language),
            Languages.engine(language),
            s.groupBy()));
    List<Expr> wheres = new ArrayList<>(c.wheres());
    wheres.set(i, where);
    Case out = withQuery(c, series, c.query().returnType());
    return new Case(
        out.data(), out.segmentRows(), out.threads(), out.query(), wheres, out.languages());
  }
}
