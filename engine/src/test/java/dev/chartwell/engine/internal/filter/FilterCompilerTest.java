package dev.chartwell.engine.internal.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.internal.source.Schema;
import dev.chartwell.parser.WhereParser;
import org.junit.jupiter.api.Test;

/**
 * What the compiler makes of an OR: leaves on one field become one leaf (their answers are checked
 * against a reference by the differential properties; here, only the shape).
 */
class FilterCompilerTest {
  private static final Schema SCHEMA =
      Schema.empty()
          .with("SeverityText", ColumnType.STRING)
          .with("status", ColumnType.LONG)
          .with("Body", ColumnType.STRING);

  private static Filter compile(String where) {
    return FilterCompiler.compile(WhereParser.parse(where), SCHEMA, "Body", "where");
  }

  @Test
  void leavesOnOneFieldBecomeOneLeaf() {
    Filter.Field leaf =
        assertInstanceOf(Filter.Field.class, compile("SeverityText:(warn OR error)"));
    assertEquals("SeverityText", leaf.field());
    assertInstanceOf(
        Filter.Field.class, compile("SeverityText:warn OR SeverityText:error OR SeverityText:x"));
  }

  @Test
  void leavesOnOtherFieldsAndOtherFiltersStayApart() {
    assertInstanceOf(Filter.Or.class, compile("SeverityText:warn OR status:500"));
    assertInstanceOf(
        Filter.Or.class, compile("SeverityText:warn OR (status:500 AND SeverityText:error)"));
    assertInstanceOf(
        Filter.Or.class, compile("SeverityText:warn OR SeverityText:error OR timeout"));
  }
}
