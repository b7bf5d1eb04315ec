package dev.chartwell.prometheus.promql;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.promql.Val.Row;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

/** Functions of instant vectors and scalars. */
final class InstantFunctions {
  private InstantFunctions() {}

  /** Applies a function to every value; the metric name is dropped. */
  static Val.Vec map(Val.Vec in, DoubleUnaryOperator f) {
    List<Row> out = new ArrayList<>(in.rows().size());
    for (Row r : in.rows()) {
      double[] v = r.v().clone();
      for (int i = 0; i < v.length; i++) {
        if (!Val.absent(v[i])) {
          v[i] = f.applyAsDouble(v[i]);
        }
      }
      out.add(new Row(Rows.dropName(r.labels()), v));
    }
    return new Val.Vec(Rows.merge(out));
  }

  /** Like {@link #map} with a per-step scalar argument. */
  static Val.Vec map2(Val.Vec in, double[] a, double[] b, Op3 f) {
    List<Row> out = new ArrayList<>(in.rows().size());
    for (Row r : in.rows()) {
      double[] v = r.v().clone();
      for (int i = 0; i < v.length; i++) {
        if (!Val.absent(v[i])) {
          v[i] = f.apply(v[i], a[i], b == null ? 0 : b[i]);
        }
      }
      out.add(new Row(Rows.dropName(r.labels()), v));
    }
    return new Val.Vec(Rows.merge(out));
  }

  /** A function of a value and up to two per-step arguments. */
  interface Op3 {
    double apply(double v, double a, double b);
  }

  static double round(double v, double toNearest) {
    double inv = 1.0 / toNearest;
    return Math.floor(v * inv + 0.5) / inv;
  }

  static double sgn(double v) {
    return v < 0 ? -1 : v > 0 ? 1 : v;
  }

  static Val.Scalar scalar(Val.Vec in, int n) {
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      int count = 0;
      double value = Double.NaN;
      for (Row r : in.rows()) {
        if (!Val.absent(r.v()[i])) {
          count++;
          value = r.v()[i];
        }
      }
      out[i] = count == 1 ? value : Double.NaN;
    }
    return new Val.Scalar(out);
  }

  /** 1 with the selector's equality-matched labels at each step where the vector is empty. */
  static Val.Vec absent(boolean[] present, Expr arg, int n) {
    double[] v = Val.absentArray(n);
    boolean any = false;
    for (int i = 0; i < n; i++) {
      if (!present[i]) {
        v[i] = 1;
        any = true;
      }
    }
    if (!any) {
      return new Val.Vec(List.of());
    }
    Expr e = AstBuilder.unwrap(arg);
    Expr.VectorSelector vs =
        e instanceof Expr.VectorSelector s
            ? s
            : e instanceof Expr.MatrixSelector ms ? ms.selector() : null;
    Map<String, String> labels = new TreeMap<>();
    if (vs != null) {
      Set<String> seen = new HashSet<>();
      for (LabelMatcher m : vs.matchers()) {
        if (m.name().equals(Labels.NAME)) {
          continue;
        }
        if (m.type() == LabelMatcher.Type.EQUAL && seen.add(m.name())) {
          labels.put(m.name(), m.value());
        } else {
          labels.remove(m.name());
          seen.add(m.name());
        }
      }
    }
    return new Val.Vec(List.of(new Row(Labels.of(labels), v)));
  }

  static boolean[] present(Val.Vec in, int n) {
    boolean[] p = new boolean[n];
    for (Row r : in.rows()) {
      for (int i = 0; i < n; i++) {
        p[i] |= !Val.absent(r.v()[i]);
      }
    }
    return p;
  }

  static Val.Vec labelReplace(Val.Vec in, String dst, String repl, String src, String regex) {
    Pattern re;
    try {
      re = Pattern.compile("^(?:" + regex + ")$");
    } catch (PatternSyntaxException e) {
      throw PromQlException.execution("invalid regular expression in label_replace(): " + regex);
    }
    if (!Rows.validLabelName(dst)) {
      throw PromQlException.execution("invalid destination label name in label_replace(): " + dst);
    }
    List<Row> out = new ArrayList<>();
    for (Row r : in.rows()) {
      String value = r.labels().get(src);
      Matcher m = re.matcher(value);
      Labels l = r.labels();
      if (m.find()) {
        String res = expand(repl, m, re);
        Map<String, String> map = new TreeMap<>(l.asMap());
        if (res.isEmpty()) {
          map.remove(dst);
        } else {
          map.put(dst, res);
        }
        l = Labels.of(map);
      }
      out.add(new Row(l, r.v()));
    }
    return new Val.Vec(Rows.merge(out));
  }

  /** Go's Regexp.ExpandString: {@code $1}, {@code ${1}}, {@code $name}, {@code $$}. */
  static String expand(String template, Matcher m, Pattern re) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '$' || i + 1 >= template.length()) {
        b.append(c);
        i++;
        continue;
      }
      char next = template.charAt(i + 1);
      if (next == '$') {
        b.append('$');
        i += 2;
        continue;
      }
      String name;
      int end;
      if (next == '{') {
        int close = template.indexOf('}', i + 2);
        name = close < 0 ? "" : template.substring(i + 2, close);
        end = close + 1;
        if (close < 0 || name.isEmpty() || !isWord(name)) {
          b.append('$');
          i++;
          continue;
        }
      } else {
        int j = i + 1;
        while (j < template.length() && isWordChar(template.charAt(j))) {
          j++;
        }
        name = template.substring(i + 1, j);
        end = j;
        if (name.isEmpty()) {
          b.append('$');
          i++;
          continue;
        }
      }
      String group = null;
      if (name.chars().allMatch(Character::isDigit)) {
        try {
          int g = Integer.parseInt(name);
          if (g <= m.groupCount()) {
            group = m.group(g);
          }
        } catch (NumberFormatException e) {
          group = null;
        }
      } else if (re.namedGroups().containsKey(name)) {
        group = m.group(name);
      }
      if (group != null) {
        b.append(group);
      }
      i = end;
    }
    return b.toString();
  }

  private static boolean isWordChar(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  private static boolean isWord(String s) {
    return s.chars().allMatch(c -> isWordChar((char) c));
  }

  static Val.Vec labelJoin(Val.Vec in, String dst, String sep, List<String> src) {
    if (!Rows.validLabelName(dst)) {
      throw PromQlException.execution("invalid destination label name in label_join(): " + dst);
    }
    for (String s : src) {
      if (!Rows.validLabelName(s)) {
        throw PromQlException.execution("invalid source label name in label_join(): " + s);
      }
    }
    List<Row> out = new ArrayList<>();
    for (Row r : in.rows()) {
      StringBuilder b = new StringBuilder();
      for (int k = 0; k < src.size(); k++) {
        b.append(k > 0 ? sep : "").append(r.labels().get(src.get(k)));
      }
      Map<String, String> map = new TreeMap<>(r.labels().asMap());
      if (b.length() == 0) {
        map.remove(dst);
      } else {
        map.put(dst, b.toString());
      }
      out.add(new Row(Labels.of(map), r.v()));
    }
    return new Val.Vec(Rows.merge(out));
  }
}
