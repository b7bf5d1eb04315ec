package dev.chartwell.server.clickstack;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.expression;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.validation.FieldType;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.util.function.Predicate;

/**
 * The rules of a saved search ({@code ClickStackSavedSearchInput}): a name, a source of the
 * service's warehouse, what it selects, filters ({@code where} in its language, and pinned SQL
 * filters) and orders by, and tags. A replacement is whole: every optional field left out is
 * written with its default.
 */
final class SavedSearchRules {
  static final int MAX_TAGS = 50;
  static final int MAX_TAG_LENGTH = 32;
  static final int MAX_FILTERS = 100;

  private static final FieldType TAG =
      (v, path, p) -> {
        name().check(v, path, p);
        if (v.isTextual() && v.textValue().length() > MAX_TAG_LENGTH) {
          p.add(path, "longer than " + MAX_TAG_LENGTH + " characters");
        }
      };
  private static final ObjectShape SEARCH =
      ObjectShape.of(
          required("name", name()),
          required("sourceId", string()),
          optional("select", expression()),
          optional("where", string()),
          optional("whereLanguage", oneOf("lucene", "sql")),
          optional("orderBy", expression()),
          optional("tags", arrayOf(TAG, MAX_TAGS)),
          optional(
              "filters",
              arrayOf(
                  object(
                      ObjectShape.of(
                          optional("type", oneOf("sql")), required("condition", string()))),
                  MAX_FILTERS)));

  private SavedSearchRules() {}

  /**
   * @param s the saved search (changed in place: defaults written)
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @param p where problems go
   */
  static void check(ObjectNode s, Predicate<String> sourceExists, Problems p) {
    SEARCH.checkBody(s, p);
    if (s.path("sourceId").isTextual()) {
      TileRules.sourceId(s.get("sourceId").textValue(), "sourceId", sourceExists, p);
    }
    for (String text : new String[] {"select", "where", "orderBy"}) {
      if (!s.has(text)) {
        s.put(text, "");
      }
    }
    if (!s.has("whereLanguage")) {
      s.put("whereLanguage", "lucene");
    }
    if (!s.has("tags")) {
      s.putArray("tags");
    }
    if (!s.has("filters")) {
      s.putArray("filters");
    }
    if (s.path("where").isTextual()) {
      TileRules.where(s.get("where").textValue(), s.path("whereLanguage").asText(), "where", p);
    }
    for (int i = 0; s.path("filters").isArray() && i < s.get("filters").size(); i++) {
      if (s.get("filters").get(i).path("condition").isTextual()) {
        TileRules.where(
            s.get("filters").get(i).get("condition").textValue(),
            "sql",
            "filters[" + i + "].condition",
            p);
      }
    }
  }
}
