package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Source;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.security.OutboundPolicy;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sources and tables of every warehouse, and the engine sources that hold the tables' events. A
 * ClickStack source reads one table ({@code from}); creating or replacing a source creates its
 * table when there is none. Deleting a source keeps its table and events (as dropping a ClickStack
 * source keeps its ClickHouse table); a table is deleted on its own, once no source reads it, or
 * with its warehouse. A stored source carries its warehouse ({@code _warehouseId}) and the id of
 * its table ({@code _tableId}, which is also the id of the engine source).
 */
public final class Catalog implements AutoCloseable {
  /** The database of a table a source names without one. */
  public static final String DEFAULT_DATABASE = "default";

  private final JsonStore sources;
  private final Tables tables;
  private final EngineTables engineTables;
  private final SourceBinding binding;
  private final Connections connections;
  private final ExternalSources external;
  private final Engine engine;
  private final Clock clock;
  private final java.security.SecureRandom random = new java.security.SecureRandom();

  private Catalog(
      JsonStore sources,
      Tables tables,
      Connections connections,
      Engine engine,
      ObjectMapper mapper,
      Clock clock,
      OutboundPolicy outbound) {
    this.sources = sources;
    this.tables = tables;
    this.connections = connections;
    this.external = new ExternalSources(connections, outbound);
    this.engine = engine;
    this.clock = clock;
    this.engineTables = new EngineTables(tables, engine, mapper, clock, this::readersOf);
    this.binding =
        new SourceBinding(sources, tables, engineTables, connections, external, this::newId);
  }

  /**
   * Opens the stores, migrates sources stored before tables existed, and reconciles the engine with
   * the tables.
   *
   * @param dataDir the data directory
   * @param engine the engine holding the events
   * @param mapper JSON codec
   * @param clock time source
   * @param shared whether the engine belongs to the application (an embedded server): its sources
   *     are never dropped, and those no table lists can be {@linkplain #adoptEngineSource adopted}
   * @param outbound which addresses external ClickHouse connections may reach
   * @param secrets the server's key, which encrypts stored connection passwords
   * @return the catalog
   * @throws IOException when a store cannot be opened
   */
  public static Catalog open(
      Path dataDir,
      Engine engine,
      ObjectMapper mapper,
      Clock clock,
      boolean shared,
      OutboundPolicy outbound,
      Secrets secrets)
      throws IOException {
    Tables tables = Tables.open(dataDir, mapper);
    JsonStore sources = null;
    Connections connections = null;
    try {
      sources = JsonStore.open(dataDir, Collection.SOURCES, mapper);
      connections = Connections.open(dataDir, mapper, clock, secrets);
      LegacySources.migrate(sources, tables, mapper);
      tables.reconcile(engine, shared);
      return new Catalog(sources, tables, connections, engine, mapper, clock, outbound);
    } catch (IOException | RuntimeException e) {
      if (connections != null) {
        connections.close();
      }
      if (sources != null) {
        sources.close();
      }
      tables.close();
      throw e;
    }
  }

  // ------------------------------------------------------------------ sources

  /**
   * @param warehouse a warehouse
   * @return its sources, oldest first
   */
  public List<ObjectNode> sources(String warehouse) {
    return sources(warehouse, SourceApi.CLOUD);
  }

  /**
   * @param warehouse a warehouse
   * @param api the API that shows them
   * @return its sources, oldest first
   */
  public List<ObjectNode> sources(String warehouse, SourceApi api) {
    return sources.list(s -> s.path("_warehouseId").asText().equals(warehouse)).stream()
        .map(s -> sourceView(s, api))
        .toList();
  }

  /**
   * @param warehouse the warehouse of the caller
   * @param id a source id
   * @param api the API that shows it
   * @return the source
   * @throws ApiException 404 when the warehouse has no such source
   */
  public ObjectNode source(String warehouse, String id, SourceApi api) {
    return sourceView(storedSource(warehouse, id), api);
  }

