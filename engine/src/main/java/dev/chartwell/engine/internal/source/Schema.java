package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.ColumnType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The columns of a source: declared ones first, then each new field in the order first seen. A
 * column's type never changes. Instances are immutable; a source publishes a new one when a column
 * is added, so a query reads one consistent schema.
 */
public final class Schema {
  /** Largest number of columns a source may have. */
  public static final int MAX_COLUMNS = 1000;

  /** Longest column name, in characters. */
  public static final int MAX_NAME_LENGTH = 256;

  /**
   * A column and its position.
   *
   * @param name column name
   * @param type column type
   * @param ordinal position (0-based) in the source's column list
   */
  public record Column(String name, ColumnType type, int ordinal) {}

  private final List<Column> columns;
  private final Map<String, Column> byName;

  private Schema(List<Column> columns, Map<String, Column> byName) {
    this.columns = columns;
    this.byName = byName;
  }

  /**
   * @return the empty schema
   */
  public static Schema empty() {
    return new Schema(List.of(), Map.of());
  }

  /**
   * @param name a column name
   * @param type its type
   * @return a schema with one more column
   */
  public Schema with(String name, ColumnType type) {
    if (byName.containsKey(name)) {
      throw new IllegalArgumentException("column '" + name + "' exists");
    }
    List<Column> cols = new ArrayList<>(columns);
    Column c = new Column(name, type, cols.size());
    cols.add(c);
    Map<String, Column> map = new HashMap<>(byName);
    map.put(name, c);
    return new Schema(Collections.unmodifiableList(cols), Collections.unmodifiableMap(map));
  }

  /**
   * @param name a column name
   * @return the column, if the source has it
   */
  public Optional<Column> column(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /**
   * @return all columns in ordinal order
   */
  public List<Column> columns() {
    return columns;
  }

  /**
   * @return number of columns
   */
  public int size() {
    return columns.size();
  }

  /**
   * @param name a proposed column name
   * @throws IllegalArgumentException when empty, too long or containing control characters
   */
  public static void requireValidName(String name) {
    String problem = nameProblem(name);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
  }

  /**
   * @param name a proposed column name
   * @return what is wrong with it, or {@code null} when it is fine
   */
  static String nameProblem(String name) {
    if (name == null || name.isEmpty()) {
      return "field name is empty";
    }
    if (name.length() > MAX_NAME_LENGTH) {
      return "field name is longer than " + MAX_NAME_LENGTH + " characters";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isISOControl(c)) {
        return "field name contains a control character";
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < name.length()
          && Character.isLowSurrogate(name.charAt(i + 1))) {
        i++; // a supplementary character
      } else if (Character.isSurrogate(c)) {
        return "field name contains an unpaired UTF-16 surrogate (not valid Unicode text)";
      }
    }
    return null;
  }
}
