package dev.chartwell.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.otlp.OtelTable;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Our table shapes are the OTLP module's, so that both kinds of source are interchangeable. */
class OtelTablesTest {
  private static final Map<OtelTables, OtelTable> SAME =
      Map.of(
          OtelTables.LOGS, OtelTable.LOGS,
          OtelTables.GAUGE, OtelTable.GAUGE,
          OtelTables.SUM, OtelTable.SUM,
          OtelTables.HISTOGRAM, OtelTable.HISTOGRAM);

  @Test
  void shapesAreThoseOfOtlpIngestion() {
    SAME.forEach(
        (ours, theirs) -> {
          SourceSpec spec = ours.spec(ours.tableName());
          assertEquals(theirs.tableName(), ours.tableName());
          assertEquals(theirs.tableName(), spec.id());
          assertEquals(theirs.timestampColumn(), spec.timestampColumn(), ours.name());
          assertEquals(theirs.bodyColumn(), spec.bodyColumn(), ours.name());
          assertEquals(theirs.implicitColumn(), spec.implicitColumn(), ours.name());
          assertEquals(theirs.columns(), spec.columns(), ours.name());
          assertEquals(theirs.sourceKind(), spec.kind().wireName(), ours.name());
        });
  }

  @Test
  void ensureCreatesOnceAndFindsAfterwards() {
    try (Engine engine = Engine.builder().build()) {
      Source created = OtelTables.LOGS.ensure(engine, "otel_logs");
      assertSame(created, OtelTables.LOGS.ensure(engine, "otel_logs"));
      assertEquals(OtelTables.LOGS.columns(), created.spec().columns());
    }
  }
}
