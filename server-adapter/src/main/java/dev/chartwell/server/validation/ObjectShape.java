package dev.chartwell.server.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields a JSON object may have, the type of each and which are required, as a schema of the
 * API declares them. {@link #check} reports unknown fields, missing required fields and each
 * field's type problems with its path. JSON {@code null} in an optional field whose type is not
 * {@link FieldType#nullable} means "absent": the field is removed, so that a stored document never
 * carries a {@code null} the schema does not allow.
 */
public final class ObjectShape {
  /**
   * One field of a shape.
   *
   * @param name the field name
   * @param type its type
   * @param required whether it must be present
   */
  public record Field(String name, FieldType type, boolean required) {
    /**
     * @param name the field name
     * @param type its type
     * @return a required field
     */
    public static Field required(String name, FieldType type) {
      return new Field(name, type, true);
    }

    /**
     * @param name the field name
     * @param type its type
     * @return an optional field
     */
    public static Field optional(String name, FieldType type) {
      return new Field(name, type, false);
    }
  }

  private final Map<String, Field> fields;

  private ObjectShape(Map<String, Field> fields) {
    this.fields = fields;
  }

  /**
   * @param fields the fields
   * @return the shape
   */
  public static ObjectShape of(Field... fields) {
    return new ObjectShape(Map.of()).with(fields);
  }

  /**
   * @param more further fields (replacing any of the same name)
   * @return a new shape with this one's fields and these
   */
  public ObjectShape with(Field... more) {
    Map<String, Field> all = new LinkedHashMap<>(fields);
    for (Field f : more) {
      all.put(f.name(), f);
    }
    return new ObjectShape(java.util.Collections.unmodifiableMap(all));
  }

  /**
   * @return the names of the fields
   */
  public Set<String> fieldNames() {
    return fields.keySet();
  }

  /**
   * Checks a request body.
   *
   * @param body the parsed body
   * @param problems where problems go
   * @throws dev.chartwell.server.http.ApiException 400 at once when the body is not an object
   */
  public void checkBody(JsonNode body, Problems problems) {
    if (!body.isObject()) {
      throw dev.chartwell.server.http.ApiException.badRequest("request body must be a JSON object");
    }
    check(body, "", problems);
  }

  /**
   * Checks an object, removing the {@code null}s that mean "absent".
   *
   * @param node the value
   * @param path its path (empty for a request body)
   * @param problems where problems go
   */
  public void check(JsonNode node, String path, Problems problems) {
    if (!node.isObject()) {
      problems.add(
          path, path.isEmpty() ? "request body must be a JSON object" : "must be an object");
      return;
    }
    List<String> absent = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      Field f = fields.get(e.getKey());
      if (f == null) {
        problems.add(at(path, e.getKey()), "unknown field");
      } else if (e.getValue().isNull() && !f.type().nullable()) {
        absent.add(e.getKey());
      }
    }
    ((ObjectNode) node).remove(absent);
    for (Field f : fields.values()) {
      JsonNode v = node.get(f.name());
      if (v == null) {
        if (f.required()) {
          problems.add(at(path, f.name()), "is required");
        }
      } else {
        f.type().check(v, at(path, f.name()), problems);
      }
    }
  }

  /**
   * @param path an object's path (empty for the body)
   * @param field a field of it
   * @return the field's path
   */
  public static String at(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }
}
