package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.Schema;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The definition of a source.
 *
 * @param id the source id, or {@code null} to let the engine generate one (24 lower-case hex)
 * @param name display name
 * @param kind what the source holds
 * @param timestampColumn the name of the event time field (not stored as a regular column)
 * @param bodyColumn the column holding the message text, or {@code null}
 * @param implicitColumn the column bare terms search (its token index is built), or {@code null};
 *     it is always a string column
 * @param columns declared columns; other fields become columns when first seen
 */
public record SourceSpec(
    String id,
    String name,
    SourceKind kind,
    String timestampColumn,
    String bodyColumn,
    String implicitColumn,
    List<ColumnSpec> columns) {

  /** Validates the definition. */
  public SourceSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Schema.requireValidName(timestampColumn);
    columns = List.copyOf(columns);
    Set<String> seen = new HashSet<>();
    for (ColumnSpec c : columns) {
      if (!seen.add(c.name())) {
        throw new IllegalArgumentException("column '" + c.name() + "' is declared twice");
      }
      if (c.name().equals(timestampColumn)) {
        throw new IllegalArgumentException(
            "column '" + c.name() + "' is the timestamp column and cannot be declared");
      }
      if (c.name().equals(implicitColumn) && c.type() != ColumnType.STRING) {
        throw new IllegalArgumentException(
            "implicit column '" + c.name() + "' must be a string column");
      }
    }
    if (implicitColumn != null && implicitColumn.equals(timestampColumn)) {
      throw new IllegalArgumentException("the implicit column cannot be the timestamp column");
    }
  }

  /**
   * A log source with the usual OpenTelemetry names: {@code Timestamp}, body and implicit column
   * {@code Body}, no declared columns.
   *
   * @param name display name
   * @return the definition
   */
  public static SourceSpec logs(String name) {
    return new SourceSpec(null, name, SourceKind.LOG, "Timestamp", "Body", "Body", List.of());
  }
}
