package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.validation.Problems;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The tables of the {@link Catalog} together with the engine sources that hold their events: a
 * table is made, redefined, adopted and deleted here with its engine source, and shown with what
 * the engine knows of it (columns learnt, rows held). A table's definition changes only while it
 * holds no events, and a table an application adopted keeps its source and events when it is
 * deleted.
 *
 * <p>Kept apart from the catalog, which owns the sources, because the tables and the engine are
 * kept in step by rules of their own. Which sources read a table is the catalog's to say (passed
 * in), and every call is made under the catalog's lock, so that a source and the table it reads
 * change together.
 */
final class EngineTables {
  /** Marks a stored table that lists a source of the application embedding the server. */
  private static final String ADOPTED = "_adopted";

  private final Tables tables;
  private final Engine engine;
  private final ObjectMapper mapper;
  private final Clock clock;
  private final Function<ObjectNode, List<ObjectNode>> readersOf;

  /**
   * @param tables the table store
   * @param engine the engine holding the tables' events
   * @param mapper JSON codec
   * @param clock time source
   * @param readersOf every source reading a table, in a stable order
   */
  EngineTables(
      Tables tables,
      Engine engine,
      ObjectMapper mapper,
      Clock clock,
      Function<ObjectNode, List<ObjectNode>> readersOf) {
    this.tables = tables;
    this.engine = engine;
    this.mapper = mapper;
    this.clock = clock;
    this.readersOf = readersOf;
  }

  /**
   * Creates the tables of {@link Catalog#provision} the warehouse does not have yet.
   *
   * @return whether the first of them was created now
   */
  boolean provision(String warehouse, String database, List<Catalog.NewTable> newTables) {
    boolean firstCreated = false;
    for (int i = 0; i < newTables.size(); i++) {
      Catalog.NewTable n = newTables.get(i);
      if (tables.find(warehouse, database, n.name()).isPresent()) {
        continue;
      }
      Problems p = new Problems();
      TableRules.DECLARE.checkBody(n.definition(), p);
      ObjectNode t = blank(warehouse, database, n.name(), n.kind());
      n.definition().fields().forEachRemaining(f -> t.set(f.getKey(), f.getValue()));
      TableRules.checkColumns(t, p);
      p.throwIfAny();
      create(t);
      firstCreated |= i == 0;
    }
    return firstCreated;
  }

  /** {@link Catalog#adoptEngineSource}. */
  Optional<ObjectNode> adopt(String warehouse, String database, Source source) {
    if (tables.get(source.id()).isPresent()) {
      return Optional.empty(); // listed meanwhile (a table the server itself just created)
    }
    String name = source.id();
    Problems p = new Problems();
    p.name("tableName", name);
    if (!p.isEmpty() || tables.find(warehouse, database, name).isPresent()) {
      return Optional.empty();
    }
    SourceSpec spec = source.spec();
    ObjectNode t = blank(warehouse, database, name, spec.kind().wireName());
    t.put("timestampColumn", spec.timestampColumn());
    t.put("implicitColumn", spec.implicitColumn());
    t.put("bodyColumn", spec.bodyColumn());
    var columns = t.putArray("columns");
    spec.columns()
        .forEach(c -> columns.addObject().put("name", c.name()).put("type", c.type().wireName()));
    t.put("id", source.id());
    t.put("createdAt", now(clock));
    t.put(ADOPTED, true);
    tables.put(t);
    return Optional.of(t);
  }

  /** {@link Catalog#declareTable}. */
  ObjectNode declare(String warehouse, String database, String table, JsonNode body) {
    Problems p = new Problems();
    TableRules.DECLARE.checkBody(body, p);
    p.name("databaseName", database);
    p.name("tableName", table);
    p.throwIfAny();
    Optional<ObjectNode> existing = tables.find(warehouse, database, table);
    ObjectNode t =
        existing
            .map(ObjectNode::deepCopy)
            .orElseGet(() -> blank(warehouse, database, table, "log"));
    body.fields().forEachRemaining(f -> t.set(f.getKey(), f.getValue()));
    TableRules.checkColumns(t, p);
    p.throwIfAny();
    if (existing.isEmpty()) {
      return view(create(t));
    }
    SourceSpec before = Tables.spec(existing.get());
    SourceSpec after = Tables.spec(t);
    if (before.equals(after)) {
      return view(existing.get());
    }
    String id = t.get("id").asText();
    boolean bindingChanged =
        !before.timestampColumn().equals(after.timestampColumn())
            || !java.util.Objects.equals(before.implicitColumn(), after.implicitColumn());
    List<ObjectNode> readers = readersOf.apply(existing.get());
    if (bindingChanged && !readers.isEmpty()) {
      throw ApiException.conflict(
          "table "
              + Tables.qualifiedName(t)
              + " is read by "
              + describe(readers)
              + ", which "
              + (readers.size() == 1 ? "uses" : "use")
              + " its timestamp and implicit columns; change or delete "
              + (readers.size() == 1 ? "that source" : "those sources")
              + " first");
    }
    if (existing.get().path(ADOPTED).asBoolean(false)) {
      throw ApiException.conflict(
          "table "
              + Tables.qualifiedName(t)
              + " is a source of the application that embeds this server; its definition is the"
              + " application's");
    }
    long rows = engine.source(id).map(s -> s.stats().rows()).orElse(0L);
    if (rows > 0) {
      throw ApiException.conflict(
          "table "
              + Tables.qualifiedName(t)
              + " holds "
              + rows
              + " events; its definition is fixed once it holds events (delete the table to start"
              + " over)");
    }
    engine.dropSource(id);
    engine.createSource(after);
    tables.put(t);
    return view(t);
  }

