package dev.chartwell.server.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.Source;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tables and ClickStack sources of OTLP data. A warehouse's first write of a signal creates its
 * tables in the {@code default} database (all five metric tables at once) and a source reading
 * them, named {@code Logs}, {@code Traces} or {@code Metrics} with the expressions HyperDX fills in
 * for the ClickHouse exporter's tables, linked to the other two when they exist (and they to it,
 * where they name no such source yet). Tables that exist are used as they are; a source is only
 * created together with its table, so a source deleted by its user stays deleted.
 */
public final class OtelSources {
  static final String DATABASE = Catalog.DEFAULT_DATABASE;

  private OtelSources() {}

  /**
   * @param catalog the catalog
   * @param mapper builds the definitions
   * @param warehouse the warehouse of the request's service
   * @param signal the signal written
   * @return the engine source of each of the signal's tables, created when missing
   */
  public static Map<OtelTable, Source> tables(
      Catalog catalog, ObjectMapper mapper, String warehouse, Signal signal) {
    Map<OtelTable, Source> found = find(catalog, warehouse, signal);
    if (found.size() < signal.tables().size()) {
      provision(catalog, mapper, warehouse, signal);
      found = find(catalog, warehouse, signal);
      if (found.size() < signal.tables().size()) {
        // Deleted again between the two looks: the next attempt creates it anew.
        throw new ApiException(
            ErrorCode.SERVICE_UNAVAILABLE,
            "a table of " + signal.records() + " was deleted while this request was stored",
            Map.of("Retry-After", "1"));
      }
    }
    return found;
  }

  /**
   * The tables of a signal on the external ClickHouse connection the service's OTLP goes to: a
   * source of the warehouse on that connection reading {@code default.<table>}, created (which
   * checks that the table exists there) on the first write.
   *
   * @param catalog the catalog
   * @param mapper builds the definitions
   * @param warehouse the warehouse of the request's service
   * @param signal logs or traces
   * @param connection the connection marked {@code otlp: true}
   * @return how to write each of the signal's tables
   */
  static Map<OtelTable, ClickHouseBackend.Bound> external(
      Catalog catalog, ObjectMapper mapper, String warehouse, Signal signal, String connection) {
    Map<OtelTable, ClickHouseBackend.Bound> out = new EnumMap<>(OtelTable.class);
    for (OtelTable t : signal.tables()) {
      String id =
          catalog.sources(warehouse).stream()
              .filter(
                  s ->
                      connection.equals(s.path("connection").asText())
                          && DATABASE.equals(s.path("from").path("databaseName").asText())
                          && t.tableName().equals(s.path("from").path("tableName").asText()))
              .map(s -> s.get("id").asText())
              .findFirst()
              .orElseGet(
                  () -> {
                    ObjectNode s = source(mapper, signal);
                    s.put("connection", connection);
                    return catalog.createSource(warehouse, s).get("id").asText();
                  });
      out.put(
          t,
          catalog
              .clickHouseSourceOf(warehouse, id)
              .orElseThrow(
                  () ->
                      new ApiException(
                          ErrorCode.SERVICE_UNAVAILABLE,
                          "the source of "
                              + t.tableName()
                              + " was changed while this request was stored",
                          Map.of("Retry-After", "1"))));
    }
    return out;
  }

  private static Map<OtelTable, Source> find(Catalog catalog, String warehouse, Signal signal) {
    Map<OtelTable, Source> found = new EnumMap<>(OtelTable.class);
    for (OtelTable t : signal.tables()) {
      catalog.engineTable(warehouse, DATABASE, t.tableName()).ifPresent(s -> found.put(t, s));
    }
    return found;
  }

  private static void provision(
      Catalog catalog, ObjectMapper mapper, String warehouse, Signal signal) {
    List<Catalog.NewTable> tables = new ArrayList<>();
    for (OtelTable t : signal.tables()) {
      tables.add(new Catalog.NewTable(t.tableName(), t.sourceKind(), definition(mapper, t)));
    }
    ObjectNode source = source(mapper, signal);
    Map<Signal, ObjectNode> others = new EnumMap<>(Signal.class);
    for (Signal other : Signal.values()) {
      if (other != signal) {
        readerOf(catalog, warehouse, other).ifPresent(s -> others.put(other, s));
      }
    }
    others.forEach(
        (other, s) -> link(signal, other).ifPresent(f -> source.put(f, s.get("id").asText())));
    Optional<ObjectNode> created = catalog.provision(warehouse, DATABASE, tables, source);
    if (created.isEmpty()) {
      return;
    }
    String id = created.get().get("id").asText();
    others.forEach(
        (other, s) ->
            link(other, signal)
                .filter(f -> !s.hasNonNull(f))
                .ifPresent(
                    f -> {
                      ObjectNode linked = s.deepCopy();
                      linked.put(f, id);
                      catalog.replaceSource(
                          warehouse, s.get("id").asText(), linked, SourceApi.CLOUD);
                    }));
  }

