package dev.chartwell.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A chart answer reduced to what both systems must agree on: per (bucket, group values), one number
 * per series ({@code NaN} where the series has no value).
 */
final class Answer {
  private final Map<String, double[]> rows = new TreeMap<>();
  private final int series;

  private Answer(int series) {
    this.series = series;
  }

  /**
   * @return the number of (bucket, group) rows
   */
  int rows() {
    return rows.size();
  }

  private void put(String key, double[] values) {
    if (rows.put(key, values) != null) {
      throw new IllegalStateException("the answer has the row " + key + " twice");
    }
  }

  private static String key(long bucket, List<String> group) {
    return bucket + (group.isEmpty() ? "" : " " + group);
  }

  /**
   * @param body Chartwell's {@code {"data":[{"ts_bucket","group","series_<i>.data"}]}}
   * @param series the number of series asked
   * @return the answer
   */
  static Answer fromChartwell(JsonNode body, int series) {
    Answer a = new Answer(series);
    for (JsonNode row : body.path("data")) {
      List<String> group = new ArrayList<>();
      row.path("group").forEach(g -> group.add(g.asText()));
      double[] values = new double[series];
      for (int i = 0; i < series; i++) {
        JsonNode v = row.get("series_" + i + ".data");
        values[i] = v == null || v.isNull() ? Double.NaN : v.asDouble();
      }
      a.put(key(row.path("ts_bucket").asLong(), group), values);
    }
    return a;
  }

  /**
   * @param tsv ClickHouse's TabSeparated answer: bucket, the group values, then one column per
   *     series
   * @param groups the number of group values
   * @param series the number of series
   * @return the answer
   */
  static Answer fromClickHouse(String tsv, int groups, int series) {
    Answer a = new Answer(series);
    for (String line : tsv.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      String[] cells = line.split("\t", -1);
      if (cells.length != 1 + groups + series) {
        throw new IllegalStateException(
            "expected " + (1 + groups + series) + " columns from ClickHouse, got: " + line);
      }
      double[] values = new double[series];
      for (int i = 0; i < series; i++) {
        values[i] = number(cells[1 + groups + i]);
      }
      a.put(key(Long.parseLong(cells[0]), Arrays.asList(cells).subList(1, 1 + groups)), values);
    }
    return a;
  }

  private static double number(String text) {
    return switch (text) {
      case "nan", "-nan" -> Double.NaN;
      case "inf", "+inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }

  /**
   * @param chartwell one answer
   * @param clickhouse the other
   * @param kinds how each series compares
   * @param tolerance the largest relative difference of two non-count numbers that still agree
   * @return the differences, one line each (at most {@code limit}, then a count of the rest); empty
   *     when the answers agree
   */
  static List<String> differences(
      Answer chartwell,
      Answer clickhouse,
      List<BenchQueries.Kind> kinds,
      double tolerance,
      int limit) {
    if (chartwell.series != kinds.size() || clickhouse.series != kinds.size()) {
      throw new IllegalArgumentException("answers and kinds have different series counts");
    }
    List<String> out = new ArrayList<>();
    int more = 0;
    TreeSet<String> keys = new TreeSet<>(chartwell.rows.keySet());
    keys.addAll(clickhouse.rows.keySet());
    for (String key : keys) {
      double[] cw = chartwell.rows.get(key);
      double[] ch = clickhouse.rows.get(key);
      for (int i = 0; i < kinds.size(); i++) {
        double a = value(cw, i, kinds.get(i));
        double b = value(ch, i, kinds.get(i));
        if (!agree(a, b, kinds.get(i), tolerance)) {
          if (out.size() < limit) {
            out.add(
                String.format(
                    Locale.ROOT,
                    "row %s series %d: Chartwell %s, ClickHouse %s",
                    key,
                    i,
                    cw == null ? "has no row" : text(a),
                    ch == null ? "has no row" : text(b)));
          } else {
            more++;
          }
        }
      }
    }
    if (more > 0) {
      out.add("and " + more + " more");
    }
    return out;
  }

  private static double value(double[] row, int i, BenchQueries.Kind kind) {
    double v = row == null ? Double.NaN : row[i];
    return Double.isNaN(v) && kind == BenchQueries.Kind.COUNT ? 0 : v;
  }

  private static boolean agree(double a, double b, BenchQueries.Kind kind, double tolerance) {
    if (kind == BenchQueries.Kind.COUNT || Double.isNaN(a) || Double.isNaN(b)) {
      return Double.compare(a, b) == 0;
    }
    return a == b || Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));
  }

  private static String text(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
