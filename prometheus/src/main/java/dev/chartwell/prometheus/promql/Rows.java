package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.promql.Val.Row;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Label and row helpers shared by the evaluator's parts. */
final class Rows {
  private Rows() {}

  static Labels dropName(Labels l) {
    if (l.get(Labels.NAME).isEmpty()) {
      return l;
    }
    return without(l, Set.of(Labels.NAME));
  }

  static Labels without(Labels l, Collection<String> names) {
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < l.size(); i++) {
      if (!names.contains(l.name(i))) {
        m.put(l.name(i), l.value(i));
      }
    }
    return Labels.of(m);
  }

  static Labels only(Labels l, Collection<String> names) {
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < l.size(); i++) {
      if (names.contains(l.name(i))) {
        m.put(l.name(i), l.value(i));
      }
    }
    return Labels.of(m);
  }

  static Labels with(Labels l, String name, String value) {
    Map<String, String> m = new TreeMap<>(l.asMap());
    m.put(name, value);
    return Labels.of(m);
  }

  /**
   * Rows with equal labels become one; two values at the same step are Prometheus' error "vector
   * cannot contain metrics with the same labelset". Rows without any value are left out.
   */
  static List<Row> merge(List<Row> rows) {
    Map<Labels, Row> byLabels = new LinkedHashMap<>();
    boolean merged = false;
    for (Row r : rows) {
      if (!r.anyPresent()) {
        merged = true;
        continue;
      }
      Row prev = byLabels.putIfAbsent(r.labels(), r);
      if (prev != null) {
        merged = true;
        double[] v = prev.v().clone();
        for (int i = 0; i < v.length; i++) {
          if (!Val.absent(r.v()[i])) {
            if (!Val.absent(v[i])) {
              throw PromQlException.execution(
                  "vector cannot contain metrics with the same labelset");
            }
            v[i] = r.v()[i];
          }
        }
        byLabels.put(r.labels(), new Row(r.labels(), v));
      }
    }
    return merged ? new ArrayList<>(byLabels.values()) : rows;
  }

  /** Whether a name may be a label name ({@code [a-zA-Z_][a-zA-Z0-9_]*}). */
  static boolean validLabelName(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          c == '_'
              || (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (i > 0 && c >= '0' && c <= '9');
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  static Set<String> set(List<String> l) {
    return new HashSet<>(l);
  }
}
