package dev.chartwell.prometheus.promql;

import java.math.BigDecimal;
import java.util.List;

/** Printing of numbers, strings, durations and label lists as PromQL reads them back. */
final class Format {
  private Format() {}

  static String number(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return v == 0 && 1 / v < 0 ? "-0" : Long.toString((long) v);
    }
    return Double.toString(v);
  }

  /** A float as Go's {@code strconv.FormatFloat(v, 'f', -1, 64)} prints it (count_values). */
  static String goFloat(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }

  static String string(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\x%02x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private static final long[] UNIT_MS = {
    365L * 24 * 3600_000, 7L * 24 * 3600_000, 24L * 3600_000, 3600_000, 60_000, 1000, 1
  };
  private static final String[] UNIT = {"y", "w", "d", "h", "m", "s", "ms"};

  static String duration(long ms) {
    if (ms == 0) {
      return "0s";
    }
    StringBuilder b = new StringBuilder();
    long rest = ms;
    for (int i = 0; i < UNIT.length; i++) {
      long n = rest / UNIT_MS[i];
      if (n > 0) {
        b.append(n).append(UNIT[i]);
        rest -= n * UNIT_MS[i];
      }
    }
    return b.toString();
  }

  static String modifiers(long offsetMs, Expr.At at) {
    StringBuilder b = new StringBuilder();
    if (offsetMs != 0) {
      b.append(" offset ").append(offsetMs < 0 ? "-" : "").append(duration(Math.abs(offsetMs)));
    }
    if (at != null) {
      b.append(' ').append(at);
    }
    return b.toString();
  }

  static String labelList(List<String> labels) {
    return "(" + String.join(", ", labels) + ")";
  }
}
