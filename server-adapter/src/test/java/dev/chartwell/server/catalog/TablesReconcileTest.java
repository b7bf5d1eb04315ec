package dev.chartwell.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At start the engine may already hold sources (a durable engine reopens its own): each stored
 * table keeps the engine source of its id with its events, a table without one gets an empty one,
 * and an engine source that is no table is dropped.
 */
class TablesReconcileTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  @TempDir Path dir;

  @Test
  void theEngineEndsUpHoldingExactlyTheStoredTables() throws Exception {
    try (JsonStore sources = JsonStore.open(dir, Collection.SOURCES, MAPPER);
        Tables tables = Tables.open(dir, MAPPER)) {
      tables.put(table("aaaaaaaaaaaaaaaaaaaaaaaa", "kept"));
      tables.put(table("bbbbbbbbbbbbbbbbbbbbbbbb", "new"));
      try (Engine engine = Engine.builder().workerThreads(1).build()) {
        Source kept = engine.createSource(spec("aaaaaaaaaaaaaaaaaaaaaaaa"));
        kept.append(new Event(1_700_000_000_000L, Map.of("Body", "x")));
        engine.createSource(spec("cccccccccccccccccccccccc")); // no table: a leftover
        LegacySources.migrate(sources, tables, MAPPER);
        tables.reconcile(engine);
        assertEquals(
            Set.of("aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb"),
            engine.sources().stream().map(Source::id).collect(Collectors.toSet()));
        assertSame(kept, engine.source("aaaaaaaaaaaaaaaaaaaaaaaa").orElseThrow());
        assertEquals(1, kept.stats().rows(), "its events stay");
        assertEquals(
            "default.new", engine.source("bbbbbbbbbbbbbbbbbbbbbbbb").orElseThrow().spec().name());
      }
    }
  }

  static ObjectNode table(String id, String name) {
    ObjectNode t = MAPPER.createObjectNode();
    t.put("id", id);
    t.put("databaseName", "default");
    t.put("tableName", name);
    t.put("timestampColumn", "Timestamp");
    t.put("implicitColumn", "Body");
    t.put("bodyColumn", "Body");
    t.putArray("columns");
    t.put("createdAt", "2026-01-01T00:00:00Z");
    t.put("_warehouseId", "w");
    return t;
  }

  static SourceSpec spec(String id) {
    return new SourceSpec(
        id, "x", dev.chartwell.engine.SourceKind.LOG, "Timestamp", "Body", "Body", List.of());
  }
}
