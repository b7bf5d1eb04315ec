package dev.chartwell.engine.internal.exec;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.MetricType;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a chart query that do not depend on data, each failure naming its field path. Public
 * so that every backend refuses the same queries with the same messages.
 */
public final class QueryValidator {
  static final long MIN_EPOCH_MILLIS = 1_000_000_000_000L; // 13 digits
  static final int MAX_SERIES = 5;
  static final int MAX_GROUP_BY = 10;

  private QueryValidator() {}

  /**
   * @param q a chart query
   * @throws InvalidQueryException listing every problem, each with its field path
   */
  public static void validate(ChartQuery q) {
    List<String> problems = new ArrayList<>();
    if (q.startTime() < MIN_EPOCH_MILLIS) {
      problems.add(
          "startTime: must be epoch milliseconds (a positive integer of at least 13 digits)");
    }
    if (q.endTime() < MIN_EPOCH_MILLIS) {
      problems.add(
          "endTime: must be epoch milliseconds (a positive integer of at least 13 digits)");
    }
    if (q.startTime() > q.endTime()) {
      problems.add("endTime: must not be before startTime");
    }
    List<Series> series = q.series();
    if (series.isEmpty() || series.size() > MAX_SERIES) {
      problems.add("series: must hold 1 to " + MAX_SERIES + " series, got " + series.size());
    }
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      String path = "series[" + i + "]";
      if (s.sourceId() == null || s.sourceId().isBlank()) {
        problems.add(path + ".sourceId: is required");
      }
      if (s.metric() != null) {
        metric(s, path, problems);
      } else if (s.aggFn() == null) {
        problems.add(path + ".aggFn: is required");
      } else if (!s.aggFn().isCount() && (s.field() == null || s.field().isBlank())) {
        problems.add(path + ".field: is required for aggFn " + s.aggFn().wireName());
      }
      if (s.level() != null && !(s.level() >= 0 && s.level() <= 1)) {
        problems.add(path + ".level: must be between 0 and 1");
      }
      if (s.groupBy().size() > MAX_GROUP_BY) {
        problems.add(path + ".groupBy: at most " + MAX_GROUP_BY + " fields");
      }
      for (int g = 0; g < s.groupBy().size(); g++) {
        if (s.groupBy().get(g) == null || s.groupBy().get(g).isBlank()) {
          problems.add(path + ".groupBy[" + g + "]: must be a field name");
        }
      }
      if (i > 0 && !s.groupBy().equals(series.get(0).groupBy())) {
        problems.add(
            path
                + ".groupBy: every series must have the same groupBy as series[0] "
                + series.get(0).groupBy());
      }
    }
    if (q.returnType() == SeriesReturnType.RATIO && series.size() != 2) {
      problems.add("seriesReturnType: ratio needs exactly 2 series, got " + series.size());
    }
    if (!problems.isEmpty()) {
      throw new InvalidQueryException(problems);
    }
  }

  /** A metric series aggregates its metric's values: no field; histograms: counts and quantiles. */
  private static void metric(Series s, String path, List<String> problems) {
    MetricSpec m = s.metric();
    if (m.name() == null || m.name().isBlank()) {
      problems.add(path + ".metricName: is required for a metric series");
    }
    if (m.type() == null) {
      problems.add(path + ".metricDataType: is required for a metric series");
    }
    if (s.field() != null) {
      problems.add(
          path + ".field: a metric series aggregates the metric's own values; leave it out");
    }
    if (s.aggFn() == null) {
      problems.add(path + ".aggFn: is required");
    } else if (m.type() == MetricType.HISTOGRAM
        && !s.aggFn().isCount()
        && !s.aggFn().isQuantile()) {
      problems.add(
          path
              + ".aggFn: "
              + s.aggFn().wireName()
              + " is not defined for histogram metrics; use quantile (or p50, p90, p95, p99) or"
              + " count");
    }
  }
}
