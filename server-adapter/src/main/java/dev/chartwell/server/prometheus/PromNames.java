package dev.chartwell.server.prometheus;

import java.util.HashMap;
import java.util.Map;

/**
 * OpenTelemetry names under Prometheus' rules, as Prometheus' OTLP receiver translates them (with
 * suffixes): characters other than letters, digits, {@code _} and {@code :} become {@code _}; the
 * unit becomes a suffix ({@code s} → {@code _seconds}, {@code By} → {@code _bytes}, {@code 1} on a
 * gauge → {@code _ratio}, {@code a/b} → {@code _a_per_b}, {@code {annotations}} dropped) unless the
 * name holds it already; a monotonic cumulative sum ends in {@code _total}. Metrics that came in by
 * remote write keep their names: they are Prometheus names already.
 */
final class PromNames {
  private static final Map<String, String> UNITS =
      Map.ofEntries(
          Map.entry("d", "days"),
          Map.entry("h", "hours"),
          Map.entry("min", "minutes"),
          Map.entry("s", "seconds"),
          Map.entry("ms", "milliseconds"),
          Map.entry("us", "microseconds"),
          Map.entry("ns", "nanoseconds"),
          Map.entry("By", "bytes"),
          Map.entry("KiBy", "kibibytes"),
          Map.entry("MiBy", "mebibytes"),
          Map.entry("GiBy", "gibibytes"),
          Map.entry("KBy", "kilobytes"),
          Map.entry("MBy", "megabytes"),
          Map.entry("GBy", "gigabytes"),
          Map.entry("m", "meters"),
          Map.entry("V", "volts"),
          Map.entry("A", "amperes"),
          Map.entry("J", "joules"),
          Map.entry("W", "watts"),
          Map.entry("g", "grams"),
          Map.entry("Cel", "celsius"),
          Map.entry("Hz", "hertz"),
          Map.entry("%", "percent"));

  private static final Map<String, String> PER_UNITS =
      Map.of(
          "s", "second", "m", "minute", "h", "hour", "d", "day", "w", "week", "mo", "month", "y",
          "year");

  private PromNames() {}

  /**
   * @param name an OpenTelemetry metric name
   * @param unit its unit (UCUM), or empty
   * @param gauge whether it is a gauge (a unit of {@code 1} becomes {@code _ratio})
   * @param counter whether it is a monotonic cumulative sum ({@code _total})
   * @return its Prometheus name
   */
  static String metric(String name, String unit, boolean gauge, boolean counter) {
    StringBuilder b = new StringBuilder(sanitize(name, true));
    String suffix = unitSuffix(unit, gauge);
    if (!suffix.isEmpty() && !b.toString().contains(suffix)) {
      b.append('_').append(suffix);
    }
    if (counter && !b.toString().endsWith("_total")) {
      b.append("_total");
    }
    return b.toString();
  }

  /**
   * @param key an attribute key
   * @return a valid Prometheus label name
   */
  static String label(String key) {
    String s = sanitize(key, false);
    if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
      return "key_" + s;
    }
    return s.startsWith("__") && !key.startsWith("__") ? "key" + s : s;
  }

  /**
   * @param column a column of an OTLP metric table
   * @return whether it tells one series from another: the name, unit, scope, point attributes and
   *     the resource attributes that become {@code job} and {@code instance}
   */
  static boolean otlpIdentity(String column) {
    return column.equals("MetricName")
        || column.equals("MetricUnit")
        || column.equals("ScopeName")
        || column.startsWith(SeriesLabels.ATTRIBUTES)
        || column.equals(SeriesLabels.RESOURCE + "service.name")
        || column.equals(SeriesLabels.RESOURCE + "service.namespace")
        || column.equals(SeriesLabels.RESOURCE + "service.instance.id");
  }

  /**
   * The labels (less {@code __name__}) of an OTLP point: its attributes under label names, the
   * resource's {@code service.namespace}/{@code service.name} as {@code job} and {@code
   * service.instance.id} as {@code instance}.
   *
   * @param columns the point's identity columns ({@link #otlpIdentity}) to their values
   * @return its labels
   */
  static Map<String, String> otlpLabels(Map<String, String> columns) {
    Map<String, String> labels = new HashMap<>();
    columns.forEach(
        (column, value) -> {
          if (column.startsWith(SeriesLabels.ATTRIBUTES)) {
            labels.put(label(column.substring(SeriesLabels.ATTRIBUTES.length())), value);
          }
        });
    String service = columns.get(SeriesLabels.RESOURCE + "service.name");
    if (service != null) {
      String namespace = columns.get(SeriesLabels.RESOURCE + "service.namespace");
      labels.put("job", namespace == null ? service : namespace + "/" + service);
    }
    String instance = columns.get(SeriesLabels.RESOURCE + "service.instance.id");
    if (instance != null) {
      labels.put("instance", instance);
    }
    return labels;
  }

  private static String sanitize(String name, boolean colons) {
    StringBuilder b = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || (colons && c == ':');
      b.append(ok ? c : '_');
    }
    if (colons && b.length() > 0 && Character.isDigit(b.charAt(0))) {
      b.insert(0, '_');
    }
    return b.toString();
  }

  /**
   * @param unit an OpenTelemetry unit (UCUM), or empty
   * @param gauge whether it is a gauge's
   * @return its Prometheus unit word ({@code seconds}, {@code bytes_per_second}), or empty
   */
  static String unitSuffix(String unit, boolean gauge) {
    if (unit == null || unit.isEmpty()) {
      return "";
    }
    String u = unit.replaceAll("\\{[^}]*}", "").strip();
    if (u.isEmpty()) {
      return "";
    }
    if (u.equals("1")) {
      return gauge ? "ratio" : "";
    }
    int slash = u.indexOf('/');
    if (slash >= 0) {
      String main = UNITS.getOrDefault(u.substring(0, slash), u.substring(0, slash));
      String per = u.substring(slash + 1);
      per = PER_UNITS.getOrDefault(per, per);
      String s = (main.isEmpty() ? "" : main + "_") + "per_" + per;
      return sanitize(s, false);
    }
    return sanitize(UNITS.getOrDefault(u, u), false);
  }
}
