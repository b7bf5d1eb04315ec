package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.parser.Expr;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The chart query semantics written in the most obvious way over a list of maps, sharing no code
 * with the engine's execution: the oracle of the differential tests.
 */
public final class ReferenceEvaluator {
  /**
   * An event as stored: its time and its typed values (String, Long, Double, Boolean).
   *
   * @param ts epoch milliseconds
   * @param fields values by field name
   */
  public record Ev(long ts, Map<String, Object> fields) {}

  private static final Pattern NUMBER =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

  private ReferenceEvaluator() {}

  static ChartResult run(
      ChartQuery q,
      Map<String, List<Ev>> events,
      Map<String, String> implicitColumns,
      List<Expr> wheres) {
    long g = q.effectiveGranularity().millis();
    List<Map<List<Object>, List<Integer>>> matches = new ArrayList<>();
    for (int i = 0; i < q.series().size(); i++) {
      Series s = q.series().get(i);
      List<Ev> evs = events.get(s.sourceId());
      Map<List<Object>, List<Integer>> byKey = new LinkedHashMap<>();
      for (int k = 0; k < evs.size(); k++) {
        Ev e = evs.get(k);
        if (e.ts() < q.startTime() || e.ts() > q.endTime()) {
          continue;
        }
        if (!eval(wheres.get(i), e.fields(), implicitColumns.get(s.sourceId()))) {
          continue;
        }
        long bucket = Math.floorDiv(e.ts(), g) * g;
        List<String> group = new ArrayList<>();
        for (String f : s.groupBy()) {
          group.add(groupText(e.fields().get(f)));
        }
        byKey.computeIfAbsent(List.of(bucket, group), x -> new ArrayList<>()).add(k);
      }
      matches.add(byKey);
    }
    TreeMap<List<Object>, Number[]> rows =
        new TreeMap<>(
            Comparator.<List<Object>>comparingLong(k -> (Long) k.get(0))
                .thenComparing(k -> String.join("\u0000", groupOf(k)))
                .thenComparing(k -> groupOf(k).size()));
    for (int i = 0; i < matches.size(); i++) {
      Series s = q.series().get(i);
      List<Ev> evs = events.get(s.sourceId());
      for (Map.Entry<List<Object>, List<Integer>> m : matches.get(i).entrySet()) {
        Number v = aggregate(s, evs, m.getValue(), g);
        if (v != null) {
          rows.computeIfAbsent(m.getKey(), k -> new Number[matches.size()])[i] = v;
        }
      }
    }
    List<ChartResult.Row> out = new ArrayList<>();
    for (Map.Entry<List<Object>, Number[]> r : rows.entrySet()) {
      List<Number> values = new ArrayList<>();
      Number[] v = r.getValue();
      if (q.returnType() == SeriesReturnType.RATIO) {
        double num = v[0] == null ? 0 : v[0].doubleValue();
        values.add(v[1] == null || v[1].doubleValue() == 0 ? null : num / v[1].doubleValue());
      } else {
        values.addAll(java.util.Arrays.asList(v));
      }
      out.add(new ChartResult.Row((Long) r.getKey().get(0), groupOf(r.getKey()), values));
    }
    return new ChartResult(q.effectiveGranularity(), out);
  }

  @SuppressWarnings("unchecked")
  private static List<String> groupOf(List<Object> key) {
    return (List<String>) key.get(1);
  }

