package dev.chartwell.server.validation;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.integer;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.nullable;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.FieldType.tagged;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.ApiException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectShapeTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final ObjectShape CIRCLE =
      ObjectShape.of(required("kind", string()), required("radius", integer(1, 10)));
  static final ObjectShape LABEL =
      ObjectShape.of(required("kind", string()), optional("text", nullable(string())));
  static final ObjectShape SHAPE =
      ObjectShape.of(
          required("name", name()),
          optional("color", oneOf("red", "blue")),
          optional("note", string()),
          optional("parts", arrayOf(tagged("kind", ordered()), 2)));

  static Map<String, ObjectShape> ordered() {
    Map<String, ObjectShape> m = new LinkedHashMap<>();
    m.put("circle", CIRCLE);
    m.put("label", LABEL);
    return m;
  }

  static List<String> problems(ObjectShape shape, JsonNode body) {
    Problems p = new Problems();
    shape.checkBody(body, p);
    return p.list().stream().map(Problems.Problem::text).toList();
  }

  @Test
  void namesEveryProblemWithItsPath() throws Exception {
    JsonNode body =
        MAPPER.readTree(
            "{\"colour\":1,\"color\":\"green\",\"parts\":[{\"kind\":\"circle\",\"radius\":0},"
                + "{\"kind\":\"square\"}]}");
    assertEquals(
        List.of(
            "colour: unknown field",
            "name: is required",
            "color: must be one of red, blue",
            "parts[0].radius: must be an integer from 1 to 10",
            "parts[1].kind: must be one of circle, label"),
        problems(SHAPE, body));
  }

  @Test
  void eachBranchOfAUnionHasItsOwnFields() throws Exception {
    assertEquals(
        List.of("parts[0].text: unknown field", "parts[1].kind: is required"),
        problems(
            SHAPE,
            MAPPER.readTree(
                "{\"name\":\"n\",\"parts\":[{\"kind\":\"circle\",\"radius\":2,\"text\":\"x\"},{}]}")));
    assertEquals(
        List.of("parts: at most 2 items, got 3"),
        problems(SHAPE, MAPPER.readTree("{\"name\":\"n\",\"parts\":[{},{},{}]}")));
  }

  @Test
  void nullMeansAbsentUnlessTheTypeIsNullable() throws Exception {
    JsonNode body =
        MAPPER.readTree(
            "{\"name\":\"n\",\"note\":null,\"parts\":[{\"kind\":\"label\",\"text\":null}]}");
    assertEquals(List.of(), problems(SHAPE, body));
    assertEquals(
        "{\"name\":\"n\",\"parts\":[{\"kind\":\"label\",\"text\":null}]}", body.toString());
    assertEquals(List.of("name: is required"), problems(SHAPE, MAPPER.readTree("{\"name\":null}")));
  }

  @Test
  void namesFollowTheSharedRulesAndBodiesMustBeObjects() throws Exception {
    assertEquals(
        List.of("name: must not contain control characters (found U+001B at position 2)"),
        problems(SHAPE, MAPPER.readTree("{\"name\":\"a\\u001bb\"}")));
    assertEquals(
        "request body must be a JSON object",
        assertThrows(ApiException.class, () -> problems(SHAPE, MAPPER.readTree("[]")))
            .getMessage());
    assertEquals(
        List.of("parts[0]: must be an object"),
        problems(SHAPE, MAPPER.readTree("{\"name\":\"n\",\"parts\":[1]}")));
    assertEquals(
        List.of("parts[0]: must not be null"),
        problems(SHAPE, MAPPER.readTree("{\"name\":\"n\",\"parts\":[null]}")));
    Problems nested = new Problems();
    object(CIRCLE).check(MAPPER.readTree("\"x\""), "shape", nested);
    assertEquals("shape: must be an object", nested.list().get(0).text());
  }
}
