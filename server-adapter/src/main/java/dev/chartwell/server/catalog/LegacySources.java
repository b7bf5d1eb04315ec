package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.store.JsonStore;

/**
 * Migrates sources stored before tables existed. Such a source held its own events and declared its
 * own columns; it becomes a table of the same name in database {@code default} (a name another
 * migrated source of the warehouse already took gets the source id appended), whose id is the
 * source's id, so that the engine source holding its events stays the table's, plus a source of
 * that table with the same id, on the built-in connection. Runs at every start; a migrated source
 * is recognised by its {@code _tableId} and left alone.
 */
final class LegacySources {
  private LegacySources() {}

  static void migrate(JsonStore sources, Tables tables, ObjectMapper mapper) {
    for (ObjectNode s : sources.list(any -> !any.has("_tableId"))) {
      String id = s.get("id").asText();
      String warehouse = s.path("_warehouseId").asText();
      String name = s.path("name").asText(id);
      if (tables.find(warehouse, Catalog.DEFAULT_DATABASE, name).isPresent()) {
        name = name + "_" + id;
      }
      ObjectNode t = mapper.createObjectNode();
      t.put("id", id);
      t.put("databaseName", Catalog.DEFAULT_DATABASE);
      t.put("tableName", name);
      t.put("timestampColumn", s.path("timestampValueExpression").asText("Timestamp"));
      t.put("implicitColumn", s.path("implicitColumnExpression").textValue());
      t.put("bodyColumn", s.path("bodyExpression").textValue());
      t.set("columns", s.has("columns") ? s.get("columns") : mapper.createArrayNode());
      t.put("createdAt", s.path("createdAt").asText());
      t.put("_warehouseId", warehouse);
      t.put("_kind", s.path("kind").asText("log"));
      tables.put(t);

      String createdAt = s.path("createdAt").asText();
      SourceRules.dropForeignFields(s);
      s.put("id", id);
      s.put("connection", Connections.BUILT_IN);
      ObjectNode from = s.putObject("from");
      from.put("databaseName", Catalog.DEFAULT_DATABASE);
      from.put("tableName", name);
      SourceRules.fillDefaults(s, false);
      s.put("createdAt", createdAt);
      s.put("updatedAt", createdAt);
      s.put("_warehouseId", warehouse);
      s.put("_tableId", id);
      sources.put(id, s);
    }
  }
}
