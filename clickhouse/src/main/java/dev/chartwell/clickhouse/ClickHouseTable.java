package dev.chartwell.clickhouse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ClickHouse table as a source reads it: its columns (as {@code DESCRIBE TABLE} lists them), the
 * column that holds each event's time and the implicit column of bare search terms. Each column's
 * ClickHouse type is classified once into the value kinds the engine has, so that the same {@code
 * where} means the same thing on both.
 *
 * @param database the database
 * @param table the table
 * @param columns every column, in the table's order
 * @param timestampColumn the time column: {@code DateTime}, {@code DateTime64} or an integer of
 *     epoch milliseconds
 * @param implicitColumn the column bare terms search, or {@code null}
 */
public record ClickHouseTable(
    String database,
    String table,
    List<Column> columns,
    String timestampColumn,
    String implicitColumn) {

  /** Validates and copies. */
  public ClickHouseTable {
    columns = List.copyOf(columns);
  }

  /** What a column's values are, for the where semantics. */
  public enum Kind {
    /** text (String, FixedString, LowCardinality(String), other enums, anything else). */
    STRING,
    /** integers. */
    LONG,
    /** floating point and decimals. */
    DOUBLE,
    /** {@code Bool}, or {@code Enum8('false' = 0, 'true' = 1)} on servers without Bool. */
    BOOL,
    /** {@code Map(String, ...)}: fields {@code column.key} read {@code column['key']}. */
    MAP,
    /** {@code DateTime}: seconds. */
    DATETIME,
    /** {@code DateTime64(p)}. */
    DATETIME64
  }

  /**
   * A column.
   *
   * @param name its name
   * @param type its ClickHouse type as the server writes it
   * @param kind what its values are
   * @param nullable whether it is {@code Nullable} (NULL means the event has no such field)
   */
  public record Column(String name, String type, Kind kind, boolean nullable) {
    /**
     * @param name a column name
     * @param type its ClickHouse type
     * @return the classified column
     */
    public static Column of(String name, String type) {
      String t = type.strip();
      boolean nullable = false;
      boolean changed = true;
      while (changed) {
        changed = false;
        for (String wrapper : List.of("Nullable(", "LowCardinality(")) {
          if (t.startsWith(wrapper) && t.endsWith(")")) {
            nullable |= wrapper.equals("Nullable(");
            t = t.substring(wrapper.length(), t.length() - 1).strip();
            changed = true;
          }
        }
      }
      return new Column(name, type, classify(t), nullable);
    }

    private static final Pattern BOOL_ENUM =
        Pattern.compile(
            "Enum8\\(\\s*\\\\?'false\\\\?'\\s*=\\s*0\\s*,\\s*\\\\?'true\\\\?'\\s*=\\s*1\\s*\\)"
                + "|Enum8\\(\\s*\\\\?'true\\\\?'\\s*=\\s*1\\s*,\\s*\\\\?'false\\\\?'\\s*=\\s*0\\s*\\)");

    private static Kind classify(String t) {
      if (t.matches("U?Int(8|16|32|64|128|256)")) {
        return Kind.LONG;
      }
      if (t.matches("Float(32|64)|Decimal.*")) {
        return Kind.DOUBLE;
      }
      if (t.equals("Bool") || BOOL_ENUM.matcher(t).matches()) {
        return Kind.BOOL;
      }
      if (t.startsWith("Map(")) {
        return Kind.MAP;
      }
      if (t.startsWith("DateTime64")) {
        return Kind.DATETIME64;
      }
      if (t.equals("DateTime") || t.startsWith("DateTime(")) {
        return Kind.DATETIME;
      }
      return Kind.STRING;
    }
  }

  /**
   * @param database the database
   * @param table the table
   * @param describe the answer of {@code DESCRIBE TABLE ... FORMAT TabSeparated}
   * @param timestampColumn the source's time column
   * @param implicitColumn the source's implicit column, or {@code null}
   * @return the table
   */
  public static ClickHouseTable fromDescribe(
      String database,
      String table,
      String describe,
      String timestampColumn,
      String implicitColumn) {
    List<Column> columns = new ArrayList<>();
    for (String line : describe.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      String[] cells = line.split("\t", -1);
      if (cells.length < 2) {
        continue;
      }
      columns.add(Column.of(TabSeparated.unescape(cells[0]), TabSeparated.unescape(cells[1])));
    }
    return new ClickHouseTable(database, table, columns, timestampColumn, implicitColumn);
  }

  /**
   * @return the columns by name
   */
  public Map<String, Column> byName() {
    Map<String, Column> m = new LinkedHashMap<>();
    for (Column c : columns) {
      m.put(c.name(), c);
    }
    return m;
  }

  /**
   * @param name a column name
   * @return the column
   */
  public Optional<Column> column(String name) {
    for (Column c : columns) {
      if (c.name().equals(name)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /**
   * @return the problems of this table as a source's table (the time column missing or of another
   *     type, the implicit column missing), empty when it can be read
   */
  public List<String> problems() {
    List<String> out = new ArrayList<>();
    Optional<Column> ts = column(timestampColumn);
    if (ts.isEmpty()) {
      out.add(
          "timestampValueExpression: table "
              + qualifiedName()
              + " has no column '"
              + timestampColumn
              + "'");
    } else if (ts.get().kind() != Kind.DATETIME
        && ts.get().kind() != Kind.DATETIME64
        && ts.get().kind() != Kind.LONG) {
      out.add(
          "timestampValueExpression: column '"
              + timestampColumn
              + "' is "
              + ts.get().type()
              + "; it must be DateTime, DateTime64 or an integer of epoch milliseconds");
    }
    if (implicitColumn != null && column(implicitColumn).isEmpty()) {
      out.add(
          "implicitColumnExpression: table "
              + qualifiedName()
              + " has no column '"
              + implicitColumn
              + "'");
    }
    return out;
  }

  /**
   * @return {@code database.table} as written in SQL
   */
  public String sqlName() {
    return Sql.identifier(database) + "." + Sql.identifier(table);
  }

  /**
   * @return {@code database.table} for messages
   */
  public String qualifiedName() {
    return database + "." + table;
  }

  /** The precision of a {@code DateTime64(p)} type (3 when unreadable). */
  static int precision(String type) {
    Matcher m = Pattern.compile("DateTime64\\((\\d+)").matcher(type);
    return m.find() ? Integer.parseInt(m.group(1)) : 3;
  }
}
