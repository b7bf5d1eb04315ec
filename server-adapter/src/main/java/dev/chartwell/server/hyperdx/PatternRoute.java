package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.patterns.PatternWhere;
import dev.chartwell.server.patterns.WordPicker;
import dev.chartwell.server.tenancy.Tenancy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v2/patterns}: the events of a source matching a where in a time range, their
 * text (the body, or a chosen field) grouped into patterns by {@link PatternSample}, each with its
 * count, a sparkline over the range, a sample and a where that finds all of its events, run once
 * more to say how many other events that where also matches.
 */
final class PatternRoute {
  static final int MAX_LIMIT = 100;
  static final int DEFAULT_LIMIT = 20;
  static final Duration MAX_RANGE = Duration.ofDays(31);

  private static final Set<String> FIELDS =
      Set.of(
          "sourceId", "startTime", "endTime", "where", "whereLanguage", "field", "limit", "order");

  /** The series one chart query holds, so the patterns' wheres are counted five at a time. */
  private static final int SERIES_PER_QUERY = 5;

  private PatternRoute() {}

  /** Answers {@code POST /patterns}. */
  static Response patterns(
      Request req, Catalog catalog, Engine engine, Json json, Clock clock, Tenancy tenancy)
      throws java.io.IOException {
    ServicePrincipal p = V2.caller(req, false);
    p.requireRunning();
    List<String> problems = new ArrayList<>();
    JsonNode body = Params.object(req, json, FIELDS, problems);
    EventQueryParams params = EventQueryParams.read(body, 64, problems);
    String asked = Params.text(body, "field", 256, problems);
    if (asked != null && asked.isBlank()) {
      problems.add("field: must name a column");
    }
    int limit = Params.integer(body, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT, problems);
    String order = Params.text(body, "order", 16, problems);
    if (order != null && !order.equals("count") && !order.equals("newest")) {
      problems.add("order: must be count or newest");
    }
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    EventQueryParams q = params.resolved(clock);
    String sourceId = q.sourceId();
    Instant start = q.start();
    Instant end = q.end();
    if (Duration.between(start, end).compareTo(MAX_RANGE) > 0) {
      throw ApiException.badRequest(
          "endTime: the range is longer than " + MAX_RANGE.toDays() + " days: narrow it");
    }
    EventSource source = EventSource.resolve(catalog, engine, p.warehouseId(), sourceId);
    String field = asked == null ? defaultField(source) : Params.columnName(asked);
    if (!source.hasColumn().test(field)) {
      throw ApiException.badRequest("field: source " + sourceId + " has no column '" + field + "'");
    }
    String userWhere = q.where() == null ? "" : q.where();
    return source.answer(
        tenancy,
        p,
        req,
        control ->
            answer(source, field, start, end, userWhere, q.language(), limit, order, control));
  }

