package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.MetricSpec;
import dev.chartwell.engine.MetricType;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.internal.query.Backend;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.MetricTables;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.tenancy.Tenancy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/v2/charts/series}: each asked series resolved against the sources of the token's
 * warehouse (a log or trace source reads its table; a metric source the table of the asked metric
 * data type, with the metric's name), run as one engine query, and answered in HyperDX's shapes.
 */
final class ChartQueries {
  private ChartQueries() {}

  static Response query(Request req, Catalog catalog, Engine engine, Json json, Tenancy tenancy)
      throws java.io.IOException {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    ChartRequest asked = ChartRequest.parse(json.readTree(req.bodyBytes()));
    List<Series> series = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    int external = 0;
    for (int i = 0; i < asked.series().size(); i++) {
      String path = "series[" + i + "]";
      ChartRequest.Asked a = asked.series().get(i);
      boolean onClickHouse =
          a.sourceId() != null
              && catalog.clickHouseSourceOf(p.warehouseId(), a.sourceId()).isPresent();
      if (onClickHouse) {
        external++;
      }
      Series s = resolve(a, path, p.warehouseId(), catalog, onClickHouse, problems);
      if (s != null) {
        series.add(s);
      }
    }
    if (external > 0 && external < asked.series().size()) {
      problems.add(
          "series: every series of a query must read sources of the same kind of connection:"
              + " some read the embedded engine, others an external ClickHouse");
    }
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    Backend backend =
        external == 0
            ? Backend.of(engine)
            : new ClickHouseBackend(id -> catalog.clickHouseSourceOf(p.warehouseId(), id));
    ChartQuery q =
        new ChartQuery(
            asked.startTime(),
            asked.endTime(),
            asked.granularity(),
            series,
            "ratio".equals(asked.returnType()) ? SeriesReturnType.RATIO : SeriesReturnType.COLUMN);
    QueryControl control = new QueryControl();
    req.onClientDisconnect(() -> control.cancel("the client disconnected"));
    boolean onClickHouse = external > 0;
    return tenancy.query(
        p.id(),
        onClickHouse,
        control,
        () -> answer(req, backend, q, series, asked, onClickHouse, control, json));
  }

  /** Runs the query and shapes its answer. */
  private static Response answer(
      Request req,
      Backend backend,
      ChartQuery q,
      List<Series> series,
      ChartRequest asked,
      boolean onClickHouse,
      QueryControl control,
      Json json) {
    ChartResult result;
    long engineStart = System.nanoTime();
    try {
      result = backend.query(q, QueryOptions.DEFAULT.withControl(control));
      req.serverTiming(onClickHouse ? "clickhouse" : "engine", System.nanoTime() - engineStart);
    } catch (InvalidQueryException e) {
      throw ApiException.badRequest(e.getMessage());
    } catch (UnknownSourceException e) {
      throw ApiException.notFound(e.getMessage());
    } catch (QueryAbortedException e) {
      throw ChartRoutes.aborted(e);
    } catch (ClickHouseException e) {
      throw ClickHouseErrors.answer(e);
    }
    if (!"column".equals(asked.returnType())) {
      // the common shape, streamed from the engine's rows
      return Response.json(200, new ChartJson(result, q.returnType() == SeriesReturnType.RATIO));
    }
    ObjectNode body = json.mapper().createObjectNode();
    columns(
        result,
        series.isEmpty() ? List.of() : series.get(0).groupBy(),
        series.size(),
        body.putArray("data"));
    return Response.json(200, body);
  }

  /** The engine series of one asked series, or {@code null} with its problems added. */
  private static Series resolve(
      ChartRequest.Asked a,
      String path,
      String warehouse,
      Catalog catalog,
      boolean onClickHouse,
      List<String> problems) {
    if (a.sourceId() == null) {
      problems.add(path + ".sourceId: is required");
      return null;
    }
    String id = a.sourceId();
    ObjectNode source;
    try {
      source = catalog.source(warehouse, id, SourceApi.CLOUD);
    } catch (ApiException e) {
      throw ApiException.notFound(path + ".sourceId: source " + id + " not found");
    }
    String kind = source.path("kind").asText();
    int before = problems.size();
    if (ChartRequest.NONE.equals(a.aggFn())) {
      problems.add(
          path
              + ".aggFn: none (a field that is itself an aggregate SQL expression) is not supported:"
              + " Chartwell runs no SQL; choose an aggregation");
    }
    AggFn fn =
        a.aggFn() == null || ChartRequest.NONE.equals(a.aggFn())
            ? null
            : ChartRequest.INCREASE.equals(a.aggFn())
                ? AggFn.SUM
                : AggFn.fromWireName(a.aggFn()).orElseThrow();
    if (!kind.equals("metric")) {
      if ("metrics".equals(a.dataSource())) {
        problems.add(
            path + ".dataSource: source " + id + " is a " + kind + " source, not a metric source");
      }
      for (String f : new String[] {"metricName", "metricDataType"}) {
        if ((f.equals("metricName") ? a.metricName() : a.metricDataType()) != null) {
          problems.add(
              path
                  + "."
                  + f
                  + ": only for metric sources; source "
                  + id
                  + " is a "
                  + kind
                  + " source");
        }
      }
      if (ChartRequest.INCREASE.equals(a.aggFn())) {
        problems.add(path + ".aggFn: increase is only for sum (counter) metrics");
      }
      if (onClickHouse) {
        // read where it is: the ClickHouse backend knows the source by its own id
        return problems.size() > before
            ? null
            : new Series(
                id,
                fn,
                a.field(),
                a.level(),
                a.where(),
                Languages.engine(a.whereLanguage()),
                a.groupBy());
      }
      Source table =
          catalog
              .engineSourceOf(warehouse, id)
              .orElseThrow(
                  () -> ApiException.notFound(path + ".sourceId: source " + id + " not found"));
      return problems.size() > before
          ? null
          : new Series(
              table.id(),
              fn,
              a.field(),
              a.level(),
              a.where(),
              Languages.engine(a.whereLanguage()),
              a.groupBy());
    }
    if ("events".equals(a.dataSource())) {
      problems.add(path + ".dataSource: source " + id + " is a metric source; use metrics");
    }
    // As HyperDX: without metricName, the field names the metric.
    String name = a.metricName() != null ? a.metricName() : a.field();
    if (name == null || name.isBlank()) {
      problems.add(path + ".metricName: is required for metric source " + id);
    }
    if (a.metricDataType() == null) {
      problems.add(
          path
              + ".metricDataType: is required for metric source "
              + id
              + ": gauge, sum or histogram");
      return null;
    }
    MetricType type = MetricType.fromWireName(a.metricDataType()).orElseThrow();
    if (ChartRequest.INCREASE.equals(a.aggFn()) && type != MetricType.SUM) {
      problems.add(
          path + ".aggFn: increase is only for sum (counter) metrics, not " + type.wireName());
    }
    String tableName = MetricTables.named(source).get(type.wireName());
    if (tableName == null) {
      problems.add(
          path
              + ".metricDataType: metric source "
              + id
              + " names no "
              + type.wireName()
              + " table in metricTables");
    }
    if (problems.size() > before) {
      return null;
    }
    Source table =
        catalog
            .engineMetricTableOf(warehouse, id, type.wireName())
            .orElseThrow(
                () ->
                    ApiException.notFound(
                        path
                            + ".metricDataType: table "
                            + tableName
                            + " of metric source "
                            + id
                            + " does not exist"));
    return new Series(
        table.id(),
        fn,
        null,
        a.level(),
        a.where(),
        Languages.engine(a.whereLanguage()),
        a.groupBy(),
        new MetricSpec(name, type));
  }

  /**
   * {@code seriesReturnType: "column"}, as HyperDX answers it: the rows of each series in turn, one
   * per (bucket, group) where it has a value, with the bucket as {@code __hdx_time_bucket} (ISO
   * time), the group values under their field names and the value as {@code series_N}.
   */
  private static void columns(ChartResult result, List<String> groupBy, int n, ArrayNode data) {
    for (int i = 0; i < n; i++) {
      for (ChartResult.Row row : result.rows()) {
        Number v = row.values().get(i);
        if (v == null) {
          continue;
        }
        ObjectNode r = data.addObject();
        r.put("__hdx_time_bucket", Instant.ofEpochMilli(row.bucket()).toString());
        for (int g = 0; g < groupBy.size(); g++) {
          r.put(groupBy.get(g), row.group().get(g));
        }
        put(r, "series_" + i, v);
      }
    }
  }

  private static void put(ObjectNode r, String key, Number v) {
    if (v instanceof Long l) {
      r.put(key, l);
    } else {
      r.put(key, v.doubleValue());
    }
  }
}
