package dev.chartwell.bench.http;

import java.util.Map;

/** The {@code --flag value} pairs of a command. */
final class Flags {
  private final Map<String, String> values;

  /**
   * @param values flag names (without {@code --}) to values
   */
  Flags(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  /**
   * @param name a flag
   * @return its value
   * @throws IllegalArgumentException when it was not given
   */
  String required(String name) {
    String v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  /**
   * @param name a flag
   * @param otherwise its default
   * @return its value, or the default
   */
  String get(String name, String otherwise) {
    return values.getOrDefault(name, otherwise);
  }

  /**
   * @param name a flag
   * @return whether it was given
   */
  boolean has(String name) {
    return values.containsKey(name);
  }

  /**
   * @param name a flag
   * @param otherwise its default
   * @return its value as an integer
   * @throws IllegalArgumentException naming the flag when it is not one
   */
  int integer(String name, int otherwise) {
    String v = values.get(name);
    try {
      return v == null ? otherwise : Integer.parseInt(v.replace("_", "").replace(",", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + v + "'");
    }
  }
}
