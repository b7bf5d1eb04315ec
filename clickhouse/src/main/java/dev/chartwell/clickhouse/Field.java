package dev.chartwell.clickhouse;

import dev.chartwell.clickhouse.ClickHouseTable.Column;
import dev.chartwell.clickhouse.ClickHouseTable.Kind;
import java.util.Optional;

/**
 * A field of a {@code where}, a group-by or an aggregate, resolved against a table: SQL for its
 * value (never NULL where {@link #present} holds), for whether an event has it, and for its text as
 * the engine writes it. A field name is a column of that name, else {@code Map.key} for a {@code
 * Map} column {@code Map} ({@code LogAttributes.http.method} reads {@code
 * LogAttributes['http.method']}); a name that is neither is absent from every event, as in the
 * engine.
 *
 * @param value SQL of the value, of the kind's type
 * @param present SQL of a UInt8 that says whether the event has the field ({@code 1}: always)
 * @param kind the value's kind (never {@link Kind#MAP}: a map's values are what they hold)
 */
public record Field(String value, String present, Kind kind) {
  /**
   * A number's text as {@link Double#toString(double)} writes it, for the values from 0.001 up to
   * 10^7 (ClickHouse's own form outside that range: its exponent notation differs from Java's).
   */
  private static final String DOUBLE_TEXT =
      "multiIf(%1$s = 0, if(1 / %1$s < 0, '-0.0', '0.0'),"
          + " abs(%1$s) >= 0.001 AND abs(%1$s) < 10000000,"
          + " if(%1$s = floor(%1$s), concat(toString(%1$s), '.0'), toString(%1$s)),"
          + " toString(%1$s))";

  /** What the engine counts as a number in text (its {@code Numbers} pattern), as re2. */
  static final String NUMBER_RE = "^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$";

  /**
   * @param table the table
   * @param name a field name
   * @return the field, or empty when no event of the table has it
   */
  public static Optional<Field> resolve(ClickHouseTable table, String name) {
    if (name.equals(table.timestampColumn())) {
      return Optional.empty(); // the engine keeps the time apart from the fields too
    }
    Optional<Column> direct = table.column(name);
    if (direct.isPresent() && direct.get().kind() != Kind.MAP) {
      Column c = direct.get();
      String id = Sql.identifier(c.name());
      Kind kind = c.kind() == Kind.DATETIME || c.kind() == Kind.DATETIME64 ? Kind.STRING : c.kind();
      String value = c.nullable() ? "assumeNotNull(" + id + ")" : id;
      if (kind == Kind.STRING && !isPlainString(c.type())) {
        value = "toString(" + value + ")";
      }
      return Optional.of(new Field(value, c.nullable() ? "isNotNull(" + id + ")" : "1", kind));
    }
    Column map = null;
    for (Column c : table.columns()) {
      if (c.kind() == Kind.MAP
          && name.length() > c.name().length() + 1
          && name.startsWith(c.name() + ".")
          && (map == null || c.name().length() > map.name().length())) {
        map = c;
      }
    }
    if (map == null) {
      return Optional.empty();
    }
    String key = Sql.string(name.substring(map.name().length() + 1));
    String id = Sql.identifier(map.name());
    Column inner = Column.of("", mapValueType(map.type()));
    String value = id + "[" + key + "]";
    Kind kind = inner.kind();
    if (kind == Kind.STRING && !isPlainString(inner.type())) {
      value = "toString(" + value + ")";
    }
    return Optional.of(new Field(value, "mapContains(" + id + ", " + key + ")", kind));
  }

  private static boolean isPlainString(String type) {
    String t = type.replace("Nullable(", "").replace("LowCardinality(", "").replace(")", "");
    return t.equals("String");
  }

  /** {@code Map(String, V)} → {@code V}. */
  static String mapValueType(String type) {
    String t = type.strip();
    int open = t.indexOf('(');
    int depth = 0;
    for (int i = open + 1; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        return t.substring(i + 1, t.lastIndexOf(')')).strip();
      }
    }
    return "String";
  }

  /**
   * @return SQL of the value's text as the engine writes it (numbers in Java's form, booleans as
   *     {@code true}/{@code false})
   */
  public String text() {
    return switch (kind) {
      case STRING, MAP, DATETIME, DATETIME64 -> value;
      case LONG -> "toString(" + value + ")";
      case DOUBLE -> String.format(DOUBLE_TEXT, "toFloat64(" + value + ")");
      case BOOL -> "toString(" + value + ")";
    };
  }

  /**
   * @return SQL of the value as a group key, as the engine writes group values: numbers without a
   *     trailing {@code .0}
   */
  public String groupText() {
    return switch (kind) {
      case DOUBLE -> {
        String t = text();
        yield "replaceRegexpOne(" + t + ", '[.]0$', '')";
      }
      default -> text();
    };
  }

  /**
   * @return SQL of a nullable Float64: the value when it is a number (a string that reads as one
   *     included), else NULL: what numeric aggregates read
   */
  public String number() {
    return switch (kind) {
      case LONG, DOUBLE -> "toFloat64(" + value + ")";
      case STRING, MAP, DATETIME, DATETIME64 ->
          "if(" + isNumber(value) + ", toFloat64OrZero(" + value + "), NULL)";
      case BOOL -> "CAST(NULL AS Nullable(Float64))";
    };
  }

  /**
   * @param text SQL of a string
   * @return SQL of a UInt8: whether the text is a number as the engine reads numbers (its pattern,
   *     at most 400 characters, finite)
   */
  static String isNumber(String text) {
    return "(match("
        + text
        + ", "
        + Sql.string(NUMBER_RE)
        + ") AND length("
        + text
        + ") <= 400 AND isFinite(toFloat64OrZero("
        + text
        + ")))";
  }

  /**
   * @param predicate SQL of a UInt8 over {@link #value}
   * @return the predicate, false for events without the field
   */
  String where(String predicate) {
    return present.equals("1") ? predicate : "(" + present + " AND " + predicate + ")";
  }
}
