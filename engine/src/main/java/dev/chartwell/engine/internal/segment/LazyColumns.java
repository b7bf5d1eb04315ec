package dev.chartwell.engine.internal.segment;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The columns of a head's part built by a query for itself (the rows that arrived since the last
 * part), each built when a query first reads it: a count with a where reads one or two of a log's
 * dozen columns, and the rest of the part's rows are never sorted into columns unless asked for.
 * Thread-safe: the queries sharing the part may ask for its columns at once; each is built once.
 */
final class LazyColumns {
  private final List<String> names;
  private final Function<String, Column> build;
  private final Map<String, Column> built = new HashMap<>(); // guarded by this; null: no values

  /**
   * @param names the columns, in the order they appeared
   * @param build builds one of them ({@code null} when none of the rows has a value)
   */
  LazyColumns(List<String> names, Function<String, Column> build) {
    this.names = List.copyOf(names);
    this.build = build;
  }

  /**
   * @param name a column name
   * @return the column, built now unless it was before, or {@code null} when no row has a value
   */
  synchronized Column get(String name) {
    if (built.containsKey(name)) {
      return built.get(name);
    }
    Column c = names.contains(name) ? build.apply(name) : null;
    built.put(name, c);
    return c;
  }

  /**
   * @return every column that has a value, in the order they appeared (each built now unless it was
   *     before)
   */
  synchronized Map<String, Column> all() {
    Map<String, Column> out = new LinkedHashMap<>();
    for (String name : names) {
      Column c = get(name);
      if (c != null) {
        out.put(name, c);
      }
    }
    return Collections.unmodifiableMap(out);
  }
}
