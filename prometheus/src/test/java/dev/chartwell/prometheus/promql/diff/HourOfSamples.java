package dev.chartwell.prometheus.promql.diff;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A generated span of scrapes every 15 s: counters with resets (and one staleness marker), gauges
 * with a staleness marker and a gap, a gauge that is sometimes NaN or infinite, a classic histogram
 * ({@code _bucket{le}}, {@code _sum}, {@code _count}) and an info metric. Deterministic for a seed
 * and a start time.
 */
public final class HourOfSamples {
  public static final long SCRAPE = 15_000;

  /** Scrapes in the span: 58 minutes. */
  public static final int SCRAPES = 58 * 4;

  /** How much one remote-write request carries: 5 minutes of every series. */
  public static final long SLICE = 5 * 60_000;

  static final String[] JOBS = {"api", "db"};
  static final String[] INSTANCES = {"i0", "i1", "i2"};
  static final double[] BOUNDS = {0.1, 0.5, 1, Double.POSITIVE_INFINITY};

  private HourOfSamples() {}

  /**
   * @param now the current time, epoch ms
   * @return the start of a span of {@link #SCRAPES} scrapes that ends before now, on a scrape
   *     boundary
   */
  public static long start(long now) {
    return (now - SCRAPES * SCRAPE) / SCRAPE * SCRAPE;
  }

  /**
   * @param all the span's series
   * @param start its start
   * @return its samples in {@link #SLICE}s, oldest first: one remote-write request each
   */
  public static List<List<SeriesData>> slices(List<SeriesData> all, long start) {
    List<List<SeriesData>> out = new ArrayList<>();
    for (long from = start; from < start + SCRAPES * SCRAPE + 1000; from += SLICE) {
      out.add(slice(all, from, from + SLICE));
    }
    return out;
  }

  public static List<SeriesData> generate(long seed, long startMs, int scrapes) {
    Random rnd = new Random(seed);
    List<SeriesData> out = new ArrayList<>();
    for (String job : JOBS) {
      out.add(
          constant(
              Labels.of(
                  "__name__", "dt_info", "job", job, "team", job.equals("api") ? "red" : "blue"),
              startMs,
              scrapes,
              1));
      for (String inst : INSTANCES) {
        long jitter = rnd.nextInt(900); // each target scraped at its own phase
        for (String code : new String[] {"200", "500"}) {
          Labels l =
              Labels.of(
                  "__name__", "dt_requests_total", "job", job, "instance", inst, "code", code);
          long[] ts = new long[scrapes];
          double[] v = new double[scrapes];
          double c = rnd.nextInt(1000);
          for (int k = 0; k < scrapes; k++) {
            ts[k] = startMs + k * SCRAPE + jitter;
            if (rnd.nextInt(90) == 0) {
              c = rnd.nextInt(5); // a restart: the counter starts again near 0
            } else {
              // Fractional increments: no two rates tie exactly, since topk/bottomk break ties
              // in storage order, which Prometheus does not define.
              c += rnd.nextInt(code.equals("200") ? 50 : 5) + rnd.nextInt(1000) / 1000.0;
            }
            v[k] = c;
          }
          if (job.equals("db") && inst.equals("i2") && code.equals("500")) {
            v[scrapes / 3] = SeriesData.STALE_NAN; // a counter's target gone for one scrape
          }
          out.add(new SeriesData(l, ts, v));
        }
        out.add(
            gauge(
                Labels.of("__name__", "dt_temperature", "job", job, "instance", inst),
                rnd,
                startMs + jitter,
                scrapes,
                inst));
        out.addAll(histogram(job, inst, rnd, startMs + jitter, scrapes));
      }
    }
    out.add(special(startMs, scrapes));
    return out;
  }

  /** A gauge that is sometimes NaN, +Inf or -Inf (values a number column cannot hold). */
  private static SeriesData special(long start, int scrapes) {
    long[] ts = new long[scrapes];
    double[] v = new double[scrapes];
    for (int k = 0; k < scrapes; k++) {
      ts[k] = start + k * SCRAPE + 321;
      v[k] =
          k % 17 == 5
              ? Double.NaN
              : k % 23 == 7
                  ? Double.POSITIVE_INFINITY
                  : k % 29 == 11 ? Double.NEGATIVE_INFINITY : (k % 13) - 6.5;
    }
    return new SeriesData(
        Labels.of("__name__", "dt_special", "job", "api", "instance", "i0"), ts, v);
  }

