package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.promql.Val.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code histogram_quantile(q, buckets)} over classic {@code _bucket{le}} series, as Prometheus
 * 2.42: buckets sorted by bound, equal bounds merged, counts made monotonic, linear interpolation
 * inside the bucket holding the rank.
 */
final class HistogramQuantile {
  private HistogramQuantile() {}

  static Val.Vec eval(double[] q, Val.Vec in, Steps steps) {
    Map<Labels, List<Row>> groups = new LinkedHashMap<>();
    Map<Row, Double> bounds = new java.util.IdentityHashMap<>();
    for (Row r : in.rows()) {
      String le = r.labels().get("le");
      double bound;
      try {
        bound = parseBound(le);
      } catch (NumberFormatException e) {
        continue; // Prometheus ignores series without a valid le.
      }
      bounds.put(r, bound);
      groups
          .computeIfAbsent(
              Rows.without(r.labels(), Set.of("le", Labels.NAME)), k -> new ArrayList<>())
          .add(r);
    }
    List<Row> out = new ArrayList<>();
    for (Map.Entry<Labels, List<Row>> g : groups.entrySet()) {
      steps.checkCancelled();
      List<Row> members = g.getValue();
      double[] ub = new double[members.size()];
      double[] count = new double[members.size()];
      double[] v = Val.absentArray(steps.n);
      boolean any = false;
      for (int i = 0; i < steps.n; i++) {
        int k = 0;
        for (Row r : members) {
          double x = r.v()[i];
          if (!Val.absent(x)) {
            ub[k] = bounds.get(r);
            count[k++] = x;
          }
        }
        if (k > 0) {
          v[i] = quantile(q[i], Arrays.copyOf(ub, k), Arrays.copyOf(count, k));
          any = true;
        }
      }
      if (any) {
        out.add(new Row(g.getKey(), v));
      }
    }
    return new Val.Vec(out);
  }

  static double parseBound(String le) {
    String s = le.trim();
    return switch (s.toLowerCase(java.util.Locale.ROOT)) {
      case "+inf", "inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> {
        if (s.isEmpty() || !s.matches("[-+0-9.eExXa-fA-FpP_]+")) {
          throw new NumberFormatException(le);
        }
        yield Double.parseDouble(s);
      }
    };
  }

  /** The quantile of one histogram: bounds and cumulative counts, in any order. */
  static double quantile(double q, double[] ub, double[] counts) {
    if (Double.isNaN(q)) {
      return Double.NaN;
    }
    if (q < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (q > 1) {
      return Double.POSITIVE_INFINITY;
    }
    Integer[] order = new Integer[ub.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(ub[a], ub[b]));
    double[] bound = new double[ub.length];
    double[] count = new double[ub.length];
    int n = 0;
    for (int idx : order) {
      if (n > 0 && bound[n - 1] == ub[idx]) {
        count[n - 1] += counts[idx];
      } else {
        bound[n] = ub[idx];
        count[n++] = counts[idx];
      }
    }
    if (n == 0 || bound[n - 1] != Double.POSITIVE_INFINITY) {
      return Double.NaN;
    }
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      if (count[i] > max) {
        max = count[i];
      } else if (count[i] < max) {
        count[i] = max;
      }
    }
    if (n < 2) {
      return Double.NaN;
    }
    double observations = count[n - 1];
    if (observations == 0) {
      return Double.NaN;
    }
    double rank = q * observations;
    int b = 0;
    while (b < n - 1 && !(count[b] >= rank)) {
      b++;
    }
    if (b == n - 1) {
      return bound[n - 2];
    }
    if (b == 0 && bound[0] <= 0) {
      return bound[0];
    }
    double start = 0;
    double end = bound[b];
    double c = count[b];
    if (b > 0) {
      start = bound[b - 1];
      c -= count[b - 1];
      rank -= count[b - 1];
    }
    return start + (end - start) * (rank / c);
  }
}
