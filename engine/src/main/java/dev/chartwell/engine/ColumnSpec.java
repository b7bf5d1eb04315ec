package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.Schema;
import java.util.Objects;

/**
 * A declared column of a source.
 *
 * @param name the (flattened) column name
 * @param type its type
 */
public record ColumnSpec(String name, ColumnType type) {
  /** Validates the parts. */
  public ColumnSpec {
    Schema.requireValidName(name);
    Objects.requireNonNull(type, "type");
  }
}
