package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.validation.Problems;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Checks a source definition for the {@link Catalog} and binds it to the table it reads: a table of
 * the engine (whose columns the source must fit, made when there is none) or a table of an external
 * ClickHouse connection (whose columns are read there). A source that is refused leaves nothing
 * behind: its tables are made last, once nothing can refuse it any more.
 *
 * <p>Kept apart from the catalog, which stores and shows sources, because binding has rules of its
 * own: the source's own fields ({@link SourceRules}), its connection, the sources it names, and the
 * tables it reads ({@link TableRules}). Every call is made under the catalog's lock.
 */
final class SourceBinding {
  private final JsonStore sources;
  private final Tables tables;
  private final EngineTables engineTables;
  private final Connections connections;
  private final ExternalSources external;
  private final Supplier<String> newId;

  /**
   * @param sources the stored sources, which a source may name
   * @param tables the table store
   * @param engineTables makes the tables a new source names
   * @param connections the warehouses' connections
   * @param external binds sources on external ClickHouse connections
   * @param newId a new random id
   */
  SourceBinding(
      JsonStore sources,
      Tables tables,
      EngineTables engineTables,
      Connections connections,
      ExternalSources external,
      Supplier<String> newId) {
    this.sources = sources;
    this.tables = tables;
    this.engineTables = engineTables;
    this.connections = connections;
    this.external = external;
    this.newId = newId;
  }

  /**
   * Checks a source, binds it to its table and makes it ready to store, creating its table (last,
   * once nothing can refuse the source any more) when there is none.
   */
  ObjectNode checked(
      String warehouse, JsonNode body, String id, String createdAt, String updatedAt) {
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    ObjectNode s = ((ObjectNode) body).deepCopy();
    Problems p = new Problems();
    SourceRules.check(s, p);
    if (p.isEmpty()) {
      connections.checkUsable(warehouse, "connection", s.get("connection").textValue(), p);
    }
    p.throwIfAny();
    if (external.isExternal(warehouse, s.get("connection").textValue())) {
      return checkedExternalSource(warehouse, s, id, createdAt, updatedAt);
    }
    if (!s.has("from")) {
      ObjectNode from = s.putObject("from");
      from.put("databaseName", Catalog.DEFAULT_DATABASE);
      from.put("tableName", s.get("name").textValue());
    }
    checkReferences(warehouse, s, id, p);
    String database = s.get("from").get("databaseName").textValue();
    String table = SourceRules.tableName(s);
    Optional<ObjectNode> existing =
        table == null ? Optional.empty() : tables.find(warehouse, database, table);
    if (table == null) {
      p.add("from.tableName", "is required when metricTables names no table");
    } else if (existing.isPresent()) {
      TableRules.bind(s, existing.get(), p);
    }
    SourceRules.fillDefaults(s, existing.isEmpty());
    if (existing.isEmpty()
        && s.path("implicitColumnExpression")
            .asText("")
            .equals(s.get("timestampValueExpression").asText())) {
      p.add("implicitColumnExpression", "cannot be the timestamp column");
    }
    for (String other : MetricTables.named(s).values()) {
      tables
          .find(warehouse, database, other)
          .filter(t -> !other.equals(table))
          .ifPresent(t -> TableRules.bind(s.deepCopy(), t, p));
    }
    p.throwIfAny();
    stamp(s, warehouse, id, createdAt, updatedAt);
    s.put("_tableId", existing.map(t -> t.get("id").asText()).orElseGet(newId));
    // Measured before a new table is made, so that a source too large to store leaves nothing.
    checkSize(s);
    if (existing.isEmpty()) {
      s.put("_tableId", engineTables.createFor(warehouse, database, table, s).get("id").asText());
    }
    for (String other : MetricTables.named(s).values()) {
      if (tables.find(warehouse, database, other).isEmpty()) {
        engineTables.createFor(warehouse, database, other, s);
      }
    }
    return s;
  }

  /** A source on an external ClickHouse connection: its table is read there, never created. */
  private ObjectNode checkedExternalSource(
      String warehouse, ObjectNode s, String id, String createdAt, String updatedAt) {
    Problems p = new Problems();
    s.remove(ExternalSources.COLUMNS);
    SourceRules.fillDefaults(s, true);
    checkReferences(warehouse, s, id, p);
    p.throwIfAny();
    external.bind(warehouse, s, p);
    p.throwIfAny();
    stamp(s, warehouse, id, createdAt, updatedAt);
    checkSize(s);
    return s;
  }

  private void checkReferences(String warehouse, ObjectNode s, String id, Problems p) {
    for (Map.Entry<String, String> ref :
        SourceRules.references(s.get("kind").textValue()).entrySet()) {
      String other = s.path(ref.getKey()).asText(null);
      if (other != null && !other.equals(id)) {
        String otherKind =
            sources
                .get(other)
                .filter(o -> o.path("_warehouseId").asText().equals(warehouse))
                .map(o -> o.path("kind").asText())
                .orElse(null);
        if (!ref.getValue().equals(otherKind)) {
          p.add(ref.getKey(), "no " + ref.getValue() + " source " + other + " in this service");
        }
      }
    }
  }

  private static void stamp(
      ObjectNode s, String warehouse, String id, String createdAt, String updatedAt) {
    s.put("id", id);
    s.put("createdAt", createdAt);
    s.put("updatedAt", updatedAt);
    s.put("_warehouseId", warehouse);
  }

  private static void checkSize(ObjectNode s) {
    Collection.SOURCES
        .sizeProblem(s.toString())
        .ifPresent(
            tooLarge -> {
              throw new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, tooLarge);
            });
  }
}