  /** The source of a signal's first table, if any. */
  private static Optional<ObjectNode> readerOf(Catalog catalog, String warehouse, Signal signal) {
    return catalog.sourceReading(warehouse, DATABASE, signal.tables().get(0).tableName());
  }

  /** The field of a {@code from} source that names a source of the {@code to} signal. */
  private static Optional<String> link(Signal from, Signal to) {
    return switch (from) {
      case LOGS -> Optional.of(to == Signal.TRACES ? "traceSourceId" : "metricSourceId");
      case TRACES -> Optional.of(to == Signal.LOGS ? "logSourceId" : "metricSourceId");
      case METRICS -> to == Signal.LOGS ? Optional.of("logSourceId") : Optional.empty();
    };
  }

  /** A table's definition, as a {@code PUT /api/v2/tables/...} body. */
  static ObjectNode definition(ObjectMapper mapper, OtelTable t) {
    ObjectNode d = mapper.createObjectNode();
    d.put("timestampColumn", t.timestampColumn());
    d.put("implicitColumn", t.implicitColumn());
    d.put("bodyColumn", t.bodyColumn());
    var columns = d.putArray("columns");
    for (ColumnSpec c : t.columns()) {
      columns.addObject().put("name", c.name()).put("type", c.type().wireName());
    }
    return d;
  }

  /**
   * The source HyperDX would set up for the ClickHouse exporter's table of a signal.
   *
   * @param mapper builds the definition
   * @param signal the signal
   * @return the definition, as a create-source body (reading {@code default.otel_*})
   */
  public static ObjectNode source(ObjectMapper mapper, Signal signal) {
    ObjectNode s = mapper.createObjectNode();
    ObjectNode from = mapper.createObjectNode().put("databaseName", DATABASE);
    switch (signal) {
      case LOGS -> {
        s.put("name", "Logs").put("kind", "log");
        s.set("from", from.put("tableName", OtelTable.LOGS.tableName()));
        s.put("timestampValueExpression", "Timestamp");
        s.put("displayedTimestampValueExpression", "Timestamp");
        s.put("defaultTableSelectExpression", "Timestamp, ServiceName, SeverityText, Body");
        s.put("serviceNameExpression", "ServiceName");
        s.put("severityTextExpression", "SeverityText");
        s.put("bodyExpression", "Body");
        s.put("eventAttributesExpression", "LogAttributes");
        s.put("resourceAttributesExpression", "ResourceAttributes");
        s.put("traceIdExpression", "TraceId");
        s.put("spanIdExpression", "SpanId");
        s.put("implicitColumnExpression", "Body");
      }
      case TRACES -> {
        s.put("name", "Traces").put("kind", "trace");
        s.set("from", from.put("tableName", OtelTable.TRACES.tableName()));
        s.put("timestampValueExpression", "Timestamp");
        s.put(
            "defaultTableSelectExpression",
            "Timestamp, ServiceName, StatusCode, round(Duration / 1e6), SpanName");
        s.put("serviceNameExpression", "ServiceName");
        s.put("eventAttributesExpression", "SpanAttributes");
        s.put("resourceAttributesExpression", "ResourceAttributes");
        s.put("traceIdExpression", "TraceId");
        s.put("spanIdExpression", "SpanId");
        s.put("implicitColumnExpression", "SpanName");
        s.put("durationExpression", "Duration");
        s.put("durationPrecision", 9);
        s.put("parentSpanIdExpression", "ParentSpanId");
        s.put("spanKindExpression", "SpanKind");
        s.put("spanNameExpression", "SpanName");
        s.put("statusCodeExpression", "StatusCode");
        s.put("statusMessageExpression", "StatusMessage");
        s.put("spanEventsValueExpression", "Events");
      }
      case METRICS -> {
        s.put("name", "Metrics").put("kind", "metric");
        s.set("from", from);
        s.put("timestampValueExpression", "TimeUnix");
        ObjectNode metricTables = s.putObject("metricTables");
        for (OtelTable t : OtelTable.metricTables()) {
          metricTables.put(t.metricType(), t.tableName());
        }
        s.put("resourceAttributesExpression", "ResourceAttributes");
      }
    }
    return s;
  }
}