  private static Number aggregate(Series s, List<Ev> evs, List<Integer> idx, long g) {
    AggFn fn = s.aggFn();
    if (fn.isCount()) {
      long n = 0;
      for (int k : idx) {
        if (s.field() == null || evs.get(k).fields().get(s.field()) != null) {
          n++;
        }
      }
      if (n == 0) {
        return null;
      }
      return switch (fn) {
        case COUNT_PER_SEC -> n / (g / 1000.0);
        case COUNT_PER_MIN -> n / (g / 60000.0);
        case COUNT_PER_HOUR -> n / (g / 3600000.0);
        default -> n;
      };
    }
    if (fn == AggFn.COUNT_DISTINCT) {
      Set<Object> distinct = new HashSet<>();
      for (int k : idx) {
        Object v = evs.get(k).fields().get(s.field());
        if (v != null) {
          distinct.add(v);
        }
      }
      return distinct.isEmpty() ? null : (long) distinct.size();
    }
    List<double[]> values = new ArrayList<>(); // {value, ts, arrival}
    for (int k : idx) {
      Double d = number(evs.get(k).fields().get(s.field()));
      if (d != null) {
        values.add(new double[] {d, evs.get(k).ts(), k});
      }
    }
    if (values.isEmpty()) {
      return null;
    }
    switch (fn) {
      case SUM, AVG -> {
        double sum = 0;
        for (double[] v : values) {
          sum += v[0];
        }
        return fn == AggFn.SUM ? sum : sum / values.size();
      }
      case MIN -> {
        return values.stream().mapToDouble(v -> v[0]).min().getAsDouble();
      }
      case MAX -> {
        return values.stream().mapToDouble(v -> v[0]).max().getAsDouble();
      }
      case LAST_VALUE -> {
        double[] best = values.get(0);
        for (double[] v : values) {
          if (v[1] > best[1] || (v[1] == best[1] && v[2] > best[2])) {
            best = v;
          }
        }
        return best[0];
      }
      case ANY -> {
        double[] best = values.get(0);
        for (double[] v : values) {
          if (v[1] < best[1] || (v[1] == best[1] && v[2] < best[2])) {
            best = v;
          }
        }
        return best[0];
      }
      default -> {
        double level = fn.quantileLevel(s.level());
        double[] sorted = values.stream().mapToDouble(v -> v[0]).sorted().toArray();
        double h = (sorted.length - 1) * level;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
      }
    }
  }

  private static Double number(Object v) {
    if (v instanceof Long l) {
      return (double) l;
    }
    if (v instanceof Double d) {
      return d;
    }
    if (v instanceof String s && NUMBER.matcher(s).matches()) {
      return Double.parseDouble(s);
    }
    return null;
  }

