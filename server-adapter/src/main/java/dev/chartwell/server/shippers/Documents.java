package dev.chartwell.server.shippers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.charts.JsonFields;
import dev.chartwell.server.http.JsonErrors;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads one JSON document (an Elasticsearch source line) into an event's fields as our NDJSON
 * ingestion does: strict UTF-8, then {@link JsonFields}' rule (flattening, nesting and number
 * limits); the engine refuses too many fields and too long names when it stores the event. Problems
 * are thrown as {@link Invalid} with a message in our words.
 */
final class Documents {
  /** A document that cannot become an event, and why. */
  static final class Invalid extends Exception {
    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  private final ObjectMapper mapper;

  Documents(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * @param bytes the body
   * @param from where the document starts
   * @param to where it ends (exclusive)
   * @return its fields, flattened
   * @throws Invalid when it is not strict UTF-8, not one JSON object, or too deep
   */
  Map<String, Object> read(byte[] bytes, int from, int to) throws Invalid {
    for (int i = from; i < to; i++) {
      if (bytes[i] < 0) {
        try {
          JsonErrors.strictUtf8(bytes, from, to - from);
        } catch (CharacterCodingException e) {
          throw new Invalid(
              "not valid UTF-8 (invalid byte sequence at byte "
                  + (JsonErrors.invalidUtf8At(java.util.Arrays.copyOfRange(bytes, from, to)) + 1)
                  + " of the document)");
        }
        break;
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    try (JsonParser p = mapper.createParser(bytes, from, to - from)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new Invalid("the document must be a JSON object");
      }
      JsonFields.read(p, out);
      if (p.nextToken() != null) {
        throw new Invalid("more than one JSON value on the document's line");
      }
    } catch (JsonFields.Refused e) {
      throw new Invalid(e.getMessage());
    } catch (JsonProcessingException e) {
      throw new Invalid(JsonErrors.describeInLine(e));
    } catch (IOException e) {
      throw new Invalid("unreadable document: " + e.getMessage());
    }
    return out;
  }

  /**
   * An event time from a document's field.
   *
   * @param field the field's name, for messages
   * @param v its value: epoch milliseconds, epoch nanoseconds (integers from 10^17), or an ISO-8601
   *     text with an offset
   * @return epoch milliseconds
   * @throws Invalid otherwise
   */
  static long millis(String field, Object v) throws Invalid {
    if (v instanceof Long n) {
      if (n <= 0) {
        throw new Invalid(field + ": must be a positive epoch timestamp");
      }
      return n >= 100_000_000_000_000_000L ? n / 1_000_000 : n;
    }
    if (v instanceof String s) {
      try {
        return OffsetDateTime.parse(s).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        try {
          return Instant.parse(s).toEpochMilli();
        } catch (DateTimeParseException e2) {
          throw new Invalid(
              field
                  + ": '"
                  + (s.length() > 64 ? s.substring(0, 64) + "..." : s)
                  + "' is not an ISO-8601 timestamp with an offset (e.g. 2026-11-21T10:15:30Z)");
        }
      }
    }
    throw new Invalid(field + ": must be epoch milliseconds or an ISO-8601 string");
  }
}
