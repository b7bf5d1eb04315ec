package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading the fields of the explore routes' requests, each problem named by its field. */
final class Params {
  private Params() {}

  /**
   * @param req a request
   * @param name a query parameter holding an ISO-8601 time
   * @return the time, if given
   * @throws ApiException 400 naming the parameter when it is not such a time
   */
  static Optional<Instant> time(Request req, String name) {
    Optional<String> v = req.queryParam(name);
    if (v.isEmpty()) {
      return Optional.empty();
    }
    Instant t = parseTime(v.get());
    if (t == null) {
      throw ApiException.badRequest(name + ": " + TIME_RULE);
    }
    return Optional.of(t);
  }

  /**
   * The body of an explore route's request.
   *
   * @param req the request
   * @param json the JSON codec
   * @param fields the fields the route reads
   * @param problems where a field the route does not read is named
   * @return the body, a JSON object
   * @throws IOException when the body cannot be read
   * @throws ApiException 400 when it is not a JSON object
   */
  static JsonNode object(Request req, Json json, Set<String> fields, List<String> problems)
      throws IOException {
    JsonNode body = json.readTree(req.bodyBytes());
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    body.fieldNames()
        .forEachRemaining(
            f -> {
              if (!fields.contains(f)) {
                problems.add(f + ": unknown field");
              }
            });
    return body;
  }

  /**
   * @param body a JSON object
   * @param maxLength the longest id allowed
   * @param problems where a problem is added
   * @return its required {@code sourceId}, or {@code null} when absent or wrong
   */
  static String sourceId(JsonNode body, int maxLength, List<String> problems) {
    String id = text(body, "sourceId", maxLength, problems);
    if (id == null && !body.hasNonNull("sourceId")) {
      problems.add("sourceId: is required");
    }
    return id;
  }

  /**
   * @param body a JSON object
   * @param problems where a problem is added
   * @return its {@code whereLanguage} (Lucene when absent), or {@code null} when wrong
   */
  static WhereLanguage whereLanguage(JsonNode body, List<String> problems) {
    String language = text(body, "whereLanguage", 16, problems);
    WhereLanguage lang =
        language == null ? WhereLanguage.LUCENE : WhereLanguage.fromWireName(language).orElse(null);
    if (lang == null) {
      problems.add("whereLanguage: must be one of lucene, sql");
    }
    return lang;
  }

  static final String TIME_RULE =
      "must be an ISO-8601 time with an offset, such as 2026-05-10T00:00:00Z";

  private static Instant parseTime(String t) {
    try {
      return OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * @param body a JSON object
   * @param field its field
   * @param maxLength the longest text allowed
   * @param problems where a problem is added
   * @return the text, or {@code null} when absent or wrong
   */
  static String text(JsonNode body, String field, int maxLength, List<String> problems) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      problems.add(field + ": must be a string");
      return null;
    }
    if (v.textValue().length() > maxLength) {
      problems.add(field + ": longer than " + maxLength + " characters");
      return null;
    }
    return v.textValue();
  }

  /**
   * @param body a JSON object
   * @param field its field holding an ISO-8601 time
   * @param problems where a problem is added
   * @return the time, or {@code null} when absent or wrong
   */
  static Instant time(JsonNode body, String field, List<String> problems) {
    String t = text(body, field, 64, problems);
    if (t == null) {
      return null;
    }
    Instant i = parseTime(t);
    if (i == null) {
      problems.add(field + ": " + TIME_RULE);
    }
    return i;
  }

  /**
   * @param body a JSON object
   * @param field its integer field
   * @param dflt the value when absent
   * @param min the least allowed
   * @param max the most allowed
   * @param problems where a problem is added
   * @return the value
   */
  static int integer(
      JsonNode body, String field, int dflt, int min, int max, List<String> problems) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < min || v.intValue() > max) {
      problems.add(field + ": must be an integer from " + min + " to " + max);
      return dflt;
    }
    return v.intValue();
  }

  private static final Pattern MAP_KEY = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\['([^']+)'\\]");

  /**
   * @param asked a column name as a request gives it
   * @return the flattened column it names: backquotes dropped, {@code Map['key']} read as {@code
   *     Map.key}
   */
  static String columnName(String asked) {
    String name = asked.strip().replace("`", "");
    Matcher m = MAP_KEY.matcher(name);
    return m.matches() ? m.group(1) + "." + m.group(2) : name;
  }
}
