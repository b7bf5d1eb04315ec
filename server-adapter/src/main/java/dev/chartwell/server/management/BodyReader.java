package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.ApiException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a JSON request object field by field, collecting every problem with its path (unknown
 * fields, wrong types, missing or invalid values) so that one 400 names them all.
 */
final class BodyReader {
  private final JsonNode body;
  private final String prefix;
  private final List<String> problems;

  private BodyReader(JsonNode body, String prefix, List<String> problems) {
    this.body = body;
    this.prefix = prefix;
    this.problems = problems;
  }

  /**
   * @param body the parsed body
   * @param allowed the fields the endpoint knows
   * @return a reader; a body that is not an object or has unknown fields is already a problem
   */
  static BodyReader of(JsonNode body, Set<String> allowed) {
    List<String> problems = new ArrayList<>();
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    Iterator<String> names = body.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!allowed.contains(name)) {
        problems.add(name + ": unknown field");
      }
    }
    return new BodyReader(body, "", problems);
  }

  /**
   * @param field a field name
   * @param required whether it must be present
   * @return the string, if present and a string
   */
  Optional<String> string(String field, boolean required) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(prefix + field + ": is required");
      }
      return Optional.empty();
    }
    if (!v.isTextual()) {
      problems.add(prefix + field + ": must be a string");
      return Optional.empty();
    }
    return Optional.of(v.textValue());
  }

  /**
   * @param field a field name
   * @param required whether it must be present
   * @return the strings, if present and an array of strings
   */
  Optional<List<String>> strings(String field, boolean required) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(prefix + field + ": is required");
      }
      return Optional.empty();
    }
    if (!v.isArray()) {
      problems.add(prefix + field + ": must be an array of strings");
      return Optional.empty();
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isTextual()) {
        problems.add(prefix + field + "[" + i + "]: must be a string");
      } else {
        out.add(v.get(i).textValue());
      }
    }
    return Optional.of(out);
  }

  /**
   * @param field a field name
   * @return the number, if present and a number
   */
  Optional<Double> number(String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isNumber()) {
      problems.add(prefix + field + ": must be a number");
      return Optional.empty();
    }
    return Optional.of(v.doubleValue());
  }

  /**
   * @param field a field name
   * @return the integer, if present and a whole number
   */
  Optional<Long> integer(String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isIntegralNumber() && !(v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue()))) {
      problems.add(prefix + field + ": must be an integer");
      return Optional.empty();
    }
    return Optional.of(v.longValue());
  }

  /**
   * @param field a field name
   * @return the boolean, if present and a boolean
   */
  Optional<Boolean> bool(String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isBoolean()) {
      problems.add(prefix + field + ": must be true or false");
      return Optional.empty();
    }
    return Optional.of(v.booleanValue());
  }

  /**
   * @param field a field name
   * @return the raw node, if present and not null
   */
  Optional<JsonNode> node(String field) {
    JsonNode v = body.get(field);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
  }

  /**
   * @param field a field name
   * @return whether the body has the field (even as null)
   */
  boolean has(String field) {
    return body.has(field);
  }

  /**
   * @param problem a problem found by the caller, starting with its field path
   */
  void problem(String problem) {
    problems.add(prefix + problem);
  }

  /**
   * @throws ApiException 400 naming every problem found, if any
   */
  void finish() {
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
  }
}