  /**
   * @param warehouse the warehouse of the caller
   * @param id a source id
   * @return its id and the times it was created and last updated, which the document's shape of
   *     sources has no place for (sources migrated from an earlier version: both their creation)
   * @throws ApiException 404 when the warehouse has no such source
   */
  public Map<String, Object> sourceTimestamps(String warehouse, String id) {
    ObjectNode s = storedSource(warehouse, id);
    return Map.of(
        "id",
        id,
        "createdAt",
        s.get("createdAt").asText(),
        "updatedAt",
        s.get("updatedAt").asText());
  }

  /**
   * @param sourceId a source id
   * @return the warehouse it belongs to, if it exists
   */
  public Optional<String> warehouseOf(String sourceId) {
    return sources.get(sourceId).map(s -> s.path("_warehouseId").asText());
  }

  /**
   * @param warehouse the warehouse of the caller
   * @param sourceId a source id
   * @return the engine source holding the events of the table the source reads, if the warehouse
   *     has the source
   */
  public Optional<Source> engineSourceOf(String warehouse, String sourceId) {
    return sources
        .get(sourceId)
        .filter(s -> s.path("_warehouseId").asText().equals(warehouse))
        .flatMap(s -> engine.source(s.path("_tableId").asText()));
  }

  /**
   * @param warehouse the warehouse of the caller
   * @param sourceId a source id
   * @return how the ClickHouse backend reads the source, if the warehouse has it and it reads a
   *     table of an external ClickHouse connection
   */
  public Optional<ClickHouseBackend.Bound> clickHouseSourceOf(String warehouse, String sourceId) {
    return sources
        .get(sourceId)
        .filter(s -> s.path("_warehouseId").asText().equals(warehouse))
        .flatMap(s -> external.bound(warehouse, s));
  }

  /**
   * @param warehouse the warehouse of the caller
   * @param sourceId a metric source of it
   * @param type a metric data type ({@link MetricTables#TYPES})
   * @return the engine source of the table the source names for that type, if it names one and the
   *     table exists
   */
  public Optional<Source> engineMetricTableOf(String warehouse, String sourceId, String type) {
    ObjectNode s = storedSource(warehouse, sourceId);
    String name = MetricTables.named(s).get(type);
    return name == null
        ? Optional.empty()
        : tables
            .find(warehouse, s.path("from").path("databaseName").asText(), name)
            .flatMap(t -> engine.source(t.get("id").asText()));
  }

  /**
   * @param warehouse the warehouse
   * @param body the definition ({@code ClickStackSource})
   * @return the new source
   */
  public ObjectNode createSource(String warehouse, JsonNode body) {
    return createSource(warehouse, body, SourceApi.CLOUD);
  }

  /**
   * @param warehouse the warehouse
   * @param body the definition
   * @param api the API the request came through
   * @return the new source, as that API shows it
   */
  public synchronized ObjectNode createSource(String warehouse, JsonNode body, SourceApi api) {
    String now = now();
    return saveSource(binding.checked(warehouse, body, newId(), now, now), api);
  }

  /**
   * Replaces a source (the whole definition); its id and creation time stay, without {@code from}
   * it keeps reading its table, and the stored fields the API it came through does not show stay.
   *
   * @param warehouse the warehouse
   * @param id the source
   * @param body the new definition
   * @param api the API the request came through
   * @return the source, as that API shows it
   */
  public synchronized ObjectNode replaceSource(
      String warehouse, String id, JsonNode body, SourceApi api) {
    ObjectNode old = storedSource(warehouse, id);
    if (body.isObject()) {
      ObjectNode b = ((ObjectNode) body).deepCopy();
      if (!b.has("from") && old.has("from")) {
        // A replacement that names no table keeps reading the one it read.
        b.set("from", old.get("from"));
      }
      for (String hidden : api.hidden()) {
        if (!b.has(hidden) && old.has(hidden)) {
          b.set(hidden, old.get(hidden));
        }
      }
      body = b;
    }
    return saveSource(
        binding.checked(warehouse, body, id, old.get("createdAt").asText(), now()), api);
  }

