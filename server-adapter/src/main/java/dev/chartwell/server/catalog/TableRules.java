package dev.chartwell.server.catalog;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.expression;
import static dev.chartwell.server.validation.FieldType.nullable;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The rules of a table's definition: its timestamp column (the event time the engine orders and
 * buckets by), its implicit column (the string column bare search terms look in, with its token
 * index), its body column, and its declared columns with their types. Once a table exists, the
 * sources that read it must use its timestamp and implicit columns.
 */
final class TableRules {
  static final ObjectShape DECLARE =
      ObjectShape.of(
          optional("timestampColumn", expression()),
          optional("implicitColumn", nullable(expression())),
          optional("bodyColumn", nullable(expression())),
          optional(
              "columns",
              arrayOf(
                  object(
                      ObjectShape.of(
                          required("name", expression()),
                          required("type", oneOf("string", "long", "double", "bool")))),
                  dev.chartwell.engine.internal.source.Schema.MAX_COLUMNS)));

  private TableRules() {}

  /**
   * The checks that span fields: a timestamp column, column names declared once, never the
   * timestamp column, the implicit column a string.
   *
   * @param t a table definition with {@code timestampColumn}, {@code implicitColumn} and {@code
   *     columns}
   * @param problems where problems go
   */
  static void checkColumns(ObjectNode t, Problems problems) {
    String ts = t.path("timestampColumn").asText();
    String implicit = t.path("implicitColumn").asText(null);
    if (ts.isEmpty()) {
      problems.add("timestampColumn", "must not be empty");
    }
    if (ts.equals(implicit)) {
      problems.add("implicitColumn", "cannot be the timestamp column");
    }
    Set<String> seen = new HashSet<>();
    JsonNode columns = t.path("columns");
    for (int i = 0; i < columns.size(); i++) {
      String name = columns.get(i).path("name").asText();
      String type = columns.get(i).path("type").asText();
      String path = "columns[" + i + "]";
      if (name.isEmpty()) {
        problems.add(path + ".name", "must not be empty");
      } else if (name.equals(ts)) {
        problems.add(path + ".name", "'" + name + "' is the timestamp column");
      } else if (!seen.add(name)) {
        problems.add(path + ".name", "'" + name + "' is declared twice");
      } else if (name.equals(implicit) && !type.equals("string")) {
        problems.add(path + ".type", "the implicit column '" + name + "' must be a string");
      }
    }
  }

  /**
   * Binds a source to an existing table: what the source leaves out it takes from the table; what
   * it gives must agree with the table.
   *
   * @param source the source (changed in place)
   * @param table the table it reads
   * @param problems where disagreements go
   */
  static void bind(ObjectNode source, ObjectNode table, Problems problems) {
    String qualified = Tables.qualifiedName(table);
    String ts = table.get("timestampColumn").textValue();
    if (!source.hasNonNull("timestampValueExpression")) {
      source.put("timestampValueExpression", ts);
    } else if (!source.get("timestampValueExpression").textValue().equals(ts)) {
      problems.add(
          "timestampValueExpression",
          "table " + qualified + " keeps its event time in '" + ts + "'; its sources must use it");
    }
    String implicit = table.path("implicitColumn").asText(null);
    JsonNode given = source.get("implicitColumnExpression");
    boolean searchable = source.path("kind").asText().matches("log|trace");
    if (given == null || given.isNull()) {
      if (searchable && implicit != null) {
        source.put("implicitColumnExpression", implicit);
      }
    } else if (!Objects.equals(given.textValue(), implicit)) {
      problems.add(
          "implicitColumnExpression",
          implicit == null
              ? "table " + qualified + " has no implicit column; leave this out"
              : "table "
                  + qualified
                  + " indexes '"
                  + implicit
                  + "' for bare search terms; its sources must use it");
    }
  }
}
