package dev.chartwell.engine.internal.metrics;

import java.util.HashMap;
import java.util.Map;

/**
 * Parses the JSON arrays of numbers that histogram columns hold ({@code [5,10,3,0]}); numbers may
 * also be quoted, as OTLP's JSON writes 64-bit integers. Parsed texts are remembered, since a
 * histogram's bounds repeat on every point.
 */
final class NumberArrays {
  private static final int MAX_REMEMBERED = 4096;

  private final Map<String, double[]> parsed = new HashMap<>();

  /**
   * @param text the column's text, or {@code null}
   * @return the numbers, or {@code null} when the text is not an array of numbers
   */
  double[] parse(String text) {
    if (text == null) {
      return null;
    }
    double[] cached = parsed.get(text);
    if (cached != null) {
      return cached;
    }
    double[] v = parseNew(text.strip());
    if (v != null) {
      if (parsed.size() >= MAX_REMEMBERED) {
        parsed.clear();
      }
      parsed.put(text, v);
    }
    return v;
  }

  private static double[] parseNew(String t) {
    if (t.length() < 2 || t.charAt(0) != '[' || t.charAt(t.length() - 1) != ']') {
      return null;
    }
    String inner = t.substring(1, t.length() - 1).strip();
    if (inner.isEmpty()) {
      return new double[0];
    }
    String[] parts = inner.split(",", -1);
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].strip();
      if (p.length() >= 2 && p.charAt(0) == '"' && p.charAt(p.length() - 1) == '"') {
        p = p.substring(1, p.length() - 1);
      }
      try {
        out[i] = Double.parseDouble(p);
      } catch (NumberFormatException e) {
        return null;
      }
      if (!Double.isFinite(out[i])) {
        return null;
      }
    }
    return out;
  }
}
