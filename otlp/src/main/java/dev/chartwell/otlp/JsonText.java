package dev.chartwell.otlp;

/**
 * A small JSON writer for the values stored as JSON text (arrays, key-value lists, the nested
 * columns of events, links, exemplars and buckets). It writes what it is told in order; commas go
 * before every element but the first of an array or object.
 */
final class JsonText {
  private final StringBuilder sb = new StringBuilder();
  private boolean first = true;

  void beginArray() {
    sb.append('[');
    first = true;
  }

  void endArray() {
    sb.append(']');
    first = false;
  }

  void beginObject() {
    sb.append('{');
    first = true;
  }

  void endObject() {
    sb.append('}');
    first = false;
  }

  /** Separates an array element from the one before it. */
  void comma() {
    if (!first) {
      sb.append(',');
    }
    first = true;
  }

  /** Writes an object key (and the comma before it when needed). */
  void key(String key) {
    comma();
    string(key);
    sb.append(':');
    first = true;
  }

  void raw(String json) {
    sb.append(json);
    first = false;
  }

  /** A double as a JSON number, or as a string when it has no JSON form (NaN, infinities). */
  void number(double d) {
    if (Double.isFinite(d)) {
      raw(Double.toString(d));
    } else {
      string(Double.toString(d));
    }
  }

  /** An unsigned 64-bit integer as a JSON number. */
  void unsigned(long v) {
    raw(Long.toUnsignedString(v));
  }

  void string(String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
    first = false;
  }

  @Override
  public String toString() {
    return sb.toString();
  }
}
