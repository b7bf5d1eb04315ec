package dev.chartwell.server.clickstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.source.ColumnSpec;
import dev.chartwell.engine.source.ColumnType;
import dev.chartwell.engine.source.SourceKind;
import dev.chartwell.engine.source.SourceSpec;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.validation.Names;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sources of each warehouse: definitions durable in Chronicle Map, each mirrored by an engine
 * source holding its events (in memory). At start every stored definition gets an empty engine
 * source again.
 */
public final class SourceCatalog implements AutoCloseable {
  static final Set<String> FIELDS =
      Set.of(
          "name",
          "kind",
          "timestampValueExpression",
          "bodyExpression",
          "implicitColumnExpression",
          "serviceNameExpression",
          "severityTextExpression",
          "columns");

  static final List<String> EXPRESSIONS =
      List.of(
          "timestampValueExpression",
          "bodyExpression",
          "implicitColumnExpression",
          "serviceNameExpression",
          "severityTextExpression");

  private final JsonStore docs;
  private final Engine engine;
  private final ObjectMapper mapper;
  private final Clock clock;

  private SourceCatalog(JsonStore docs, Engine engine, ObjectMapper mapper, Clock clock) {
    this.docs = docs;
    this.engine = engine;
    this.mapper = mapper;
    this.clock = clock;
  }

  /**
   * @param dataDir the data directory
   * @param engine the engine holding the events
   * @param mapper JSON codec
   * @param clock time source
   * @return the catalog, with an engine source for every stored definition: the one the engine kept
   *     on disk, or a new, empty one; engine sources without a definition (a create or delete the
   *     last process did not finish) are dropped
   * @throws IOException when the store cannot be opened
   */
  public static SourceCatalog open(Path dataDir, Engine engine, ObjectMapper mapper, Clock clock)
      throws IOException {
    SourceCatalog c =
        new SourceCatalog(
            JsonStore.open(dataDir, Collection.SOURCES, mapper), engine, mapper, clock);
    java.util.Set<String> defined = new java.util.HashSet<>();
    for (ObjectNode s : c.docs.list(s -> true)) {
      String id = s.get("id").asText();
      defined.add(id);
      SourceSpec spec = spec(id, s);
      Optional<dev.chartwell.engine.source.Source> kept = engine.source(id);
      if (kept.isPresent() && !sameStorage(kept.get().spec(), spec)) {
        engine.dropSource(id); // a replace the last process did not finish
        kept = Optional.empty();
      }
      if (kept.isEmpty()) {
        engine.createSource(spec);
      }
    }
    for (dev.chartwell.engine.source.Source s : engine.sources()) {
      if (!defined.contains(s.id())) {
        engine.dropSource(s.id());
      }
    }
    return c;
  }

  /**
   * @param warehouseId a warehouse
   * @return its sources, oldest first
   */
  public List<ObjectNode> list(String warehouseId) {
    return docs.list(s -> s.path("_warehouseId").asText().equals(warehouseId)).stream()
        .map(SourceCatalog::view)
        .toList();
  }

  /**
   * @param warehouseId the warehouse of the caller
   * @param id a source id
   * @return the source
   * @throws ApiException 404 when the warehouse has no such source
   */
  public ObjectNode get(String warehouseId, String id) {
    return view(stored(warehouseId, id));
  }

  /**
   * @param sourceId a source id
   * @return the warehouse it belongs to, if it exists
   */
  public Optional<String> warehouseOf(String sourceId) {
    return docs.get(sourceId).map(s -> s.path("_warehouseId").asText());
  }

  /**
   * @param warehouseId the warehouse
   * @param body the definition
   * @return the new source
   */
  public synchronized ObjectNode create(String warehouseId, JsonNode body) {
    ObjectNode s = validate(body);
    String id = engine.createSource(spec(null, s)).id();
    s.put("id", id);
    s.put("createdAt", Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString());
    s.put("_warehouseId", warehouseId);
    docs.put(id, s);
    return view(s);
  }

  /**
   * Replaces a definition. Events are kept when the timestamp, implicit column and declared columns
   * stay the same; otherwise the source starts empty under the same id.
   *
   * @param warehouseId the warehouse
   * @param id the source
   * @param body the new definition
   * @return the source
   */
  public synchronized ObjectNode replace(String warehouseId, String id, JsonNode body) {
    ObjectNode old = stored(warehouseId, id);
    ObjectNode s = validate(body);
    s.put("id", id);
    s.put("createdAt", old.get("createdAt").asText());
    s.put("_warehouseId", warehouseId);
    SourceSpec before = spec(id, old);
    SourceSpec after = spec(id, s);
    if (!sameStorage(before, after)) {
      engine.dropSource(id);
      engine.createSource(after);
    }
    docs.put(id, s);
    return view(s);
  }

  /**
   * Deletes a source and its events.
   *
   * @param warehouseId the warehouse
   * @param id the source
   */
  public synchronized void delete(String warehouseId, String id) {
    stored(warehouseId, id);
    docs.remove(id);
    engine.dropSource(id);
  }

  /**
   * Deletes every source of a warehouse (its last service is gone).
   *
   * @param warehouseId the warehouse
   */
  public synchronized void dropWarehouse(String warehouseId) {
    for (ObjectNode s : list(warehouseId)) {
      docs.remove(s.get("id").asText());
      engine.dropSource(s.get("id").asText());
    }
  }