  /** {@link Catalog#deleteTable}. */
  void delete(String warehouse, String database, String table) {
    ObjectNode t = stored(warehouse, database, table);
    String id = t.get("id").asText();
    List<ObjectNode> readers = readersOf.apply(t);
    if (!readers.isEmpty()) {
      throw ApiException.conflict(
          "table "
              + Tables.qualifiedName(t)
              + " is read by "
              + describe(readers)
              + "; delete "
              + (readers.size() == 1 ? "that source" : "those sources")
              + " first");
    }
    tables.remove(id);
    if (!t.path(ADOPTED).asBoolean(false)) {
      engine.dropSource(id);
    }
  }

  /** Deletes every table of a warehouse, and the events of those that are not adopted. */
  void dropWarehouse(String warehouse) {
    for (ObjectNode t : tables.list(warehouse)) {
      tables.remove(t.get("id").asText());
      if (!t.path(ADOPTED).asBoolean(false)) {
        engine.dropSource(t.get("id").asText());
      }
    }
  }

  /**
   * Creates the table a new source names, from the source's definition.
   *
   * @return the table
   */
  ObjectNode createFor(String warehouse, String database, String table, ObjectNode source) {
    ObjectNode t = blank(warehouse, database, table, source.get("kind").asText());
    t.put("timestampColumn", source.get("timestampValueExpression").asText());
    t.put("bodyColumn", source.path("bodyExpression").textValue());
    t.put("implicitColumn", source.path("implicitColumnExpression").textValue());
    return create(t);
  }

  private ObjectNode blank(String warehouse, String database, String table, String kind) {
    ObjectNode t = mapper.createObjectNode();
    t.put("databaseName", database);
    t.put("tableName", table);
    t.put("timestampColumn", "Timestamp");
    t.putNull("implicitColumn");
    t.putNull("bodyColumn");
    t.putArray("columns");
    t.put("_warehouseId", warehouse);
    t.put("_kind", kind);
    return t;
  }

  private ObjectNode create(ObjectNode t) {
    t.put("id", engine.createSource(Tables.spec(t)).id());
    t.put("createdAt", now(clock));
    try {
      tables.put(t);
    } catch (RuntimeException e) {
      engine.dropSource(t.get("id").asText());
      throw e;
    }
    return t;
  }

  /** "source ID ('name')" or "sources ID ('name'), ID ('name')". */
  private static String describe(List<ObjectNode> sources) {
    StringBuilder out = new StringBuilder(sources.size() == 1 ? "source " : "sources ");
    for (int i = 0; i < sources.size(); i++) {
      ObjectNode s = sources.get(i);
      out.append(i == 0 ? "" : ", ")
          .append(s.get("id").asText())
          .append(" ('")
          .append(s.path("name").asText())
          .append("')");
    }
    return out.toString();
  }

  ObjectNode stored(String warehouse, String database, String table) {
    return tables
        .find(warehouse, database, table)
        .orElseThrow(
            () -> ApiException.notFound("table " + database + "." + table + " does not exist"));
  }

  /**
   * @param t a stored table
   * @return its public view: definition, every column the engine knows with its type (declared or
   *     learnt from the first value written), and how many events it holds
   */
  ObjectNode view(ObjectNode t) {
    ObjectNode v = t.deepCopy();
    v.remove(List.of("_warehouseId", "_kind", ADOPTED));
    Optional<Source> source = engine.source(t.get("id").asText());
    var schema = v.putArray("schema");
    schema.addObject().put("name", t.get("timestampColumn").asText()).put("type", "timestamp");
    for (ColumnSpec c : source.map(Source::columns).orElse(List.of())) {
      schema.addObject().put("name", c.name()).put("type", c.type().wireName());
    }
    v.put("rows", source.map(s -> s.stats().rows()).orElse(0L));
    return v;
  }

  /**
   * @param clock a time source
   * @return its time now, to the millisecond, as stored in tables and sources
   */
  static String now(Clock clock) {
    return Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
  }
}
