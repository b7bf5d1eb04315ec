package dev.chartwell.clickhouse;

import dev.chartwell.clickhouse.ClickHouseTable.Column;
import dev.chartwell.clickhouse.ClickHouseTable.Kind;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.internal.filter.Numbers;
import dev.chartwell.engine.internal.source.JsonStrings;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes ingested events into a ClickHouse table: each batch as one {@code INSERT ... FORMAT
 * JSONEachRow}. An event whose fields do not fit the table (a field the table has no column for, a
 * value the column's type cannot hold) is rejected with the reason, as the engine rejects a value
 * it cannot coerce, and the others are inserted; the time goes to the time column in that column's
 * type. Fields {@code Map.key} fill the {@code Map} column {@code Map}.
 */
public final class RowInserter {
  private final ClickHouseClient client;
  private final ClickHouseTable table;

  /**
   * @param client the server
   * @param table the table written
   */
  public RowInserter(ClickHouseClient client, ClickHouseTable table) {
    this.client = client;
    this.table = table;
  }

  /**
   * @param batch parsed events
   * @return the rejected events, by position in the batch, with reasons
   * @throws ClickHouseException when the server refused the insert (nothing of the batch stored)
   */
  public List<Map.Entry<Integer, String>> insert(List<Event> batch) {
    List<Map.Entry<Integer, String>> rejected = new ArrayList<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rows = 0;
    for (int i = 0; i < batch.size(); i++) {
      try {
        out.writeBytes(row(batch.get(i)).getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        rows++;
      } catch (IllegalArgumentException e) {
        rejected.add(new AbstractMap.SimpleEntry<>(i, e.getMessage()));
      }
    }
    if (rows > 0) {
      client.insert("INSERT INTO " + table.sqlName() + " FORMAT JSONEachRow", out.toByteArray());
    }
    return rejected;
  }

  private String row(Event e) {
    Map<String, Object> columns = new LinkedHashMap<>();
    Map<String, Map<String, String>> maps = new LinkedHashMap<>();
    Column ts = table.column(table.timestampColumn()).orElseThrow();
    columns.put(ts.name(), time(ts, e.timestamp()));
    for (Map.Entry<String, Object> f : e.fields().entrySet()) {
      String name = f.getKey();
      Object v = f.getValue();
      if (v == null || name.equals(ts.name())) {
        continue;
      }
      Column c = table.column(name).orElse(null);
      if (c == null || c.kind() == Kind.MAP) {
        Column map = mapOf(name);
        if (map == null) {
          throw new IllegalArgumentException(
              "field '" + name + "': table " + table.qualifiedName() + " has no such column");
        }
        maps.computeIfAbsent(map.name(), k -> new LinkedHashMap<>())
            .put(name.substring(map.name().length() + 1), text(v));
        continue;
      }
      columns.put(name, value(c, v));
    }
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, Object> c : columns.entrySet()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      JsonStrings.quote(c.getKey(), sb);
      sb.append(':');
      if (c.getValue() instanceof String s) {
        JsonStrings.quote(s, sb);
      } else {
        sb.append(c.getValue());
      }
    }
    for (Map.Entry<String, Map<String, String>> m : maps.entrySet()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      JsonStrings.quote(m.getKey(), sb);
      sb.append(":{");
      boolean first = true;
      for (Map.Entry<String, String> kv : m.getValue().entrySet()) {
        sb.append(first ? "" : ",");
        JsonStrings.quote(kv.getKey(), sb);
        sb.append(':');
        JsonStrings.quote(kv.getValue(), sb);
        first = false;
      }
      sb.append('}');
    }
    return sb.append('}').toString();
  }

  private Column mapOf(String name) {
    Column best = null;
    for (Column c : table.columns()) {
      if (c.kind() == Kind.MAP
          && name.startsWith(c.name() + ".")
          && (best == null || c.name().length() > best.name().length())) {
        best = c;
      }
    }
    return best;
  }

  private static Object time(Column c, long millis) {
    return switch (c.kind()) {
      case DATETIME -> Math.floorDiv(millis, 1000);
      case DATETIME64 -> BigDecimal.valueOf(millis, 3).toPlainString();
      default -> millis;
    };
  }

  /** The value for a column, as a JSON number, boolean or string. */
  private static Object value(Column c, Object v) {
    switch (c.kind()) {
      case LONG -> {
        if (v instanceof Long || v instanceof Integer) {
          return v;
        }
        BigDecimal exact = v instanceof String s ? Numbers.parseExact(s) : null;
        if (exact != null) {
          try {
            return exact.longValueExact();
          } catch (ArithmeticException notInteger) {
            // falls through to the rejection
          }
        }
        throw reject(c, v, "an integer");
      }
      case DOUBLE -> {
        if (v instanceof Long || v instanceof Double) {
          return ((Number) v).doubleValue(); // written as Java writes it, a JSON number
        }
        if (v instanceof String s && !Double.isNaN(Numbers.parseDouble(s))) {
          return Numbers.parseDouble(s);
        }
        throw reject(c, v, "a number");
      }
      case BOOL -> {
        if (v instanceof Boolean b) {
          return c.type().contains("Enum") ? b.toString() : b;
        }
        throw reject(c, v, "true or false");
      }
      case DATETIME, DATETIME64 -> throw reject(c, v, "the source's time column");
      default -> {
        return text(v);
      }
    }
  }

  private static IllegalArgumentException reject(Column c, Object v, String wanted) {
    return new IllegalArgumentException(
        "field '"
            + c.name()
            + "': column of type "
            + c.type()
            + " needs "
            + wanted
            + ", got "
            + (v instanceof String
                ? "a string"
                : v.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT)));
  }

  private static String text(Object v) {
    return v.toString();
  }
}
