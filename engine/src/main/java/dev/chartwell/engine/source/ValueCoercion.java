package dev.chartwell.engine.source;

import java.math.BigDecimal;
import java.math.BigInteger;

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

  private static void requireFinite(String field, double d) {
    if (!Double.isFinite(d)) {
      throw new RejectedEventException("field '" + field + "': " + d + " is not a finite number");
    }
  }

  private static RejectedEventException mismatch(
      String field, Object value, ColumnType type, String why) {
    String shown = String.valueOf(value);
    if (shown.length() > 64) {
      shown = shown.substring(0, 64) + "...";
    }
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