  /** Reads the sample, groups it into patterns and counts each pattern's where. */
  private static Response answer(
      EventSource source,
      String field,
      Instant start,
      Instant end,
      String userWhere,
      WhereLanguage lang,
      int limit,
      String order,
      QueryControl control) {
    String sourceId = source.id();
    PatternSample sample =
        PatternSample.read(
            source, field, start.toEpochMilli(), end.toEpochMilli(), userWhere, lang, control);
    List<PatternSample.Found> found = new ArrayList<>(sample.patterns());
    found.sort(
        "newest".equals(order)
            ? Comparator.comparingLong(PatternSample.Found::newest).reversed()
            : Comparator.comparingDouble(PatternSample.Found::weight).reversed());
    List<PatternSample.Found> shown = found.subList(0, Math.min(limit, found.size()));
    boolean implicit = source.column("implicitColumnExpression").map(field::equals).orElse(false);
    boolean sql = lang == WhereLanguage.SQL;
    List<PatternSample.Row> rows = sample.rows();
    WordPicker picker =
        new WordPicker(rows.stream().map(PatternSample.Row::text).toList(), sql, implicit);
    List<String> wheres = new ArrayList<>();
    double[] whereWeights = new double[shown.size()];
    for (int i = 0; i < shown.size(); i++) {
      int id = shown.get(i).id();
      BitSet mine = new BitSet(rows.size());
      for (int r = 0; r < rows.size(); r++) {
        mine.set(r, rows.get(r).pattern() == id);
      }
      List<String> words =
          picker.pick(PatternWhere.terms(shown.get(i).tokens()), mine, rows.size());
      BitSet matched = picker.linesWithAll(words, rows.size());
      for (int r = matched.nextSetBit(0); r >= 0; r = matched.nextSetBit(r + 1)) {
        whereWeights[i] += rows.get(r).weight();
      }
      wheres.add(
          sql
              ? PatternWhere.sql(words, field, userWhere)
              : PatternWhere.lucene(words, field, implicit, userWhere));
    }
    long[] whereCounts = counts(source, start, end, wheres, lang, control);
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < shown.size(); i++) {
      PatternSample.Found f = shown.get(i);
      long count =
          sample.sampled()
              ? Math.round(whereCounts[i] * f.weight() / Math.max(f.weight(), whereWeights[i]))
              : f.rows();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pattern", f.template());
      m.put("count", count);
      m.put("sampleRows", f.rows());
      m.put("sparkline", scaled(f.sparkline(), count / Math.max(1e-9, f.weight())));
      m.put(
          "sample",
          Map.of("time", Instant.ofEpochMilli(f.newest()).toString(), "text", f.sampleText()));
      m.put("where", wheres.get(i));
      m.put("whereLanguage", lang.wireName());
      m.put("whereCount", whereCounts[i]);
      m.put("otherMatches", Math.max(0, whereCounts[i] - count));
      out.add(m);
    }
    if (!"newest".equals(order)) {
      out.sort(Comparator.comparingLong(m -> -(Long) m.get("count")));
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("sourceId", sourceId);
    answer.put("field", field);
    answer.put("startTime", start.toString());
    answer.put("endTime", end.toString());
    answer.put("granularity", sample.granularity().name());
    answer.put(
        "bucketStarts",
        sample.bucketStarts().stream().map(t -> Instant.ofEpochMilli(t).toString()).toList());
    answer.put("eventsMatched", sample.matched());
    answer.put("eventsConsidered", sample.considered());
    answer.put("sampled", sample.sampled());
    answer.put("patternCount", found.size());
    answer.put("patterns", out);
    return V2.data(answer);
  }

  private static long[] scaled(long[] counts, double factor) {
    long[] out = new long[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = Math.round(counts[i] * factor);
    }
    return out;
  }

  /** The source's body column, else its implicit column. */
  private static String defaultField(EventSource source) {
    return source
        .column("bodyExpression")
        .or(() -> source.column("implicitColumnExpression"))
        .orElseThrow(
            () ->
                ApiException.badRequest(
                    "field: source "
                        + source.id()
                        + " has no bodyExpression or implicitColumnExpression naming a column:"
                        + " name the field to group"));
  }

  /** How many events of the range each where matches, five wheres to a chart query. */
  private static long[] counts(
      EventSource source,
      Instant start,
      Instant end,
      List<String> wheres,
      WhereLanguage lang,
      QueryControl control) {
    long[] out = new long[wheres.size()];
    for (int from = 0; from < wheres.size(); from += SERIES_PER_QUERY) {
      int to = Math.min(wheres.size(), from + SERIES_PER_QUERY);
      ChartQuery.Builder q =
          ChartQuery.over(start, end).source(source.queryId()).every(Granularity.THIRTY_DAYS);
      for (int i = from; i < to; i++) {
        q.series(
            new Series(
                source.queryId(),
                AggFn.COUNT,
                null,
                null,
                wheres.get(i),
                Languages.engine(lang),
                List.of()));
      }
      ChartResult r = source.chart(q.build(), control);
      for (ChartResult.Row row : r.rows()) {
        for (int i = from; i < to; i++) {
          Number n = row.values().get(i - from);
          out[i] += n == null ? 0 : n.longValue();
        }
      }
    }
    return out;
  }
}
