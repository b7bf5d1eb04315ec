package dev.chartwell.prometheus;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable label set, sorted by name, without empty values (Prometheus treats an empty value as
 * an absent label). {@code __name__} is an ordinary label here.
 */
public final class Labels implements Comparable<Labels> {
  /** The metric name label. */
  public static final String NAME = "__name__";

  /** The empty label set. */
  public static final Labels EMPTY = new Labels(new String[0], new String[0]);

  private final String[] names;
  private final String[] values;
  private int hash;

  private Labels(String[] names, String[] values) {
    this.names = names;
    this.values = values;
  }

  /**
   * A label set from a map; entries with an empty value are left out.
   *
   * @param labels name to value
   * @return the sorted label set
   */
  public static Labels of(Map<String, String> labels) {
    String[] n =
        labels.entrySet().stream()
            .filter(e -> e.getValue() != null && !e.getValue().isEmpty())
            .map(Map.Entry::getKey)
            .sorted()
            .toArray(String[]::new);
    String[] v = new String[n.length];
    for (int i = 0; i < n.length; i++) {
      v[i] = labels.get(n[i]);
    }
    return new Labels(n, v);
  }

  /**
   * A label set from alternating names and values, e.g. {@code of("__name__", "up", "job", "a")}.
   *
   * @param namesAndValues name, value, name, value, ...
   * @return the sorted label set
   */
  public static Labels of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("labels come in name, value pairs");
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return of(m);
  }

  /**
   * The number of labels.
   *
   * @return how many labels
   */
  public int size() {
    return names.length;
  }

  /**
   * The i-th label name in sorted order.
   *
   * @param i index, 0 ≤ i &lt; {@link #size()}
   * @return the name
   */
  public String name(int i) {
    return names[i];
  }

  /**
   * The i-th label value in name order.
   *
   * @param i index, 0 ≤ i &lt; {@link #size()}
   * @return the value
   */
  public String value(int i) {
    return values[i];
  }

  /**
   * A label's value.
   *
   * @param name the label name
   * @return its value, or {@code ""} when absent (as Prometheus reads a missing label)
   */
  public String get(String name) {
    int i = Arrays.binarySearch(names, name);
    return i < 0 ? "" : values[i];
  }

  /**
   * The metric name.
   *
   * @return the value of {@code __name__}, or {@code ""}
   */
  public String metricName() {
    return get(NAME);
  }

  /**
   * The labels as an ordered map (sorted by name).
   *
   * @return an unmodifiable map
   */
  public Map<String, String> asMap() {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      m.put(names[i], values[i]);
    }
    return Collections.unmodifiableMap(m);
  }

  /**
   * Whether every matcher matches this label set.
   *
   * @param matchers the selector's matchers
   * @return true when the series is selected
   */
  public boolean matches(Iterable<LabelMatcher> matchers) {
    for (LabelMatcher m : matchers) {
      if (!m.matches(get(m.name()))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int compareTo(Labels o) {
    int n = Math.min(names.length, o.names.length);
    for (int i = 0; i < n; i++) {
      int c = names[i].compareTo(o.names[i]);
      if (c != 0) {
        return c;
      }
      c = values[i].compareTo(o.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(names.length, o.names.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Labels l
        && Arrays.equals(names, l.names)
        && Arrays.equals(values, l.values);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Objects.hash(Arrays.hashCode(names), Arrays.hashCode(values));
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(names[i]).append("=\"").append(values[i]).append('"');
    }
    return b.append('}').toString();
  }
}