  /** Whether events stored under one definition are still right under the other. */
  private static boolean sameStorage(SourceSpec before, SourceSpec after) {
    return before.timestampColumn().equals(after.timestampColumn())
        && java.util.Objects.equals(before.implicitColumn(), after.implicitColumn())
        && before.columns().equals(after.columns());
  }

  private ObjectNode stored(String warehouseId, String id) {
    return docs.get(id)
        .filter(s -> s.path("_warehouseId").asText().equals(warehouseId))
        .orElseThrow(() -> ApiException.notFound("source " + id + " does not exist"));
  }

  /** Checks a definition and fills its defaults; the result has every public field but id. */
  private ObjectNode validate(JsonNode body) {
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    List<String> problems = new ArrayList<>();
    Iterator<String> names = body.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!FIELDS.contains(n)) {
        problems.add(n + ": unknown field");
      }
    }
    String name = text(body, "name", problems);
    if (name == null && !body.hasNonNull("name")) {
      problems.add("name: is required");
    } else if (name != null) {
      add(problems, Names.name("name", name));
    }
    for (String f : EXPRESSIONS) {
      if (body.path(f).isTextual()) {
        add(problems, Names.expression(f, body.get(f).textValue()));
      }
    }
    String kind = text(body, "kind", problems);
    if (kind == null && !body.hasNonNull("kind")) {
      problems.add("kind: is required");
    } else if (kind != null && SourceKind.fromWireName(kind).isEmpty()) {
      problems.add("kind: must be one of log, trace, metric, session");
    }
    String ts = orDefault(text(body, "timestampValueExpression", problems), "Timestamp");
    String bodyColumn = text(body, "bodyExpression", problems);
    if (bodyColumn == null && "log".equals(kind)) {
      bodyColumn = "Body";
    }
    String implicit = orDefault(text(body, "implicitColumnExpression", problems), bodyColumn);
    String service = text(body, "serviceNameExpression", problems);
    String severity = text(body, "severityTextExpression", problems);
    ArrayNode columns = mapper.createArrayNode();
    JsonNode cols = body.get("columns");
    if (cols != null && !cols.isNull()) {
      if (!cols.isArray()) {
        problems.add("columns: must be an array");
      } else {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < cols.size(); i++) {
          JsonNode c = cols.get(i);
          String p = "columns[" + i + "]";
          if (!c.path("name").isTextual() || c.get("name").textValue().isEmpty()) {
            problems.add(p + ".name: is required");
            continue;
          }
          String cn = c.get("name").textValue();
          String nameProblem = Names.expression(p + ".name", cn);
          if (nameProblem != null) {
            problems.add(nameProblem);
            continue;
          }
          if (!c.path("type").isTextual()
              || ColumnType.fromWireName(c.get("type").textValue()).isEmpty()) {
            problems.add(p + ".type: must be one of string, long, double, bool");
          } else if (cn.equals(ts)) {
            problems.add(p + ".name: '" + cn + "' is the timestamp column");
          } else if (cn.equals(implicit) && !c.get("type").textValue().equals("string")) {
            problems.add(p + ".type: the implicit column '" + cn + "' must be a string");
          } else if (!seen.add(cn)) {
            problems.add(p + ".name: '" + cn + "' is declared twice");
          } else {
            ObjectNode col = columns.addObject();
            col.put("name", cn);
            col.put("type", c.get("type").textValue());
          }
        }
      }
    }
    if (implicit != null && implicit.equals(ts)) {
      problems.add("implicitColumnExpression: cannot be the timestamp column");
    }
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
    ObjectNode s = mapper.createObjectNode();
    s.put("name", name);
    s.put("kind", kind);
    s.put("timestampValueExpression", ts);
    s.put("bodyExpression", bodyColumn);
    s.put("implicitColumnExpression", implicit);
    s.put("serviceNameExpression", service);
    s.put("severityTextExpression", severity);
    s.set("columns", columns);
    ObjectNode from = s.putObject("from");
    from.put("databaseName", "default");
    from.put(
        "tableName",
        switch (kind) {
          case "trace" -> "otel_traces";
          case "metric" -> "otel_metrics";
          case "session" -> "hyperdx_sessions";
          default -> "otel_logs";
        });
    return s;
  }

  static SourceSpec spec(String id, JsonNode s) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (JsonNode c : s.path("columns")) {
      columns.add(
          new ColumnSpec(
              c.get("name").asText(),
              ColumnType.fromWireName(c.get("type").asText()).orElseThrow()));
    }
    return new SourceSpec(
        id,
        s.get("name").asText(),
        SourceKind.fromWireName(s.get("kind").asText()).orElseThrow(),
        s.get("timestampValueExpression").asText(),
        s.path("bodyExpression").textValue(),
        s.path("implicitColumnExpression").textValue(),
        columns);
  }

  private static String text(JsonNode body, String field, List<String> problems) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      problems.add(field + ": must be a string");
      return null;
    }
    return v.textValue();
  }

  private static void add(List<String> problems, String problem) {
    if (problem != null) {
      problems.add(problem);
    }
  }

  private static String orDefault(String v, String dflt) {
    return v == null || v.isEmpty() ? dflt : v;
  }

  static ObjectNode view(ObjectNode s) {
    ObjectNode v = s.deepCopy();
    v.remove("_warehouseId");
    return v;
  }

  @Override
  public void close() {
    docs.close();
  }
}