  /**
   * Deletes a source. Its table and the table's events stay.
   *
   * @param warehouse the warehouse
   * @param id the source
   */
  public synchronized void deleteSource(String warehouse, String id) {
    storedSource(warehouse, id);
    sources.remove(id);
  }

  private ObjectNode saveSource(ObjectNode s, SourceApi api) {
    sources.put(s.get("id").asText(), s);
    return sourceView(s, api);
  }

  private ObjectNode storedSource(String warehouse, String id) {
    return sources
        .get(id)
        .filter(s -> s.path("_warehouseId").asText().equals(warehouse))
        .orElseThrow(() -> ApiException.notFound("source " + id + " does not exist"));
  }

  /**
   * @param s a stored source
   * @param api the API that shows it
   * @return the source as that API's document has it: no internal fields, no timestamps, none of
   *     the other document's fields
   */
  static ObjectNode sourceView(ObjectNode s, SourceApi api) {
    ObjectNode v = s.deepCopy();
    v.remove(
        List.of("_warehouseId", "_tableId", "createdAt", "updatedAt", ExternalSources.COLUMNS));
    v.remove(api.hidden());
    return v;
  }

  /**
   * @param warehouse a warehouse
   * @param database a database name
   * @param table a table name
   * @return the source that reads that table (the oldest, when several do), if any, in the Cloud
   *     API's shape
   */
  public Optional<ObjectNode> sourceReading(String warehouse, String database, String table) {
    return tables
        .find(warehouse, database, table)
        .flatMap(this::readerOf)
        .map(s -> sourceView(s, SourceApi.CLOUD));
  }

  // ------------------------------------------------------------------ tables

  /**
   * A table to create if the warehouse does not have it.
   *
   * @param name the table name
   * @param kind the source kind it is made for ({@code log}, {@code trace}, {@code metric})
   * @param definition its definition, as a {@code PUT /api/v2/tables/...} body
   */
  public record NewTable(String name, String kind, ObjectNode definition) {}

  /**
   * Creates the tables of a database the warehouse does not have yet, and, when the first of them
   * is created now, a source that reads it: what a first write of a kind of data sets up. Tables
   * that exist are left as they are, whatever their definition.
   *
   * @param warehouse the warehouse
   * @param database the database of the tables
   * @param newTables the tables, the one the source reads first
   * @param source the source to create with the first table
   * @return the source, when it was created now
   */
  public synchronized Optional<ObjectNode> provision(
      String warehouse, String database, List<NewTable> newTables, JsonNode source) {
    return engineTables.provision(warehouse, database, newTables)
        ? Optional.of(createSource(warehouse, source))
        : Optional.empty();
  }

  /**
   * @param warehouse a warehouse
   * @param database a database name
   * @param table a table name
   * @return the engine source holding the table's events, if the warehouse has the table
   */
  public Optional<Source> engineTable(String warehouse, String database, String table) {
    return tables
        .find(warehouse, database, table)
        .flatMap(t -> engine.source(t.get("id").asText()));
  }

  /**
   * @param tableId a table id (the id of its engine source)
   * @return the warehouse the table belongs to, if it is a table
   */
  public Optional<String> warehouseOfTable(String tableId) {
    return tables.get(tableId).map(t -> t.path("_warehouseId").asText(null));
  }

  /**
   * @return the engine's sources that no table lists: made by the application that shares its
   *     engine with an embedded server
   */
  public List<Source> unlistedEngineSources() {
    return engine.sources().stream().filter(s -> tables.get(s.id()).isEmpty()).toList();
  }

  /**
   * Lists an engine source the application made as a table of the warehouse, named after the
   * source's id, with the source's definition, so that ClickStack sources can read it. The table is
   * marked as the application's: its definition cannot be changed through the API, and deleting it
   * (or its warehouse) only unlists it, never dropping the application's source or events.
   *
   * @param warehouse the warehouse
   * @param database the database of the table
   * @param source the engine source
   * @return the table, when it was listed now: not when a table lists the source already, another
   *     table has that name, or the name is not one a table can have
   */
  public synchronized Optional<ObjectNode> adoptEngineSource(
      String warehouse, String database, Source source) {
    return engineTables.adopt(warehouse, database, source);
  }

