package dev.chartwell.engine;

import java.util.Locale;
import java.util.Optional;

/** The type of a column: fixed when the column is declared or first seen. */
public enum ColumnType {
  /** UTF-16 text; dictionary-encoded per segment. */
  STRING,
  /** 64-bit signed integer. */
  LONG,
  /** 64-bit IEEE float (finite values only). */
  DOUBLE,
  /** true or false. */
  BOOL;

  /**
   * @return the name used in source definitions: {@code string}, {@code long}, {@code double},
   *     {@code bool}
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param name a wire name
   * @return the type, if the name is one
   */
  public static Optional<ColumnType> fromWireName(String name) {
    for (ColumnType t : values()) {
      if (t.wireName().equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * @return whether values are numbers
   */
  public boolean isNumeric() {
    return this == LONG || this == DOUBLE;
  }
}
