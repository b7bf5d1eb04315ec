package dev.chartwell.engine.internal.warmup;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.WhereLanguage;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.segment.TokenIndex;
import dev.chartwell.engine.internal.source.Schema;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The dashboard's chart queries over a real source's own fields, for a warm-up's last phase: the
 * shapes of {@link WarmUpQueries} (a count with a term, an exact p95 of a number by a field of few
 * values, several aggregations at once, two terms over six hours, a bare term, an exact distinct
 * count), each over the source's last day and built from what its largest segment holds: the string
 * field of most values up to {@link #FEW_VALUES} to group by, the one of fewest as the filter with
 * its rarer values, a number, a low-cardinality long with a bound that a twentieth of the rows
 * reach, the string fields of most values up to {@link #SOME_VALUES} and of most values of all, and
 * a word of the full-text index that a few rows hold.
 *
 * <p>Run over the real segments, whose row counts per bucket, sets of rows and value ranges are the
 * ones users' queries meet, they let the JIT compiler see those shapes before the first user does:
 * the code compiled from synthetic events alone was deoptimized by the first real queries (a
 * bucket's values outgrowing their first arrays, sets of rows stored differently, loops of other
 * lengths) and compiled again while users waited. A shape whose fields the source lacks is left
 * out.
 */
public final class SourceQueries {
  /** The most values a string field may have to be grouped by or filtered on. */
  static final int FEW_VALUES = 64;

  /** The most values of the string field counted distinct beside other aggregations. */
  static final int SOME_VALUES = 4_096;

  /** Tokens of the full-text index looked at for a bare term. */
  private static final int TOKENS_LOOKED_AT = 4_096;

  private static final long HOUR = 3_600_000L;

  private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_]+");

  private static final Pattern LETTERS = Pattern.compile("[a-z]+");

  private static final Set<String> RESERVED = Set.of("AND", "OR", "NOT", "TO");

  private SourceQueries() {}

  /**
   * @param source the source's id
   * @param snapshot its events
   * @return the queries, in the order a round asks them; empty when it holds no events
   */
  public static List<ChartQuery> of(String source, SourceSnapshot snapshot) {
    Segment largest =
        snapshot.segments().stream()
            .filter(s -> s.rows() > 0)
            .max(Comparator.comparingInt(Segment::rows))
            .orElse(null);
    if (largest == null) {
      return List.of();
    }
    long end = 1;
    for (Segment s : snapshot.segments()) {
      if (s.rows() > 0) {
        end = Math.max(end, s.maxTimestamp() + 1);
      }
    }
    long day = end - 24 * HOUR;
    Fields f = Fields.of(snapshot.schema(), largest);
    List<ChartQuery> out = new ArrayList<>();
    if (f.filter != null) {
      out.add(chart(day, end, Granularity.MINUTE, series(source, AggFn.COUNT, null, f.rare())));
    }
    if (f.number != null && f.group != null) {
      out.add(
          chart(
              day,
              end,
              Granularity.MINUTE,
              new Series(
                  source,
                  AggFn.QUANTILE,
                  f.number,
                  0.95,
                  f.filter == null ? null : f.rareOrNext(),
                  WhereLanguage.LUCENE,
                  List.of(f.group))));
    }
    List<Series> several = new ArrayList<>();
    several.add(series(source, AggFn.COUNT, null, null));
    if (f.filter != null) {
      several.add(series(source, AggFn.COUNT, null, f.rare()));
    }
    if (f.number != null) {
      several.add(series(source, AggFn.AVG, f.number, null));
      several.add(series(source, AggFn.MAX, f.number, null));
    }
    if (f.some != null) {
      several.add(series(source, AggFn.COUNT_DISTINCT, f.some, null));
    }
    out.add(chart(day, end, Granularity.FIVE_MINUTES, several.toArray(Series[]::new)));
    if (f.group != null && f.bound != null) {
      long from = day + 6 * HOUR;
      String where = term(f.group, f.groupValue) + " AND " + f.bound;
      out.add(
          chart(
              from, from + 6 * HOUR, Granularity.MINUTE, series(source, AggFn.COUNT, null, where)));
    }
    if (f.word != null) {
      out.add(
          chart(
              day,
              end,
              Granularity.THIRTY_MINUTES,
              series(source, AggFn.COUNT, null, quoted(f.word))));
    }
    if (f.distinct != null) {
      out.add(
          chart(
              day, end, Granularity.HOUR, series(source, AggFn.COUNT_DISTINCT, f.distinct, null)));
    }
    return out;
  }

  /** The fields and values the queries use; {@code null} where the source has none that fits. */
  private static final class Fields {
    String group;
    String groupValue;
    String filter;
    List<String> filterValues = List.of();
    String number;
    String bound;
    String distinct;
    String some;
    String word;

    static Fields of(Schema schema, Segment segment) {
      Fields f = new Fields();
      int rows = segment.rows();
      int groupValues = 0;
      int filterValues = Integer.MAX_VALUE;
      int distinctValues = 0;
      int someValues = 0;
      boolean numberIsDouble = false;
      for (Schema.Column c : schema.columns()) {
        Column column = segment.columns().containsKey(c.name()) ? segment.column(c.name()) : null;
        if (column instanceof StringColumn s && !c.name().equals(segment.implicitColumn())) {
          int values = s.dictionary().size();
          if (values > distinctValues) {
            distinctValues = values;
            f.distinct = c.name();
          }
          if (values > someValues && values <= SOME_VALUES) {
            someValues = values;
            f.some = c.name();
          }
          if (values < 2 || values > FEW_VALUES || s.postings() == null) {
            continue;
          }
          if (values > groupValues) {
            groupValues = values;
            f.group = c.name();
            f.groupValue = s.dictionary().get(closestToShare(s, rows, 0.10));
          }
          List<String> rare = rareValues(s, rows);
          if (values < filterValues && !rare.isEmpty()) {
            filterValues = values;
            f.filter = c.name();
            f.filterValues = rare;
          }
        } else if (column instanceof LongColumn l) {
          if (l.index() != null && f.bound == null) {
            f.bound = bound(c.name(), l, rows);
          }
          if (f.number == null) {
            f.number = c.name();
          }
        } else if (c.type() == ColumnType.DOUBLE && column != null && !numberIsDouble) {
          f.number = c.name(); // a double is the likelier measure (a duration) than a long
          numberIsDouble = true;
        }
      }
      if (segment.hasTokenIndex()) {
        f.word = word(segment.tokenIndex(), rows);
      }
      return f;
    }

    String rare() {
      return term(filter, filterValues.get(0));
    }

    String rareOrNext() {
      return filterValues.size() < 2 ? rare() : rare() + " OR " + term(filter, filterValues.get(1));
    }
  }

  /** The id of the value whose share of the rows is nearest {@code share}. */
  private static int closestToShare(StringColumn s, int rows, double share) {
    int best = 0;
    double off = Double.MAX_VALUE;
    for (int id = 0; id < s.dictionary().size(); id++) {
      double d = Math.abs(s.postings().get(id).getCardinality() / (double) rows - share);
      if (d < off && quotable(s.dictionary().get(id))) {
        off = d;
        best = id;
      }
    }
    return best;
  }

  /**
   * The two rarest values held by 1% to 35% of the rows, rarest first: what a filter on a severity
   * or a status names.
   */
  private static List<String> rareValues(StringColumn s, int rows) {
    List<int[]> held = new ArrayList<>();
    for (int id = 0; id < s.dictionary().size(); id++) {
      int n = s.postings().get(id).getCardinality();
      if (n >= rows / 100 && n <= rows * 35L / 100 && quotable(s.dictionary().get(id))) {
        held.add(new int[] {n, id});
      }
    }
    held.sort(Comparator.comparingInt(a -> a[0]));
    List<String> out = new ArrayList<>();
    for (int i = 0; i < Math.min(2, held.size()); i++) {
      out.add(s.dictionary().get(held.get(i)[1]));
    }
    return out;
  }

  /** A lower bound on a long field that about a twentieth of the rows reach: {@code field:>=v}. */
  private static String bound(String name, LongColumn l, int rows) {
    int count = l.index().postings().size();
    long atOrAbove = 0;
    for (int i = count - 1; i > 0; i--) {
      atOrAbove += l.index().postings().get(i).getCardinality();
      if (atOrAbove >= rows / 20) {
        return name + ":>=" + l.index().values().get(i);
      }
    }
    return name + ":>=" + l.index().values().get(count - 1);
  }

  /**
   * A word of the full-text index that a few rows hold (0.1% to 10%), or {@code null}: the tokens
   * looked at are spread over the whole sorted index, whose first ones are mostly numbers.
   */
  private static String word(TokenIndex index, int rows) {
    int size = index.tokens().size();
    int step = Math.max(1, size / TOKENS_LOOKED_AT);
    for (int id = 0; id < size; id += step) {
      String token = index.tokens().get(id);
      if (token.length() > 2 && LETTERS.matcher(token).matches()) {
        int held = index.postings().get(id).getCardinality();
        if (held >= Math.max(1, rows / 1000) && held <= rows / 10) {
          return token;
        }
      }
    }
    return null;
  }

  private static boolean quotable(String value) {
    return !value.isEmpty() && value.indexOf('"') < 0 && value.indexOf('\\') < 0;
  }

  private static String term(String field, String value) {
    return field + ":" + quoted(value);
  }

  /**
   * The value as a query names it: bare when it is a plain word, as users write one, else quoted.
   */
  private static String quoted(String value) {
    return PLAIN_WORD.matcher(value).matches() && !RESERVED.contains(value)
        ? value
        : "\"" + value + "\"";
  }

  private static Series series(String source, AggFn fn, String field, String where) {
    return new Series(source, fn, field, null, where, WhereLanguage.LUCENE, List.of());
  }

  private static ChartQuery chart(long start, long end, Granularity g, Series... series) {
    return new ChartQuery(start, end, g, List.of(series), null);
  }
}