  /**
   * @param warehouse a warehouse
   * @return its tables, oldest first
   */
  public List<ObjectNode> tables(String warehouse) {
    return tables.list(warehouse).stream().map(engineTables::view).toList();
  }

  /**
   * @param warehouse the warehouse
   * @param database a database name
   * @param table a table name
   * @return the table, with its columns and how many events it holds
   * @throws ApiException 404 when the warehouse has no such table
   */
  public ObjectNode table(String warehouse, String database, String table) {
    return engineTables.view(engineTables.stored(warehouse, database, table));
  }

  /**
   * Declares a table ({@code PUT}): creates it, or changes its definition. Fields left out keep
   * their value (a new table: timestamp column {@code Timestamp}, no implicit or body column, no
   * declared columns). A table's definition changes only while it holds no events, and its
   * timestamp and implicit columns only while no source reads it.
   *
   * @param warehouse the warehouse
   * @param database the database name
   * @param table the table name
   * @param body the definition
   * @return the table
   * @throws ApiException 409 when the change is not possible now
   */
  public synchronized ObjectNode declareTable(
      String warehouse, String database, String table, JsonNode body) {
    return engineTables.declare(warehouse, database, table, body);
  }

  /**
   * Deletes a table and its events.
   *
   * @param warehouse the warehouse
   * @param database the database name
   * @param table the table name
   * @throws ApiException 404 when there is no such table, 409 while a source reads it
   */
  public synchronized void deleteTable(String warehouse, String database, String table) {
    engineTables.delete(warehouse, database, table);
  }

  /**
   * Deletes every source and table of a warehouse, and their events (its last service is gone).
   *
   * @param warehouse the warehouse
   */
  public synchronized void dropWarehouse(String warehouse) {
    connections.dropWarehouse(warehouse);
    for (ObjectNode s : sources.list(s -> s.path("_warehouseId").asText().equals(warehouse))) {
      sources.remove(s.get("id").asText());
    }
    engineTables.dropWarehouse(warehouse);
  }

  /** The oldest source reading a table (the store lists in no particular order). */
  private Optional<ObjectNode> readerOf(ObjectNode table) {
    return readersOf(table).stream().min(JsonStore.OLDEST_FIRST);
  }

  /** Every source reading a table, by name (and id), so that messages naming them are stable. */
  private List<ObjectNode> readersOf(ObjectNode table) {
    String id = table.get("id").asText();
    String warehouse = table.path("_warehouseId").asText();
    return sources
        .list(
            s ->
                s.path("_tableId").asText().equals(id)
                    || (s.path("_warehouseId").asText().equals(warehouse)
                        && MetricTables.reads(s, table)))
        .stream()
        .sorted(
            Comparator.comparing((ObjectNode s) -> s.path("name").asText())
                .thenComparing(s -> s.get("id").asText()))
        .toList();
  }

  private String now() {
    return EngineTables.now(clock);
  }

  private String newId() {
    byte[] b = new byte[12];
    random.nextBytes(b);
    return java.util.HexFormat.of().formatHex(b);
  }

  // ------------------------------------------------------------------ connections

  /**
   * @return the connections of every warehouse
   */
  public Connections connections() {
    return connections;
  }

  /**
   * Deletes a connection that no source of its warehouse reads through.
   *
   * @param warehouse the warehouse
   * @param id the connection
   */
  public synchronized void deleteConnection(String warehouse, String id) {
    connections.delete(
        warehouse,
        id,
        c ->
            !sources
                .list(
                    s ->
                        s.path("_warehouseId").asText().equals(warehouse)
                            && s.path("connection").asText().equals(c))
                .isEmpty());
  }

  @Override
  public void close() {
    connections.close();
    sources.close();
    tables.close();
  }
}
