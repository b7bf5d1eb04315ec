package dev.chartwell.server.hyperdx;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.patterns.Drain;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The patterns of a source's events in a range: the events are counted per bucket of the range (at
 * most {@value #MAX_BUCKETS} buckets, the sparklines' points); when at most {@value #SAMPLE} match,
 * every one's text is read, else a sample of {@value #SAMPLE} stratified by bucket (each bucket
 * gives its share, the newest events of the bucket, each standing for {@code bucket count / rows
 * read} events); the rows are clustered by {@link Drain}, in the order read.
 *
 * @param granularity the buckets' width
 * @param bucketStarts each bucket's start, epoch ms (the first may begin before the range)
 * @param matched how many events match in the range
 * @param considered how many of them were read and clustered
 * @param sampled whether fewer were read than match
 * @param patterns every pattern found, in the order first seen
 * @param rows the rows read, each with its text and how many events it stands for
 */
record PatternSample(
    Granularity granularity,
    List<Long> bucketStarts,
    long matched,
    long considered,
    boolean sampled,
    List<PatternSample.Found> patterns,
    List<PatternSample.Row> rows) {

  /** The most rows read and clustered. */
  static final int SAMPLE = 4_000;

  /** The most buckets of the range (points of a sparkline). */
  static final int MAX_BUCKETS = 32;

  /**
   * A row read.
   *
   * @param text its field's text
   * @param weight how many events it stands for
   * @param pattern the pattern it joined (its index in {@link #patterns()})
   */
  record Row(String text, double weight, int pattern) {}

  /**
   * A pattern.
   *
   * @param id its index in {@link #patterns()}
   * @param tokens its template's tokens
   * @param rows how many rows read it has
   * @param weight how many events those rows stand for
   * @param sparkline how many events it has in each bucket (estimated when sampled)
   * @param newest its newest row's time, epoch ms
   * @param sampleText that row's text
   */
  record Found(
      int id,
      List<String> tokens,
      long rows,
      double weight,
      long[] sparkline,
      long newest,
      String sampleText) {

    /**
     * @return the template
     */
    String template() {
      return String.join(" ", tokens);
    }
  }

  /**
   * @param source the source
   * @param field the column whose text is grouped
   * @param start range start, epoch ms, inclusive
   * @param end range end, epoch ms, inclusive
   * @param where the events' where
   * @param lang its language
   * @param control stops the queries
   * @return the patterns
   */
  static PatternSample read(
      EventSource source,
      String field,
      long start,
      long end,
      String where,
      WhereLanguage lang,
      QueryControl control) {
    Granularity g = granularity(start, end);
    long first = g.bucketStart(start);
    int buckets = (int) ((g.bucketStart(end) - first) / g.millis()) + 1;
    long[] counts = new long[buckets];
    ChartQuery q =
        ChartQuery.over(start, end)
            .source(source.queryId())
            .every(g)
            .series(
                new Series(
                    source.queryId(),
                    AggFn.COUNT,
                    null,
                    null,
                    where,
                    Languages.engine(lang),
                    List.of()))
            .build();
    for (ChartResult.Row row : source.chart(q, control).rows()) {
      Number n = row.values().get(0);
      int b = (int) ((row.bucket() - first) / g.millis());
      if (n != null && b >= 0 && b < buckets) {
        counts[b] += n.longValue();
      }
    }
    long matched = 0;
    for (long c : counts) {
      matched += c;
    }
    boolean sampled = matched > SAMPLE;
    Clusters clusters = new Clusters(buckets);
    long considered = 0;
    if (!sampled) {
      if (matched > 0) {
        SearchResult r = search(source, field, start, end, where, lang, SAMPLE, control);
        for (Map<String, Object> row : r.rows()) {
          long t = millis(row.get(r.timestampColumn()));
          int b = (int) Math.min(buckets - 1, Math.max(0, (g.bucketStart(t) - first) / g.millis()));
          clusters.add(text(row.get(field)), t, b, 1);
        }
        considered = r.rows().size();
      }
    } else {
      for (int b = 0; b < buckets; b++) {
        if (counts[b] == 0) {
          continue;
        }
        int n = (int) Math.min(SearchQuery.MAX_LIMIT, Math.max(1, SAMPLE * counts[b] / matched));
        long from = Math.max(start, first + b * g.millis());
        long to = Math.min(end, first + (b + 1) * g.millis() - 1);
        SearchResult r = search(source, field, from, to, where, lang, n, control);
        double weight = r.rows().isEmpty() ? 0 : (double) counts[b] / r.rows().size();
        for (Map<String, Object> row : r.rows()) {
          clusters.add(text(row.get(field)), millis(row.get(r.timestampColumn())), b, weight);
        }
        considered += r.rows().size();
      }
    }
    List<Long> starts = new ArrayList<>(buckets);
    for (int b = 0; b < buckets; b++) {
      starts.add(first + b * g.millis());
    }
    return new PatternSample(
        g, List.copyOf(starts), matched, considered, sampled, clusters.found(), clusters.rows);
  }

  /** The finest requestable granularity cutting a range into at most {@value #MAX_BUCKETS}. */
  static Granularity granularity(long start, long end) {
    for (Granularity g : Granularity.REQUESTABLE) {
      if ((g.bucketStart(end) - g.bucketStart(start)) / g.millis() + 1 <= MAX_BUCKETS) {
        return g;
      }
    }
    return Granularity.THIRTY_DAYS;
  }

  private static SearchResult search(
      EventSource source,
      String field,
      long from,
      long to,
      String where,
      WhereLanguage lang,
      int limit,
      QueryControl control) {
    return source.search(
        new SearchQuery(
            source.queryId(),
            from,
            to,
            where,
            Languages.engine(lang),
            List.of(source.timestamp(), field),
            SearchOrder.NEWEST_FIRST,
            limit,
            0),
        control);
  }

  private static String text(Object v) {
    return v == null ? "" : v.toString();
  }

  private static long millis(Object v) {
    if (v instanceof Number n) {
      return n.longValue();
    }
    return v == null ? 0 : Instant.parse(v.toString()).toEpochMilli();
  }

  /** The clusters being made, with what each has gathered. */
  private static final class Clusters {
    private final Drain drain = new Drain();
    private final int buckets;
    private final List<Stats> stats = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();

    private static final class Stats {
      final double[] spark;
      double weight;
      long rows;
      long newest = Long.MIN_VALUE;
      String sample;

      Stats(int buckets) {
        spark = new double[buckets];
      }
    }

    Clusters(int buckets) {
      this.buckets = buckets;
    }

    void add(String text, long time, int bucket, double weight) {
      int id = drain.add(text).id();
      rows.add(new Row(text, weight, id));
      if (id == stats.size()) {
        stats.add(new Stats(buckets));
      }
      Stats s = stats.get(id);
      s.spark[bucket] += weight;
      s.weight += weight;
      s.rows++;
      if (time > s.newest || s.sample == null) {
        s.newest = time;
        s.sample = text;
      }
    }

    List<Found> found() {
      List<Found> out = new ArrayList<>();
      for (Drain.Cluster c : drain.clusters()) {
        Stats s = stats.get(c.id());
        long[] spark = new long[buckets];
        for (int b = 0; b < buckets; b++) {
          spark[b] = Math.round(s.spark[b]);
        }
        out.add(new Found(c.id(), c.tokens(), s.rows, s.weight, spark, s.newest, s.sample));
      }
      return out;
    }
  }
}
