package dev.chartwell.prometheus.promql.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.MemorySeriesSource;
import dev.chartwell.prometheus.SeriesData;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same generated hour of samples pushed to a real Prometheus (remote write) and held by our
 * evaluator; every expression of {@link Differential} runs through both as range and instant
 * queries, and the answers must agree. Skips (loudly) when {@code /usr/bin/prometheus} is missing.
 * The server's {@code PrometheusServerDifferentialTest} runs the same through our HTTP API.
 */
public class PrometheusDifferentialTest {
  private static PrometheusProcess prometheus;
  private static long start;
  private static List<SeriesData> data;

  @BeforeAll
  static void load() throws Exception {
    if (!PrometheusProcess.available()) {
      System.err.println(
          "SKIPPED PrometheusDifferentialTest: no "
              + PrometheusProcess.BINARY
              + " (apt-get install prometheus)");
      return;
    }
    start = HourOfSamples.start(System.currentTimeMillis());
    data = HourOfSamples.generate(42, start, HourOfSamples.SCRAPES);
    prometheus = new PrometheusProcess();
    for (List<SeriesData> slice : HourOfSamples.slices(data, start)) {
      prometheus.write(slice);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (prometheus != null) {
      prometheus.close();
    }
  }

  @Test
  void everyExpressionAgreesWithPrometheus() {
    Assumptions.assumeTrue(prometheus != null, "prometheus binary missing");
    assertTrue(Differential.EXPRESSIONS.size() >= 60);
    Differential.Outcome outcome =
        Differential.run(
                new PrometheusApiTarget(prometheus.base),
                Map.of("ours", new InProcessTarget(new MemorySeriesSource(data))),
                start)
            .get("ours");
    System.out.println(
        "PrometheusDifferentialTest: "
            + Differential.EXPRESSIONS.size()
            + " expressions, "
            + outcome.comparisons()
            + " comparisons, "
            + outcome.failures().size()
            + " failed");
    assertEquals(List.of(), outcome.failures());
  }
}
