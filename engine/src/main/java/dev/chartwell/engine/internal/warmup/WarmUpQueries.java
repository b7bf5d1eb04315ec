package dev.chartwell.engine.internal.warmup;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.WhereLanguage;
import java.util.List;

/**
 * The chart queries of the warm-ups over {@link SyntheticLogs}: each aggregation (counts, sums,
 * averages, extremes, exact distinct counts, quantiles), each kind of filter (Lucene fields,
 * ranges, boolean operators, wildcards and bare terms; SQL comparisons, {@code IN} and {@code
 * LIKE}), with and without group-by over one and two fields, over a day, six hours and the last
 * hour, at the granularities dashboards use, and a ratio of two series. The embedded engine's
 * warm-up runs them as they are; the server's sends each as a chart request.
 */
public final class WarmUpQueries {
  private static final long HOUR = 3_600_000L;

  private WarmUpQueries() {}

  /**
   * @param source the source's id
   * @param end the end of the events' time range, epoch milliseconds (they span the day before)
   * @return the queries, in the order a round asks them
   */
  public static List<ChartQuery> of(String source, long end) {
    long day = end - 24 * HOUR;
    long sixHours = day + 6 * HOUR;
    Granularity m1 = Granularity.MINUTE;
    Granularity m5 = Granularity.FIVE_MINUTES;
    Granularity h1 = Granularity.HOUR;
    String notDebug = "NOT SeverityText:debug";
    return List.of(
        chart(day, end, m1, lucene(source, AggFn.COUNT, null, "SeverityText:error")),
        chart(
            day,
            end,
            m1,
            new Series(
                source,
                AggFn.QUANTILE,
                "Duration",
                0.95,
                "SeverityText:(warn OR error)",
                WhereLanguage.LUCENE,
                List.of("ServiceName"))),
        chart(
            day,
            end,
            m5,
            lucene(source, AggFn.COUNT, null, null),
            lucene(source, AggFn.COUNT, null, "SeverityText:error"),
            lucene(source, AggFn.AVG, "Duration", null),
            lucene(source, AggFn.MAX, "Duration", null),
            lucene(source, AggFn.COUNT_DISTINCT, "host", null)),
        chart(
            sixHours,
            sixHours + 6 * HOUR,
            m1,
            lucene(source, AggFn.COUNT, null, "ServiceName:\"svc-3\" AND status:>=500")),
        chart(day, end, Granularity.THIRTY_MINUTES, lucene(source, AggFn.COUNT, null, "timeout")),
        chart(day, end, h1, lucene(source, AggFn.COUNT_DISTINCT, "TraceId", null)),
        // real data puts tens of thousands of rows in an hour's bucket: the loops over a bucket's
        // rows run over many blocks, as they seldom do over the synthetic 5-minute buckets
        chart(
            day,
            end,
            h1,
            lucene(source, AggFn.MAX, "Duration", null),
            lucene(source, AggFn.COUNT_DISTINCT, "host", null)),
        chart(
            day,
            end,
            h1,
            lucene(source, AggFn.SUM, "Duration", notDebug).groupBy("status"),
            lucene(source, AggFn.MIN, "Duration", notDebug).groupBy("status")),
        chart(
            day,
            end,
            Granularity.FIFTEEN_MINUTES,
            lucene(source, AggFn.P50, "Duration", null).groupBy("ServiceName", "SeverityText"),
            lucene(source, AggFn.P99, "Duration", null).groupBy("ServiceName", "SeverityText")),
        chart(
            day,
            end,
            m1,
            sql(source, AggFn.COUNT, null, "SeverityText = 'error' AND status >= 500")),
        chart(
            day,
            end,
            m5,
            sql(source, AggFn.AVG, "Duration", "host LIKE 'host-1%'").groupBy("ServiceName")),
        chart(
            sixHours,
            end,
            h1,
            sql(source, AggFn.COUNT, null, "ServiceName IN ('svc-1', 'svc-2') AND Duration > 100")),
        chart(day, end, h1, lucene(source, AggFn.COUNT, null, "host:host-1*")),
        chart(
            day,
            end,
            h1,
            lucene(source, AggFn.COUNT, null, "LogAttributes.http.method:POST").groupBy("status")),
        new ChartQuery(
            day,
            end,
            m5,
            List.of(
                lucene(source, AggFn.COUNT, null, "SeverityText:error"),
                lucene(source, AggFn.COUNT, null, null)),
            SeriesReturnType.RATIO),
        chart(
            end - HOUR,
            end,
            m1,
            lucene(source, AggFn.COUNT, null, null).groupBy("ServiceName"),
            lucene(source, AggFn.COUNT_PER_MIN, null, "status:[400 TO 599]")
                .groupBy("ServiceName")),
        chart(
            day,
            end,
            Granularity.AUTO,
            lucene(source, AggFn.LAST_VALUE, "Duration", "Duration:>10")));
  }

  private static Series lucene(String source, AggFn fn, String field, String where) {
    return new Series(source, fn, field, null, where, WhereLanguage.LUCENE, List.of());
  }

  private static Series sql(String source, AggFn fn, String field, String where) {
    return new Series(source, fn, field, null, where, WhereLanguage.SQL, List.of());
  }

  private static ChartQuery chart(long start, long end, Granularity g, Series... series) {
    return new ChartQuery(start, end, g, List.of(series), null);
  }
}