  private static SeriesData constant(Labels l, long start, int scrapes, double value) {
    long[] ts = new long[scrapes];
    double[] v = new double[scrapes];
    for (int k = 0; k < scrapes; k++) {
      ts[k] = start + k * SCRAPE;
      v[k] = value;
    }
    return new SeriesData(l, ts, v);
  }

  /** i1 goes stale at a third of the span and comes back at half; i2 has a 10-minute gap. */
  private static SeriesData gauge(Labels l, Random rnd, long start, int scrapes, String inst) {
    List<long[]> pts = new ArrayList<>();
    List<Double> vals = new ArrayList<>();
    double g = 15 + rnd.nextDouble() * 10;
    for (int k = 0; k < scrapes; k++) {
      g += rnd.nextGaussian() * 0.7;
      boolean staleSpan = inst.equals("i1") && k > scrapes / 3 && k < scrapes / 2;
      boolean gap = inst.equals("i2") && k > scrapes / 2 && k < scrapes / 2 + 40;
      if (gap || (staleSpan && k != scrapes / 3 + 1)) {
        continue;
      }
      pts.add(new long[] {start + k * SCRAPE});
      vals.add(staleSpan ? SeriesData.STALE_NAN : Math.round(g * 1000) / 1000.0);
    }
    long[] ts = new long[pts.size()];
    double[] v = new double[pts.size()];
    for (int k = 0; k < ts.length; k++) {
      ts[k] = pts.get(k)[0];
      v[k] = vals.get(k);
    }
    return new SeriesData(l, ts, v);
  }

  private static List<SeriesData> histogram(
      String job, String inst, Random rnd, long start, int scrapes) {
    double[][] buckets = new double[BOUNDS.length][scrapes];
    double[] sum = new double[scrapes];
    double[] cum = new double[BOUNDS.length];
    double total = 0;
    for (int k = 0; k < scrapes; k++) {
      int observations = rnd.nextInt(20);
      for (int o = 0; o < observations; o++) {
        double x = Math.abs(rnd.nextGaussian() * 0.4);
        total += x;
        for (int b = 0; b < BOUNDS.length; b++) {
          if (x <= BOUNDS[b]) {
            cum[b]++;
          }
        }
      }
      for (int b = 0; b < BOUNDS.length; b++) {
        buckets[b][k] = cum[b];
      }
      sum[k] = total;
    }
    long[] ts = new long[scrapes];
    for (int k = 0; k < scrapes; k++) {
      ts[k] = start + k * SCRAPE;
    }
    List<SeriesData> out = new ArrayList<>();
    for (int b = 0; b < BOUNDS.length; b++) {
      String le = Double.isInfinite(BOUNDS[b]) ? "+Inf" : Double.toString(BOUNDS[b]);
      out.add(
          new SeriesData(
              Labels.of(
                  "__name__", "dt_latency_seconds_bucket", "job", job, "instance", inst, "le", le),
              ts,
              buckets[b]));
    }
    out.add(
        new SeriesData(
            Labels.of("__name__", "dt_latency_seconds_sum", "job", job, "instance", inst),
            ts,
            sum));
    out.add(
        new SeriesData(
            Labels.of("__name__", "dt_latency_seconds_count", "job", job, "instance", inst),
            ts,
            buckets[BOUNDS.length - 1].clone()));
    return out;
  }

  /** The samples of {@code [from, to)} of every series (one remote-write request's worth). */
  public static List<SeriesData> slice(List<SeriesData> all, long from, long to) {
    List<SeriesData> out = new ArrayList<>();
    for (SeriesData s : all) {
      int lo = 0;
      while (lo < s.size() && s.timestamps()[lo] < from) {
        lo++;
      }
      int hi = lo;
      while (hi < s.size() && s.timestamps()[hi] < to) {
        hi++;
      }
      if (hi > lo) {
        out.add(
            new SeriesData(
                s.labels(),
                java.util.Arrays.copyOfRange(s.timestamps(), lo, hi),
                java.util.Arrays.copyOfRange(s.values(), lo, hi)));
      }
    }
    return out;
  }
}
