package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The table definitions of every warehouse, durable in Chronicle Map. A table is named by its
 * database and table name within its warehouse; its id is the id of the engine source that holds
 * its events. A stored table carries, besides its public fields, its warehouse ({@code
 * _warehouseId}) and the source kind it was created for ({@code _kind}, which the engine records).
 */
final class Tables implements AutoCloseable {
  private final JsonStore docs;

  private Tables(JsonStore docs) {
    this.docs = docs;
  }

  static Tables open(Path dataDir, ObjectMapper mapper) throws IOException {
    return new Tables(JsonStore.open(dataDir, Collection.TABLES, mapper));
  }

  Optional<ObjectNode> get(String id) {
    return docs.get(id);
  }

  Optional<ObjectNode> find(String warehouse, String database, String table) {
    return list(warehouse).stream()
        .filter(
            t ->
                t.get("databaseName").asText().equals(database)
                    && t.get("tableName").asText().equals(table))
        .findFirst();
  }

  /**
   * @return every table's id to {@code database.table}
   */
  Map<String, String> names() {
    Map<String, String> out = new java.util.HashMap<>();
    for (ObjectNode t : docs.list(any -> true)) {
      out.put(
          t.get("id").asText(),
          t.path("databaseName").asText() + "." + t.path("tableName").asText());
    }
    return out;
  }

  List<ObjectNode> list(String warehouse) {
    return docs.list(t -> t.path("_warehouseId").asText().equals(warehouse));
  }

  void put(ObjectNode table) {
    docs.put(table.get("id").asText(), table);
  }

  void remove(String id) {
    docs.remove(id);
  }

  /**
   * Makes the engine hold exactly the stored tables, with what it kept on disk: a table without an
   * engine source gets an empty one; an engine source that is no table (a create or delete the last
   * process did not finish) is dropped, and so is one whose timestamp, implicit or declared columns
   * differ from the table's (a redefinition it did not finish), which then starts empty.
   *
   * @param engine the engine
   */
  void reconcile(Engine engine) {
    reconcile(engine, false);
  }

  /**
   * As {@link #reconcile(Engine)}, or, for an engine the application shares with an embedded
   * server, without dropping anything: the application's own sources stay (they are listed as
   * tables when found, see {@link Catalog#adoptEngineSource}), and a table whose source differs
   * keeps the application's source as it is.
   *
   * @param engine the engine
   * @param shared whether the engine belongs to the application
   */
  void reconcile(Engine engine, boolean shared) {
    Set<String> ids = new HashSet<>();
    for (ObjectNode t : docs.list(any -> true)) {
      String id = t.get("id").asText();
      ids.add(id);
      SourceSpec spec = spec(t);
      Optional<Source> kept = engine.source(id);
      if (shared && kept.isPresent()) {
        continue;
      }
      if (kept.isPresent() && !sameStorage(kept.get().spec(), spec)) {
        engine.dropSource(id);
        kept = Optional.empty();
      }
      if (kept.isEmpty()) {
        engine.createSource(spec);
      }
    }
    for (Source s : engine.sources()) {
      if (!shared && !ids.contains(s.id())) {
        engine.dropSource(s.id());
      }
    }
  }

  /** Whether events stored under one definition are still right under the other. */
  static boolean sameStorage(SourceSpec before, SourceSpec after) {
    return before.timestampColumn().equals(after.timestampColumn())
        && java.util.Objects.equals(before.implicitColumn(), after.implicitColumn())
        && before.columns().equals(after.columns());
  }

  /**
   * @param t a table
   * @return its engine definition
   */
  static SourceSpec spec(ObjectNode t) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (JsonNode c : t.path("columns")) {
      columns.add(
          new ColumnSpec(
              c.get("name").asText(),
              ColumnType.fromWireName(c.get("type").asText()).orElseThrow()));
    }
    return new SourceSpec(
        t.path("id").asText(null),
        qualifiedName(t),
        SourceKind.fromWireName(t.path("_kind").asText("log")).orElse(SourceKind.LOG),
        t.get("timestampColumn").asText(),
        t.path("bodyColumn").textValue(),
        t.path("implicitColumn").textValue(),
        columns);
  }

  /**
   * @param t a table
   * @return {@code database.table}
   */
  static String qualifiedName(JsonNode t) {
    return t.get("databaseName").asText() + "." + t.get("tableName").asText();
  }

  @Override
  public void close() {
    docs.close();
  }
}