  private static String groupText(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Double d) {
      String t = d.toString();
      return t.endsWith(".0") ? t.substring(0, t.length() - 2) : t;
    }
    return v.toString();
  }

  static boolean eval(Expr e, Map<String, Object> ev, String implicit) {
    if (e instanceof Expr.MatchAll) {
      return true;
    }
    if (e instanceof Expr.And a) {
      return a.operands().stream().allMatch(x -> eval(x, ev, implicit));
    }
    if (e instanceof Expr.Or o) {
      return o.operands().stream().anyMatch(x -> eval(x, ev, implicit));
    }
    if (e instanceof Expr.Not n) {
      return !eval(n.operand(), ev, implicit);
    }
    if (e instanceof Expr.Token t) {
      Object v = ev.get(implicit);
      return v != null && tokens(text(v), true).contains(t.token());
    }
    if (e instanceof Expr.Phrase p) {
      Object v = ev.get(implicit);
      return v != null
          && text(v).toLowerCase(Locale.ROOT).contains(p.text())
          && tokens(text(v), true).containsAll(tokens(p.text(), true));
    }
    if (e instanceof Expr.TokenPattern p) {
      Object v = ev.get(implicit);
      return v != null && tokens(text(v), true).stream().anyMatch(t -> like(t, p.pattern(), false));
    }
    if (e instanceof Expr.IsNull n) {
      return ev.get(n.field()) == null;
    }
    Object v = ev.get(field(e));
    if (v == null) {
      return false;
    }
    if (e instanceof Expr.Match m) {
      String value = m.value();
      if (v instanceof String s) {
        return s.toLowerCase(Locale.ROOT).contains(value.toLowerCase(Locale.ROOT));
      }
      if (v instanceof Long l) {
        return isNumber(value) && BigDecimal.valueOf(l).compareTo(new BigDecimal(value)) == 0;
      }
      if (v instanceof Double d) {
        return isNumber(value) && Double.parseDouble(value) == d;
      }
      return v.toString().equalsIgnoreCase(value);
    }
    if (e instanceof Expr.Compare c) {
      return compare(v, c.operand().fold(), c.op(), c.value());
    }
    if (e instanceof Expr.Range r) {
      return compare(
              v,
              r.operand().fold(),
              r.lowerInclusive() ? Expr.CompareOp.GE : Expr.CompareOp.GT,
              r.lower())
          && compare(
              v,
              r.operand().fold(),
              r.upperInclusive() ? Expr.CompareOp.LE : Expr.CompareOp.LT,
              r.upper());
    }
    if (e instanceof Expr.In in) {
      return in.values().stream()
          .anyMatch(x -> compare(v, in.operand().fold(), Expr.CompareOp.EQ, x));
    }
    if (e instanceof Expr.Like l) {
      return like(fold(text(v), l.operand().fold()), l.pattern(), l.caseInsensitive());
    }
    if (e instanceof Expr.Exists) {
      return !text(v).isEmpty();
    }
    if (e instanceof Expr.HasToken h) {
      return tokens(text(v), false).contains(h.token());
    }
    Expr.Contains c = (Expr.Contains) e;
    return c.caseInsensitive()
        ? text(v).toLowerCase(Locale.ROOT).contains(c.text().toLowerCase(Locale.ROOT))
        : text(v).contains(c.text());
  }

  private static String field(Expr e) {
    if (e instanceof Expr.Match m) {
      return m.field();
    }
    if (e instanceof Expr.Compare c) {
      return c.operand().field();
    }
    if (e instanceof Expr.Range r) {
      return r.operand().field();
    }
    if (e instanceof Expr.In i) {
      return i.operand().field();
    }
    if (e instanceof Expr.Like l) {
      return l.operand().field();
    }
    if (e instanceof Expr.Exists x) {
      return x.field();
    }
    if (e instanceof Expr.HasToken h) {
      return h.field();
    }
    return ((Expr.Contains) e).field();
  }

  private static boolean compare(Object v, Expr.Fold fold, Expr.CompareOp op, String lit) {
    int c;
    if (fold != Expr.Fold.NONE || v instanceof String) {
      String x = fold(text(v), fold);
      if (op == Expr.CompareOp.EQ) {
        return x.equals(lit);
      }
      c =
          isNumber(x) && isNumber(lit)
              ? Double.compare(Double.parseDouble(x) + 0.0, Double.parseDouble(lit) + 0.0)
              : x.compareTo(lit);
    } else if (v instanceof Long l) {
      if (!isNumber(lit)) {
        if (op == Expr.CompareOp.EQ) {
          return false;
        }
        c = l.toString().compareTo(lit);
      } else {
        c = BigDecimal.valueOf(l).compareTo(new BigDecimal(lit));
      }
    } else if (v instanceof Double d) {
      if (!isNumber(lit)) {
        if (op == Expr.CompareOp.EQ) {
          return false;
        }
        c = d.toString().compareTo(lit);
      } else {
        double x = d;
        double y = Double.parseDouble(lit);
        c = x < y ? -1 : x > y ? 1 : 0;
      }
    } else {
      if (op == Expr.CompareOp.EQ) {
        return v.toString().equalsIgnoreCase(lit);
      }
      c = v.toString().compareTo(lit);
    }
    return switch (op) {
      case EQ -> c == 0;
      case LT -> c < 0;
      case LE -> c <= 0;
      case GT -> c > 0;
      case GE -> c >= 0;
    };
  }

  private static boolean isNumber(String s) {
    return NUMBER.matcher(s).matches() && Double.isFinite(Double.parseDouble(s));
  }

  private static String fold(String s, Expr.Fold fold) {
    return switch (fold) {
      case NONE -> s;
      case LOWER -> s.toLowerCase(Locale.ROOT);
      case UPPER -> s.toUpperCase(Locale.ROOT);
    };
  }

  private static String text(Object v) {
    return v.toString();
  }

  /** Maximal runs of ASCII letters and digits. */
  private static List<String> tokens(String s, boolean lower) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (char ch : (s + " ").toCharArray()) {
      boolean tokenChar =
          (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
      if (tokenChar) {
        cur.append(ch);
      } else if (cur.length() > 0) {
        out.add(lower ? cur.toString().toLowerCase(Locale.ROOT) : cur.toString());
        cur.setLength(0);
      }
    }
    return out;
  }

  /** SQL LIKE by translation to a regular expression. */
  private static boolean like(String value, String rawPattern, boolean ci) {
    String pattern = ci ? rawPattern.toLowerCase(Locale.ROOT) : rawPattern;
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char ch = pattern.charAt(i);
      if (ch == '\\' && i + 1 < pattern.length()) {
        re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (ch == '%') {
        re.append(".*");
      } else if (ch == '_') {
        re.append('.');
      } else {
        re.append(Pattern.quote(String.valueOf(ch)));
      }
    }
    String v = ci ? value.toLowerCase(Locale.ROOT) : value;
    return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(v).matches();
  }
}
