package dev.chartwell.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.WhereLanguage;
import dev.chartwell.server.alerts.AlertSpec;
import dev.chartwell.server.alerts.Evaluator;
import dev.chartwell.server.alerts.Schedule;
import dev.chartwell.server.alerts.Threshold;
import dev.chartwell.server.alerts.Transition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How long the server's alert evaluator takes for one tick of many 1-minute alerts over the {@code
 * bench-logs} data set on disk: per alert one engine query over its window, the state machine, the
 * history record and (for alerts that fire) the outbox, as the server's scheduler does each minute.
 * The alerts mix five kinds: errors per service, the average duration of one service, {@code
 * timeout} in the body, the p95 duration per service, and 5xx of one service. Each tick evaluates
 * the windows closed since the one before, starting six hours before the data set's end.
 *
 * <p>Run: {@code java -cp benchmarks/target/chartwell-bench.jar dev.chartwell.bench.AlertEvaluation
 * ROWS DIR [ALERTS] [TICKS] [MINUTES]} (loads DIR first unless it holds the data set; 1,000 alerts,
 * 5 ticks and 1 minute by default). MINUTES is the time between ticks: above 1, each tick catches
 * up that many windows per alert (at most {@link Schedule#MAX_BACKFILL}), as the first tick after a
 * server was down does. It prints each tick and the median.
 */
public final class AlertEvaluation {
  private AlertEvaluation() {}

  /**
   * @param args rows, the data directory, and optionally the number of alerts, of ticks and of
   *     minutes between ticks
   */
  public static void main(String[] args) throws Exception {
    int rows = Integer.parseInt(args[0]);
    Path dir = Path.of(args[1]);
    int alerts = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    int ticks = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    int minutes = args.length > 4 ? Integer.parseInt(args[4]) : 1;
    if (minutes < 1 || minutes > Schedule.MAX_BACKFILL) {
      throw new IllegalArgumentException("MINUTES must be 1 to " + Schedule.MAX_BACKFILL);
    }
    Path state = Files.createTempDirectory("chartwell-alert-bench");
    try (Engine engine = BenchData.onDisk(dir, rows, FsyncPolicy.REQUEST).engine();
        Evaluator evaluator =
            Evaluator.open(
                state,
                engine,
                new ObjectMapper(),
                null,
                Duration.ofSeconds(20),
                line -> System.out.println("alerts: " + line))) {
      List<AlertSpec> specs = new ArrayList<>();
      for (int i = 0; i < alerts; i++) {
        specs.add(spec(i));
      }
      // Each tick evaluates the minutes closed since the last, six hours before the data set's end.
      long first = BenchLogs.END - 6 * 3_600_000L;
      // The first window warms the JIT and the page cache, and checks that every alert's query
      // runs: an alert whose query is refused or stopped evaluates no window.
      for (AlertSpec s : specs) {
        if (evaluator.evaluate(s, first) != 1) {
          throw new IllegalStateException(s.alertId() + " was not evaluated");
        }
      }
      double[] millis = new double[ticks];
      for (int t = 0; t < ticks; t++) {
        long now = first + (t + 1) * minutes * 60_000L;
        long t0 = System.nanoTime();
        int windows = 0;
        for (AlertSpec s : specs) {
          windows += evaluator.evaluate(s, now);
        }
        millis[t] = (System.nanoTime() - t0) / 1e6;
        if (windows != alerts * minutes) {
          throw new IllegalStateException(windows + " windows evaluated for " + alerts + " alerts");
        }
        System.out.printf(
            Locale.ROOT,
            "tick %d (%s): %d windows of %d alerts in %.0f ms (%.3f ms per window)%n",
            t + 1,
            Instant.ofEpochMilli(now),
            windows,
            alerts,
            millis[t],
            millis[t] / windows);
      }
      Map<String, Integer> states = new TreeMap<>();
      for (AlertSpec s : specs) {
        states.merge(evaluator.state(s.alertId()), 1, Integer::sum);
      }
      System.out.println("alert states after the last tick: " + states);
      if (!states.containsKey("ALERT") || !states.containsKey("OK")) {
        throw new IllegalStateException("the thresholds are meant to let some alerts fire");
      }
      Arrays.sort(millis);
      System.out.printf(
          Locale.ROOT,
          "%,d events, %d alerts: median tick %.0f ms, min %.0f ms, max %.0f ms%n",
          rows,
          alerts,
          millis[ticks / 2],
          millis[0],
          millis[ticks - 1]);
    } finally {
      BenchData.deleteTree(state);
    }
  }

  /** Alert {@code i}: one of five kinds, with thresholds that let some of them fire. */
  static AlertSpec spec(int i) {
    String svc = BenchLogs.SERVICES[i % BenchLogs.SERVICES.length];
    List<String> byService = List.of("ServiceName");
    Series series;
    Threshold threshold;
    switch (i % 5) {
      case 0 -> {
        series = series(AggFn.COUNT, null, "SeverityText:error", byService);
        threshold = new Threshold("above", 5 + i % 50, 0);
      }
      case 1 -> {
        series = series(AggFn.AVG, "Duration", "ServiceName:\"" + svc + "\"", List.of());
        threshold = new Threshold("above_exclusive", 50 + i % 200, 0);
      }
      case 2 -> {
        series = series(AggFn.COUNT, null, "timeout", List.of());
        threshold = new Threshold("between", i % 20, 20 + i % 100);
      }
      case 3 -> {
        series =
            new Series(
                BenchData.SOURCE,
                AggFn.QUANTILE,
                "Duration",
                0.95,
                "",
                WhereLanguage.LUCENE,
                byService);
        threshold = new Threshold("below", 10 + i % 100, 0);
      }
      default -> {
        series =
            series(AggFn.COUNT, null, "ServiceName:\"" + svc + "\" AND status:>=500", List.of());
        threshold = new Threshold("not_between", 0, i % 30);
      }
    }
    return new AlertSpec(
        "bench-alert-" + i,
        "bench",
        new Schedule(60_000, 0, null),
        new Transition.Rules(threshold, 1 + i % 3, i % 2 == 0 ? 0 : 5 * 60_000),
        0,
        List.of("webhook"),
        new AlertSpec.Target(List.of(series), SeriesReturnType.COLUMN),
        null,
        null,
        null,
        null,
        "dashboard",
        "Bench",
        "tile-" + i,
        "Tile " + i);
  }

  private static Series series(AggFn fn, String field, String where, List<String> groupBy) {
    return new Series(BenchData.SOURCE, fn, field, null, where, WhereLanguage.LUCENE, groupBy);
  }
}
