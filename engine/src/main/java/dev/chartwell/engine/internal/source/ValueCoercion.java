package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.RejectedEventException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;

/**
 * The type rules of appended values. A new field takes the type of its first value. A value of
 * another type is converted only when nothing is lost: any number or boolean into a string column
 * (as its text), a number into a numeric column when its exact value fits, a numeric string into a
 * numeric column likewise, {@code "true"}/{@code "false"} into a boolean column. Anything else
 * rejects the event.
 */
final class ValueCoercion {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private ValueCoercion() {}

  /**
   * @param field the field name, for messages
   * @param value a non-null value
   * @return the type a new column gets from this first value
   */
  static ColumnType inferType(String field, Object value) {
    if (value instanceof String) {
      return ColumnType.STRING;
    }
    if (value instanceof Boolean) {
      return ColumnType.BOOL;
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger) {
      return ColumnType.LONG;
    }
    if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      return ColumnType.DOUBLE;
    }
    throw unsupported(field, value);
  }

  /**
   * @param field the field name, for messages
   * @param value a non-null value
   * @param type the column's type
   * @return the value as a {@link String}, {@link Long}, {@link Double} or {@link Boolean}
   * @throws RejectedEventException when the value cannot be stored without loss
   */
  static Object coerce(String field, Object value, ColumnType type) {
    return switch (type) {
      case STRING -> toStringValue(field, value);
      case LONG -> toLong(field, value);
      case DOUBLE -> toDouble(field, value);
      case BOOL -> toBool(field, value);
    };
  }

  private static String toStringValue(String field, Object value) {
    if (value instanceof String s) {
      requireValidUnicode(field, s);
      return s;
    }
    if (value instanceof Boolean
        || value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger) {
      return value.toString();
    }
    if (value instanceof BigDecimal d) {
      return d.toString();
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      requireFinite(field, d);
      return Double.toString(d);
    }
    throw unsupported(field, value);
  }

  private static Long toLong(String field, Object value) {
    if (value instanceof Long l) {
      return l; // the common case, exact as it is
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    BigDecimal exact = exactNumber(field, value, ColumnType.LONG);
    if (exact.stripTrailingZeros().scale() > 0
        || exact.compareTo(LONG_MIN) < 0
        || exact.compareTo(LONG_MAX) > 0) {
      throw mismatch(field, value, ColumnType.LONG, "not a whole number in the long range");
    }
    return exact.longValueExact();
  }

  private static Double toDouble(String field, Object value) {
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      requireFinite(field, d);
      return d;
    }
    BigDecimal exact = exactNumber(field, value, ColumnType.DOUBLE);
    double d = exact.doubleValue();
    if (Double.isInfinite(d) || new BigDecimal(d).compareTo(exact) != 0) {
      throw mismatch(field, value, ColumnType.DOUBLE, "not exactly representable as a double");
    }
    return d;
  }

  private static Boolean toBool(String field, Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    if ("true".equals(value)) {
      return Boolean.TRUE;
    }
    if ("false".equals(value)) {
      return Boolean.FALSE;
    }
    throw mismatch(field, value, ColumnType.BOOL, "only true and false are booleans");
  }

  private static BigDecimal exactNumber(String field, Object value, ColumnType target) {
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      requireFinite(field, d);
      return new BigDecimal(d);
    }
    if (value instanceof String s) {
      try {
        return new BigDecimal(s.strip());
      } catch (NumberFormatException e) {
        throw mismatch(field, value, target, "not a number");
      }
    }
    if (value instanceof Boolean) {
      throw mismatch(field, value, target, "a boolean is not a number");
    }
    throw unsupported(field, value);
  }

  /**
   * Segments store strings as UTF-8, where an unpaired surrogate (legal in a Java string and in
   * JSON escapes, but not Unicode text) has no encoding and would come back as '?'.
   */
  private static void requireValidUnicode(String field, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
        continue;
      }
      throw new RejectedEventException(
          String.format(
              Locale.ROOT,
              "field '%s': the string has an unpaired UTF-16 surrogate at index %d (U+%04X); only"
                  + " valid Unicode text can be stored",
              field,
              i,
              (int) c));
    }
  }

  private static void requireFinite(String field, double d) {
    if (!Double.isFinite(d)) {
      throw new RejectedEventException("field '" + field + "': " + d + " is not a finite number");
    }
  }

  private static RejectedEventException mismatch(
      String field, Object value, ColumnType type, String why) {
    String shown = shown(String.valueOf(value));
    String quoted = value instanceof String ? "'" + shown + "'" : shown;
    return new RejectedEventException(
        "field '"
            + field
            + "' is a "
            + type.wireName()
            + " column; "
            + quoted
            + " cannot be stored in it ("
            + why
            + ")");
  }

  /**
   * A value as quoted in a message: at most 64 characters, never cut inside a surrogate pair, and
   * unpaired surrogates shown as U+FFFD so that the message is text (it may be written as JSON).
   */
  private static String shown(String value) {
    int end = value.length();
    if (end > 64) {
      end =
          Character.isLowSurrogate(value.charAt(64)) && Character.isHighSurrogate(value.charAt(63))
              ? 63
              : 64;
    }
    StringBuilder out = new StringBuilder(end + 3);
    for (int i = 0; i < end; i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < end
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        out.append(c).append(value.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return end < value.length() ? out.append("...").toString() : out.toString();
  }

  private static RejectedEventException unsupported(String field, Object value) {
    String what;
    if (value instanceof java.util.Collection<?> || value.getClass().isArray()) {
      what = "a list";
    } else if (value instanceof java.util.Map<?, ?>) {
      what = "an object";
    } else {
      what = "a value of an unsupported type";
    }
    return new RejectedEventException(
        "field '" + field + "': " + what + " cannot be stored (use strings, numbers or booleans)");
  }
}
