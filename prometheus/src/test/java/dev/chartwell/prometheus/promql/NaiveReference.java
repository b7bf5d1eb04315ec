package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately plain PromQL evaluator for a few expression shapes: one evaluation time at a time,
 * every sample looked at again for every step, straight from the documented definitions. The
 * property test holds the real evaluator to it.
 */
final class NaiveReference {
  static final long LOOKBACK = 5 * 60_000;

  private NaiveReference() {}

  /** The non-stale samples of {@code [from, to]}, as {t, v} pairs. */
  static List<double[]> window(SeriesData s, long from, long to) {
    List<double[]> out = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      long t = s.timestamps()[i];
      if (t >= from && t <= to && !SeriesData.isStale(s.values()[i])) {
        out.add(new double[] {t, s.values()[i]});
      }
    }
    return out;
  }

  /** The value an instant selector sees at {@code ref}, or null. */
  static Double instant(SeriesData s, long ref) {
    Double v = null;
    for (int i = 0; i < s.size(); i++) {
      long t = s.timestamps()[i];
      if (t <= ref) {
        v = t >= ref - LOOKBACK && !SeriesData.isStale(s.values()[i]) ? s.values()[i] : null;
      }
    }
    return v;
  }

  /** A range function of one window, or null where it has no value. */
  static Double rangeFunction(String fn, List<double[]> w, long from, long to, long rangeMs) {
    if (w.isEmpty()) {
      return null;
    }
    int n = w.size();
    double first = w.get(0)[1];
    double last = w.get(n - 1)[1];
    switch (fn) {
      case "count_over_time":
        return (double) n;
      case "sum_over_time":
        return w.stream().mapToDouble(p -> p[1]).sum();
      case "avg_over_time":
        return w.stream().mapToDouble(p -> p[1]).sum() / n;
      case "min_over_time":
        return w.stream().mapToDouble(p -> p[1]).min().getAsDouble();
      case "max_over_time":
        return w.stream().mapToDouble(p -> p[1]).max().getAsDouble();
      case "last_over_time":
        return last;
      case "changes":
      case "resets":
        {
          int c = 0;
          for (int i = 1; i < n; i++) {
            double a = w.get(i - 1)[1];
            double b = w.get(i)[1];
            if (fn.equals("changes") ? a != b : b < a) {
              c++;
            }
          }
          return (double) c;
        }
      case "idelta":
      case "irate":
        {
          if (n < 2) {
            return null;
          }
          double prev = w.get(n - 2)[1];
          if (fn.equals("idelta")) {
            return last - prev;
          }
          double d = last < prev ? last : last - prev;
          return d / ((w.get(n - 1)[0] - w.get(n - 2)[0]) / 1000);
        }
      default:
        {
          // rate, increase, delta: the increase between the first and last samples (counter
          // resets added back), extrapolated to the window's edges when a sample is within 110 % of
          // the average spacing of them (else by half a spacing), never below zero for counters.
          if (n < 2) {
            return null;
          }
          boolean counter = !fn.equals("delta");
          double inc = last - first;
          if (counter) {
            for (int i = 1; i < n; i++) {
              if (w.get(i)[1] < w.get(i - 1)[1]) {
                inc += w.get(i - 1)[1];
              }
            }
          }
          double spanS = (w.get(n - 1)[0] - w.get(0)[0]) / 1000;
          double avg = spanS / (n - 1);
          double toStart = (w.get(0)[0] - from) / 1000;
          double toEnd = (to - w.get(n - 1)[0]) / 1000;
          if (counter && inc > 0 && first >= 0) {
            toStart = Math.min(toStart, spanS * (first / inc));
          }
          double extended =
              spanS
                  + (toStart < avg * 1.1 ? toStart : avg / 2)
                  + (toEnd < avg * 1.1 ? toEnd : avg / 2);
          double v = inc * extended / spanS;
          return fn.equals("rate") ? v / (rangeMs / 1000.0) : v;
        }
    }
  }

  static Labels dropName(Labels l) {
    Map<String, String> m = new TreeMap<>(l.asMap());
    m.remove(Labels.NAME);
    return Labels.of(m);
  }

  /** An aggregation of values. */
  static double aggregate(String op, List<Double> v) {
    return switch (op) {
      case "sum" -> v.stream().mapToDouble(Double::doubleValue).sum();
      case "avg" -> v.stream().mapToDouble(Double::doubleValue).sum() / v.size();
      case "max" -> v.stream().mapToDouble(Double::doubleValue).max().getAsDouble();
      case "min" -> v.stream().mapToDouble(Double::doubleValue).min().getAsDouble();
      default -> v.size();
    };
  }
}
