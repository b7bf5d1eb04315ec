package dev.chartwell.server.shippers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * ingestion does: strict UTF-8, nested objects flattened with {@code .}, arrays kept as their JSON
 * text, {@code null} absent, integers as longs, other numbers as doubles. Nesting deeper than
 * {@link #MAX_DEPTH} is refused; the engine refuses too many fields and too long names when it
 * stores the event. Problems are thrown as {@link Invalid} with a message in our words.
 */
final class Documents {
  /** The deepest nesting of objects and arrays a document may have. */
  static final int MAX_DEPTH = 32;

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
      object(p, "", out, 1);
      if (p.nextToken() != null) {
        throw new Invalid("more than one JSON value on the document's line");
      }
    } catch (JsonProcessingException e) {
      throw new Invalid(JsonErrors.describeInLine(e));
    } catch (IOException e) {
      throw new Invalid("unreadable document: " + e.getMessage());
    }
    return out;
  }

  private void object(JsonParser p, String prefix, Map<String, Object> out, int depth)
      throws IOException, Invalid {
    if (depth > MAX_DEPTH) {
      throw new Invalid("nested deeper than " + MAX_DEPTH + " levels at '" + prefix + "'");
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = prefix.isEmpty() ? p.currentName() : prefix + "." + p.currentName();
      switch (p.nextToken()) {
        case START_OBJECT -> object(p, name, out, depth + 1);
        case START_ARRAY -> out.put(name, array(p, name, depth + 1));
        case VALUE_STRING -> out.put(name, p.getText());
        case VALUE_TRUE -> out.put(name, Boolean.TRUE);
        case VALUE_FALSE -> out.put(name, Boolean.FALSE);
        case VALUE_NUMBER_INT ->
            out.put(
                name,
                p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? (Object) p.getDoubleValue()
                    : (Object) p.getLongValue());
        case VALUE_NUMBER_FLOAT -> {
          double d = p.getDoubleValue();
          if (!Double.isFinite(d)) {
            throw new Invalid(
                name + ": number out of range (larger than a 64-bit floating-point number)");
          }
          out.put(name, d == 0 ? 0.0 : d);
        }
        default -> {} // null: absent
      }
    }
  }

  /** The array the parser has just entered, as its JSON text, its depth checked as it goes. */
  private String array(JsonParser p, String name, int depth) throws IOException, Invalid {
    java.io.StringWriter text = new java.io.StringWriter();
    try (var gen = mapper.getFactory().createGenerator(text)) {
      gen.writeStartArray();
      int level = 1;
      while (level > 0) {
        JsonToken t = p.nextToken();
        if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
          level++;
          if (depth + level - 1 > MAX_DEPTH) {
            throw new Invalid("nested deeper than " + MAX_DEPTH + " levels at '" + name + "'");
          }
        } else if (t == JsonToken.END_ARRAY || t == JsonToken.END_OBJECT) {
          level--;
        } else if (t == JsonToken.VALUE_NUMBER_FLOAT && !Double.isFinite(p.getDoubleValue())) {
          throw new Invalid(
              name + ": number out of range (larger than a 64-bit floating-point number)");
        }
        gen.copyCurrentEvent(p);
      }
    }
    return text.toString();
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
