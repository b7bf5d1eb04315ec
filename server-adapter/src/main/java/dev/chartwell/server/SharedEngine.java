package dev.chartwell.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.otlp.OtelSources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An embedded server over an engine the application holds: its one service, and the application's
 * own engine sources made visible to the UI. The service (named as the application says, {@code
 * embedded} by default) is created on the first start and started when found stopped. Engine
 * sources no table lists (what the logging and metrics integrations created, or the application
 * itself) are adopted into the service's warehouse as tables named after their ids, in the {@code
 * default} database, and given ClickStack sources: {@code otel_logs} the {@code Logs} source,
 * {@code otel_traces} the {@code Traces} source, the {@code otel_metrics_*} tables one {@code
 * Metrics} source, as an OTLP write would set them up; any other log source a log source with its
 * name.
 */
final class SharedEngine {
  private static final String DATABASE = Catalog.DEFAULT_DATABASE;

  private final Catalog catalog;
  private final ObjectMapper mapper;
  private final String warehouse;
  private final Consumer<String> warnings;

  private SharedEngine(
      Catalog catalog, ObjectMapper mapper, String warehouse, Consumer<String> warnings) {
    this.catalog = catalog;
    this.mapper = mapper;
    this.warehouse = warehouse;
    this.warnings = warnings;
  }

  static SharedEngine of(
      Catalog catalog, ObjectMapper mapper, String warehouse, Consumer<String> warnings) {
    return new SharedEngine(catalog, mapper, warehouse, warnings);
  }

  /**
   * Adopts the engine sources no table lists, and gives them ClickStack sources.
   *
   * @return how many were adopted
   */
  synchronized int adopt() {
    List<Source> unlisted = catalog.unlistedEngineSources();
    if (unlisted.isEmpty()) {
      return 0;
    }
    int n = 0;
    Map<String, String> metricTables = new LinkedHashMap<>();
    List<Source> adopted = new ArrayList<>();
    for (Source s : unlisted) {
      if (catalog.adoptEngineSource(warehouse, DATABASE, s).isEmpty()) {
        continue;
      }
      n++;
      adopted.add(s);
    }
    for (Source s : adopted) {
      String table = s.id();
      if (catalog.sourceReading(warehouse, DATABASE, table).isPresent()) {
        continue;
      }
      Optional<OtelTable> otel = otelTable(table);
      if (otel.isPresent() && otel.get().metricType() != null) {
        metricTables.put(otel.get().metricType(), table);
      } else if (otel.isPresent() && otel.get() == OtelTable.LOGS) {
        create(OtelSources.source(mapper, Signal.LOGS), table);
      } else if (otel.isPresent() && otel.get() == OtelTable.TRACES) {
        create(OtelSources.source(mapper, Signal.TRACES), table);
      } else if (s.spec().kind() == SourceKind.LOG) {
        create(plain(s.spec(), table), table);
      }
    }
    if (!metricTables.isEmpty()) {
      ObjectNode metrics = OtelSources.source(mapper, Signal.METRICS);
      ObjectNode named = metrics.putObject("metricTables");
      metricTables.forEach(named::put);
      create(metrics, String.join(", ", metricTables.values()));
    }
    return n;
  }

  /** A source the table's definition does not allow stays uncreated; the table is listed. */
  private void create(ObjectNode source, String table) {
    try {
      catalog.createSource(warehouse, source);
    } catch (RuntimeException e) {
      warnings.accept("no source was made for the table " + table + ": " + e.getMessage());
    }
  }

  private static Optional<OtelTable> otelTable(String table) {
    for (OtelTable t : OtelTable.values()) {
      if (t.tableName().equals(table)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** A log source reading the table, with the engine source's name. */
  private ObjectNode plain(SourceSpec spec, String table) {
    ObjectNode s = mapper.createObjectNode();
    s.put("name", spec.name());
    s.put("kind", "log");
    s.set("from", mapper.createObjectNode().put("databaseName", DATABASE).put("tableName", table));
    s.put("timestampValueExpression", spec.timestampColumn());
    if (spec.bodyColumn() != null) {
      s.put("bodyExpression", spec.bodyColumn());
    }
    if (spec.implicitColumn() != null) {
      s.put("implicitColumnExpression", spec.implicitColumn());
    }
    return s;
  }
}
