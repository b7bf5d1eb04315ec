package dev.chartwell.server.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * What a JSON value must be: a string, a name, one of some words, an array of something, an object
 * of some {@link ObjectShape}, one of several shapes told apart by a tag field. A check adds what
 * it finds to the {@link Problems}, each naming the value's path.
 */
@FunctionalInterface
public interface FieldType {
  /**
   * Checks a value that is present and, unless the type is {@link #nullable}, not JSON null.
   *
   * @param value the value
   * @param path its path
   * @param problems where problems go
   */
  void check(JsonNode value, String path, Problems problems);

  /**
   * @return whether JSON {@code null} is a value of this type (else it means "absent")
   */
  default boolean nullable() {
    return false;
  }

  /**
   * @param type a type
   * @return the same type, also accepting {@code null} (kept as given)
   */
  static FieldType nullable(FieldType type) {
    return new FieldType() {
      @Override
      public void check(JsonNode value, String path, Problems problems) {
        if (!value.isNull()) {
          type.check(value, path, problems);
        }
      }

      @Override
      public boolean nullable() {
        return true;
      }
    };
  }

  /**
   * @return any string
   */
  static FieldType string() {
    return (v, path, p) -> {
      if (!v.isTextual()) {
        p.add(path, "must be a string");
      }
    };
  }

  /**
   * @return a name ({@link Names#name(String, String)})
   */
  static FieldType name() {
    return (v, path, p) -> {
      if (!v.isTextual()) {
        p.add(path, "must be a string");
      } else {
        p.name(path, v.textValue());
      }
    };
  }

  /**
   * @return a field name or expression ({@link Names#expression})
   */
  static FieldType expression() {
    return (v, path, p) -> {
      if (!v.isTextual()) {
        p.add(path, "must be a string");
      } else {
        p.expression(path, v.textValue());
      }
    };
  }

  /**
   * @return {@code true} or {@code false}
   */
  static FieldType bool() {
    return (v, path, p) -> {
      if (!v.isBoolean()) {
        p.add(path, "must be true or false");
      }
    };
  }

  /**
   * @param min the least value
   * @param max the greatest value
   * @return a whole number in that range
   */
  static FieldType integer(long min, long max) {
    return (v, path, p) -> {
      boolean whole =
          v.isIntegralNumber() || (v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue()));
      if (!whole || !v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
        p.add(
            path,
            max >= Integer.MAX_VALUE
                ? "must be an integer of at least " + min
                : "must be an integer from " + min + " to " + max);
      }
    };
  }

  /**
   * @return any number
   */
  static FieldType number() {
    return (v, path, p) -> {
      if (!v.isNumber()) {
        p.add(path, "must be a number");
      }
    };
  }

  /**
   * @param words the allowed words
   * @return one of them
   */
  static FieldType oneOf(List<String> words) {
    return (v, path, p) -> {
      if (!v.isTextual() || !words.contains(v.textValue())) {
        p.add(path, "must be one of " + String.join(", ", words));
      }
    };
  }

  /**
   * @param words the allowed words
   * @return one of them
   */
  static FieldType oneOf(String... words) {
    return oneOf(List.of(words));
  }

  /**
   * @param item the type of each element
   * @return an array of such elements, of any length
   */
  static FieldType arrayOf(FieldType item) {
    return arrayOf(item, Integer.MAX_VALUE);
  }

  /**
   * @param item the type of each element
   * @param maxItems the most elements allowed
   * @return an array of at most that many such elements
   */
  static FieldType arrayOf(FieldType item, int maxItems) {
    return (v, path, p) -> {
      if (!v.isArray()) {
        p.add(path, "must be an array");
        return;
      }
      if (v.size() > maxItems) {
        p.add(path, "at most " + maxItems + " items, got " + v.size());
        return;
      }
      for (int i = 0; i < v.size(); i++) {
        JsonNode e = v.get(i);
        String at = path + "[" + i + "]";
        if (e.isNull() && !item.nullable()) {
          p.add(at, "must not be null");
        } else {
          item.check(e, at, p);
        }
      }
    };
  }

  /**
   * @param shape the object's shape
   * @return an object of that shape
   */
  static FieldType object(ObjectShape shape) {
    return shape::check;
  }

  /**
   * @return an object whose values are all strings (HTTP headers, query parameters)
   */
  static FieldType stringMap() {
    return (v, path, p) -> {
      if (!v.isObject()) {
        p.add(path, "must be an object of strings");
        return;
      }
      v.fields()
          .forEachRemaining(
              e -> {
                if (!e.getValue().isTextual()) {
                  p.add(path + "." + e.getKey(), "must be a string");
                }
              });
    };
  }

  /**
   * @return any object (kept as given)
   */
  static FieldType anyObject() {
    return (v, path, p) -> {
      if (!v.isObject()) {
        p.add(path, "must be an object");
      }
    };
  }

  /**
   * @return an ISO-8601 date and time with an offset, such as {@code 2026-02-08T10:00:00Z}
   */
  static FieldType dateTime() {
    return (v, path, p) -> {
      if (!v.isTextual() || !isDateTime(v.textValue())) {
        p.add(
            path, "must be an ISO-8601 date and time with an offset, such as 2026-02-08T10:00:00Z");
      }
    };
  }

  /**
   * @param text a text
   * @return whether it is an ISO-8601 date and time with an offset
   */
  static boolean isDateTime(String text) {
    try {
      OffsetDateTime.parse(text);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /**
   * One of several object shapes, chosen by the value of a tag field (a discriminator such as
   * {@code kind} or {@code displayType}); each branch is checked by its own rules.
   *
   * @param tag the tag field
   * @param branches the shape of each tag value, in the order the error text lists them
   * @return the union
   */
  static FieldType tagged(String tag, Map<String, ObjectShape> branches) {
    List<String> tags = List.copyOf(branches.keySet());
    return (v, path, p) -> {
      if (!v.isObject()) {
        p.add(path, "must be an object");
        return;
      }
      JsonNode t = v.get(tag);
      ObjectShape branch = t != null && t.isTextual() ? branches.get(t.textValue()) : null;
      if (t == null || t.isNull()) {
        p.add(ObjectShape.at(path, tag), "is required");
      } else if (branch == null) {
        p.add(ObjectShape.at(path, tag), "must be one of " + String.join(", ", tags));
      } else {
        branch.check(v, path, p);
      }
    };
  }
}
