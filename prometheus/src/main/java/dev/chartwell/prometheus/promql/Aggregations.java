package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.promql.Val.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Aggregation operators over all steps: rows are grouped once, then folded step by step. */
final class Aggregations {
  private Aggregations() {}

  static Val.Vec eval(Expr.Aggregate a, Val.Vec in, Val param, Steps steps) {
    int n = steps.n;
    Set<String> grouping = Rows.set(a.grouping());
    if (a.without()) {
      grouping = new java.util.HashSet<>(grouping);
      grouping.add(Labels.NAME);
    }
    Map<Labels, List<Row>> groups = new LinkedHashMap<>();
    for (Row r : in.rows()) {
      Labels key =
          a.without() ? Rows.without(r.labels(), grouping) : Rows.only(r.labels(), grouping);
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    return switch (a.op()) {
      case TOPK, BOTTOMK ->
          topk(groups, ((Val.Scalar) param).v(), a.op() == AggregateOp.TOPK, steps);
      case COUNT_VALUES -> countValues(groups, ((Val.Str) param).s(), steps);
      default -> {
        List<Row> out = new ArrayList<>();
        double[] q = param instanceof Val.Scalar s ? s.v() : null;
        double[] buf = new double[in.rows().size()];
        for (Map.Entry<Labels, List<Row>> g : groups.entrySet()) {
          steps.checkCancelled();
          List<Row> members = g.getValue();
          if (a.op() == AggregateOp.SUM
              || a.op() == AggregateOp.COUNT
              || a.op() == AggregateOp.GROUP
              || a.op() == AggregateOp.MIN
              || a.op() == AggregateOp.MAX) {
            out.add(new Row(g.getKey(), rowByRow(a.op(), members, n)));
            continue;
          }
          double[] v = Val.absentArray(n);
          for (int i = 0; i < n; i++) {
            int count = 0;
            for (Row r : members) {
              double x = r.v()[i];
              if (!Val.absent(x)) {
                buf[count++] = x;
              }
            }
            if (count > 0) {
              v[i] = fold(a.op(), buf, count, q == null ? 0 : q[i]);
            }
          }
          out.add(new Row(g.getKey(), v));
        }
        yield new Val.Vec(Rows.merge(out));
      }
    };
  }

  /**
   * Sum, count, group, min and max folded one member row at a time over all steps (sequential
   * memory access); per step the values meet in member order, as in {@link #fold}, so the results
   * are the same to the bit.
   */
  private static double[] rowByRow(AggregateOp op, List<Row> members, int n) {
    double[] v = Val.absentArray(n);
    for (Row r : members) {
      double[] x = r.v();
      for (int i = 0; i < n; i++) {
        double xi = x[i];
        if (Val.absent(xi)) {
          continue;
        }
        double acc = v[i];
        if (Val.absent(acc)) {
          v[i] = op == AggregateOp.COUNT || op == AggregateOp.GROUP ? 1 : xi;
          continue;
        }
        switch (op) {
          case SUM -> v[i] = acc + xi;
          case COUNT -> v[i] = acc + 1;
          case MAX -> v[i] = acc < xi || Double.isNaN(acc) ? xi : acc;
          case MIN -> v[i] = acc > xi || Double.isNaN(acc) ? xi : acc;
          default -> {
            // group: stays 1
          }
        }
      }
    }
    return v;
  }

  private static double fold(AggregateOp op, double[] x, int count, double q) {
    switch (op) {
      case SUM -> {
        double s = x[0];
        for (int k = 1; k < count; k++) {
          s += x[k];
        }
        return s;
      }
      case AVG -> {
        double mean = x[0];
        for (int k = 1; k < count; k++) {
          double c = k + 1;
          if (Double.isInfinite(mean)) {
            if (Double.isInfinite(x[k]) && (mean > 0) == (x[k] > 0)) {
              continue;
            }
            if (!Double.isInfinite(x[k]) && !Double.isNaN(x[k])) {
              continue;
            }
          }
          mean += x[k] / c - mean / c;
        }
        return mean;
      }
      case MAX, MIN -> {
        double r = x[0];
        for (int k = 1; k < count; k++) {
          if ((op == AggregateOp.MAX ? r < x[k] : r > x[k]) || Double.isNaN(r)) {
            r = x[k];
          }
        }
        return r;
      }
      case COUNT -> {
        return count;
      }
      case GROUP -> {
        return 1;
      }
      case STDDEV, STDVAR -> {
        double mean = 0;
        double value = 0;
        for (int k = 0; k < count; k++) {
          double delta = x[k] - mean;
          mean += delta / (k + 1);
          value += delta * (x[k] - mean);
        }
        double var = value / count;
        return op == AggregateOp.STDDEV ? Math.sqrt(var) : var;
      }
      case QUANTILE -> {
        return quantile(q, Arrays.copyOf(x, count));
      }
      default -> throw new IllegalStateException(op.name());
    }
  }

  /** Prometheus' quantile: linear interpolation between the closest ranks (sorts {@code v}). */
  static double quantile(double q, double[] v) {
    if (v.length == 0 || Double.isNaN(q)) {
      return Double.NaN;
    }
    if (q < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (q > 1) {
      return Double.POSITIVE_INFINITY;
    }
    Arrays.sort(v);
    double n = v.length;
    double rank = q * (n - 1);
    int lower = (int) Math.max(0, Math.floor(rank));
    int upper = (int) Math.min(n - 1, lower + 1);
    double weight = rank - Math.floor(rank);
    return v[lower] * (1 - weight) + v[upper] * weight;
  }

  private static Val.Vec topk(
      Map<Labels, List<Row>> groups, double[] kv, boolean top, Steps steps) {
    Map<Row, double[]> out = new LinkedHashMap<>();
    for (List<Row> members : groups.values()) {
      steps.checkCancelled();
      List<Row> present = new ArrayList<>();
      for (int i = 0; i < steps.n; i++) {
        double kd = kv[i];
        if (Double.isNaN(kd) || kd < 1) {
          continue;
        }
        long k = kd >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) kd;
        present.clear();
        for (Row r : members) {
          if (!Val.absent(r.v()[i])) {
            present.add(r);
          }
        }
        final int step = i;
        present.sort(
            (p, o) -> {
              double x = p.v()[step];
              double y = o.v()[step];
              // NaN sorts last for both topk and bottomk, as Prometheus' heaps keep it out.
              if (Double.isNaN(x) || Double.isNaN(y)) {
                return Boolean.compare(Double.isNaN(x), Double.isNaN(y));
              }
              return top ? Double.compare(y, x) : Double.compare(x, y);
            });
        for (int j = 0; j < present.size() && j < k; j++) {
          Row r = present.get(j);
          out.computeIfAbsent(r, x -> Val.absentArray(steps.n))[i] = r.v()[i];
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    out.forEach((r, v) -> rows.add(new Row(r.labels(), v)));
    return new Val.Vec(rows, top ? -1 : 1);
  }

  private static Val.Vec countValues(Map<Labels, List<Row>> groups, String label, Steps steps) {
    if (!Rows.validLabelName(label)) {
      throw PromQlException.execution("invalid label name \"" + label + "\"");
    }
    Map<Labels, double[]> out = new LinkedHashMap<>();
    for (Map.Entry<Labels, List<Row>> g : groups.entrySet()) {
      steps.checkCancelled();
      Map<String, Labels> byValue = new HashMap<>();
      for (int i = 0; i < steps.n; i++) {
        for (Row r : g.getValue()) {
          double x = r.v()[i];
          if (Val.absent(x)) {
            continue;
          }
          String s = Format.goFloat(x);
          Labels l = byValue.computeIfAbsent(s, v -> Rows.with(g.getKey(), label, v));
          double[] v = out.computeIfAbsent(l, k -> new double[steps.n]);
          v[i] += 1;
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<Labels, double[]> e : out.entrySet()) {
      double[] v = e.getValue();
      for (int i = 0; i < v.length; i++) {
        if (v[i] == 0) {
          v[i] = Val.ABSENT;
        }
      }
      rows.add(new Row(e.getKey(), v));
    }
    return new Val.Vec(rows);
  }
}
