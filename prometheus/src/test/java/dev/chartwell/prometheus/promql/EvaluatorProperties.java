package dev.chartwell.prometheus.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.MemorySeriesSource;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The evaluator's all-steps-at-once answers equal the naive per-step reference's on generated
 * series (irregular spacing, resets, staleness markers, gaps) for every range function, instant
 * selectors with offsets, aggregations by label, and scalar arithmetic.
 */
class EvaluatorProperties {
  private static final String[] RANGE_FUNCTIONS = {
    "rate",
    "increase",
    "delta",
    "irate",
    "idelta",
    "changes",
    "resets",
    "count_over_time",
    "sum_over_time",
    "avg_over_time",
    "min_over_time",
    "max_over_time",
    "last_over_time"
  };
  private static final String[] AGGREGATIONS = {"sum", "avg", "max", "min", "count"};

  static List<SeriesData> generate(long seed) {
    Random r = new Random(seed);
    List<SeriesData> out = new ArrayList<>();
    int count = 1 + r.nextInt(5);
    for (int s = 0; s < count; s++) {
      int n = r.nextInt(80);
      long[] ts = new long[n];
      double[] v = new double[n];
      long t = r.nextInt(60_000);
      double c = r.nextInt(100);
      for (int i = 0; i < n; i++) {
        t += 1 + (r.nextInt(10) == 0 ? r.nextInt(600_000) : r.nextInt(40_000));
        ts[i] = t;
        int kind = r.nextInt(20);
        if (kind == 0) {
          v[i] = SeriesData.STALE_NAN;
        } else if (kind == 1) {
          c = r.nextInt(10);
          v[i] = c;
        } else {
          c += r.nextInt(20) + r.nextInt(100) / 100.0;
          v[i] = c;
        }
      }
      out.add(
          new SeriesData(
              Labels.of("__name__", "m", "job", "j" + r.nextInt(2), "instance", "i" + s), ts, v));
    }
    return out;
  }

  /** The reference's answer for one expression shape, per series labels, per step. */
  private static Map<Labels, Map<Long, Double>> reference(
      List<SeriesData> data, int shape, String fn, long rangeMs, long offsetMs, long[] steps) {
    Map<Labels, Map<Long, Double>> out = new TreeMap<>();
    for (long t : steps) {
      long ref = t - offsetMs;
      Map<Labels, List<Double>> groups = new TreeMap<>();
      for (SeriesData s : data) {
        Double v;
        Labels l;
        if (shape == 0) {
          v = NaiveReference.instant(s, ref);
          l = s.labels();
        } else if (shape == 1) {
          v =
              NaiveReference.rangeFunction(
                  fn, NaiveReference.window(s, ref - rangeMs, ref), ref - rangeMs, ref, rangeMs);
          l = fn.equals("last_over_time") ? s.labels() : NaiveReference.dropName(s.labels());
        } else if (shape == 2) {
          v = NaiveReference.instant(s, ref);
          l = Labels.of("job", s.labels().get("job"));
          if (v != null) {
            groups.computeIfAbsent(l, k -> new ArrayList<>()).add(v);
          }
          continue;
        } else {
          v = NaiveReference.instant(s, ref);
          v = v == null ? null : v * 3 - 1;
          l = NaiveReference.dropName(s.labels());
        }
        if (v != null) {
          out.computeIfAbsent(l, k -> new TreeMap<>()).put(t, v);
        }
      }
      groups.forEach(
          (l, vs) ->
              out.computeIfAbsent(l, k -> new TreeMap<>())
                  .put(t, NaiveReference.aggregate(fn, vs)));
    }
    return out;
  }

  private static String query(int shape, String fn, long rangeMs, long offsetMs) {
    String offset = offsetMs == 0 ? "" : " offset " + offsetMs + "ms";
    return switch (shape) {
      case 0 -> "m" + offset;
      case 1 -> fn + "(m[" + rangeMs + "ms]" + offset + ")";
      case 2 -> fn + " by (job) (m" + offset + ")";
      default -> "m" + offset + " * 3 - 1";
    };
  }

  @Test
  void evaluatorAgreesWithTheNaiveReference() {
    qt().withExamples(400)
        .forAll(
            longs().all(),
            integers().between(0, 3),
            integers().between(0, RANGE_FUNCTIONS.length - 1))
        .checkAssert(
            (seed, shape, fnIndex) -> {
              Random shapeRandom = new Random(seed ^ 0x5eed);
              int rangeMin = 1 + shapeRandom.nextInt(20);
              int offsetMin = shapeRandom.nextInt(9) - 2;
              int stepS = 1 + shapeRandom.nextInt(300);
              List<SeriesData> data = generate(seed);
              String fn =
                  shape == 2
                      ? AGGREGATIONS[fnIndex % AGGREGATIONS.length]
                      : RANGE_FUNCTIONS[fnIndex];
              long rangeMs = rangeMin * 30_000L + 1;
              long offsetMs = offsetMin * 45_000L;
              long start = new Random(seed).nextInt(600_000);
              long stepMs = stepS * 1000L + 7;
              long end = start + 40 * stepMs + new Random(seed + 1).nextInt(3_000_000);
              List<Long> times = new ArrayList<>();
              for (long t = start; t <= end; t += stepMs) {
                times.add(t);
              }
              long[] steps = times.stream().mapToLong(Long::longValue).toArray();
              String q = query(shape, fn, rangeMs, offsetMs);
              Map<Labels, Map<Long, Double>> expected =
                  reference(data, shape, fn, rangeMs, offsetMs, steps);
              QueryResult.Matrix m =
                  (QueryResult.Matrix)
                      new Evaluator(new MemorySeriesSource(data), EvalSettings.DEFAULTS)
                          .range(PromQl.parse(q), start, end, stepMs);
              Map<Labels, Map<Long, Double>> actual = new TreeMap<>();
              for (SeriesData s : m.series()) {
                Map<Long, Double> pts = new TreeMap<>();
                for (int i = 0; i < s.size(); i++) {
                  pts.put(s.timestamps()[i], s.values()[i]);
                }
                actual.put(s.labels(), pts);
              }
              assertEquals(expected.keySet(), actual.keySet(), q + " seed " + seed);
              for (Labels l : expected.keySet()) {
                assertEquals(
                    expected.get(l).keySet(), actual.get(l).keySet(), q + " " + l + " steps");
                for (Long t : expected.get(l).keySet()) {
                  double e = expected.get(l).get(t);
                  double a = actual.get(l).get(t);
                  assertTrue(
                      e == a || Math.abs(e - a) <= 1e-9 * Math.max(Math.abs(e), Math.abs(a)),
                      q + " " + l + " at " + t + ": expected " + e + " but was " + a);
                }
              }
            });
  }
}
