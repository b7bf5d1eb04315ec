package dev.chartwell.prometheus.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.MemorySeriesSource;
import dev.chartwell.prometheus.SeriesBits;
import dev.chartwell.prometheus.SeriesData;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Range functions over a selection shared with a helper thread ({@link Parallel}) answer exactly
 * what one thread answers: the same series in the same order, the same bits, for every range
 * function (rate's reset index is per thread); and a failure on either thread is the query's.
 */
class ParallelRangeTest {
  private static final String[] QUERIES = {
    "rate(m[5m])",
    "increase(m[3m])",
    "delta(m[5m])",
    "irate(m[5m])",
    "deriv(m[10m])",
    "resets(m[5m])",
    "changes(m[5m])",
    "avg_over_time(m[5m])",
    "stddev_over_time(m[5m])",
    "quantile_over_time(0.9, m[5m])",
    "last_over_time(m[5m])",
    "sum by (job) (rate(m[5m]))",
    "absent_over_time(m[1m])"
  };

  /** Forty series of the property test's kind (resets, staleness markers, gaps), one per seed. */
  private static List<SeriesData> generate(long seed) {
    List<SeriesData> out = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      for (SeriesData s : EvaluatorProperties.generate(seed * 41 + i)) {
        out.add(
            new SeriesData(
                Labels.of(
                    "__name__",
                    "m",
                    "job",
                    s.labels().get("job"),
                    "instance",
                    i + "-" + out.size()),
                s.timestamps(),
                s.values()));
      }
    }
    return out;
  }

  private static <T> T withMinWork(long minWork, Supplier<T> run) {
    long before = Parallel.minWork;
    Parallel.minWork = minWork;
    try {
      return run.get();
    } finally {
      Parallel.minWork = before;
    }
  }

  /** A matrix as text: labels and every value's bits, in answer order. */
  private static List<String> bits(QueryResult r) {
    List<String> out = new ArrayList<>();
    for (SeriesData s : ((QueryResult.Matrix) r).series()) {
      out.add(SeriesBits.of(s));
    }
    return out;
  }

  @Test
  void twoThreadsAnswerWhatOneDoes() {
    qt().withExamples(30)
        .forAll(longs().all(), integers().between(0, QUERIES.length - 1))
        .checkAssert(
            (seed, q) -> {
              Evaluator ev =
                  new Evaluator(new MemorySeriesSource(generate(seed)), EvalSettings.DEFAULTS);
              Expr expr = PromQl.parse(QUERIES[q]);
              Supplier<QueryResult> run = () -> ev.range(expr, 0, 4_000_000, 15_000);
              assertEquals(
                  bits(withMinWork(Long.MAX_VALUE, run)),
                  bits(withMinWork(0, run)),
                  QUERIES[q] + " seed " + seed);
            });
  }

  @Test
  void aFailureOnEitherThreadIsTheQuerys() {
    List<SeriesData> data = generate(7);
    long samples = data.stream().mapToLong(SeriesData::size).sum();
    Evaluator limited =
        new Evaluator(
            new MemorySeriesSource(data),
            new EvalSettings(1_000_000_000L, samples / 2, () -> false));
    Expr rate = PromQl.parse("rate(m[5m])");
    PromQlException e =
        assertThrows(
            PromQlException.class,
            () -> withMinWork(0, () -> limited.range(rate, 0, 4_000_000, 15_000)));
    assertTrue(e.getMessage().contains("too many samples"), e.getMessage());
    Evaluator cancelled =
        new Evaluator(
            new MemorySeriesSource(data), new EvalSettings(300_000, 1L << 40, () -> true));
    e =
        assertThrows(
            PromQlException.class,
            () -> withMinWork(0, () -> cancelled.range(rate, 0, 4_000_000, 15_000)));
    assertEquals(PromQlException.Kind.TIMEOUT, e.kind());
  }
}
