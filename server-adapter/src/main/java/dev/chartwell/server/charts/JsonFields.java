package dev.chartwell.server.charts;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * How a JSON object becomes an event's fields, the one rule of every JSON way in (our NDJSON lines
 * and JSON arrays, Elasticsearch documents) wherever the byte reader ({@link LineParser}) leaves a
 * line to Jackson: nested objects flattened with {@code .}, arrays kept as their JSON text, {@code
 * null} absent, integers as {@link Long} (or {@link java.math.BigInteger} past 64 bits, which the
 * engine stores only where it fits exactly), other numbers as {@link Double} (never {@code -0.0}).
 * Nesting deeper than {@link #MAX_DEPTH} and numbers too large for a double are refused, naming the
 * field.
 */
public final class JsonFields {
  /**
   * The deepest nesting of objects and arrays an event may have: the server's JSON limit, enforced
   * here too for parsers that do not carry it (a tree's).
   */
  public static final int MAX_DEPTH = dev.chartwell.server.http.Json.MAX_NESTING_DEPTH;

  private static final JsonFactory TEXT = new JsonFactory();

  private JsonFields() {}

  /** An object that cannot become an event's fields, and why, in our words. */
  public static final class Refused extends Exception {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Reads the members of the object the parser has just entered (its current token is {@code
   * START_OBJECT}), up to and including its {@code END_OBJECT}.
   *
   * @param p the parser
   * @param out where the flattened fields go, in order
   * @throws IOException when the JSON is malformed
   * @throws Refused when it nests too deep or holds a number too large for a double
   */
  public static void read(JsonParser p, Map<String, Object> out) throws IOException, Refused {
    object(p, "", out, 1);
  }

  private static void object(JsonParser p, String prefix, Map<String, Object> out, int depth)
      throws IOException, Refused {
    if (depth > MAX_DEPTH) {
      throw tooDeep(prefix);
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
                    ? p.getBigIntegerValue()
                    : (Object) p.getLongValue());
        case VALUE_NUMBER_FLOAT -> out.put(name, finite(name, p.getDoubleValue()));
        default -> {} // null: absent
      }
    }
  }

  /** The array the parser has just entered, as its JSON text, checked as it is copied. */
  private static String array(JsonParser p, String name, int depth) throws IOException, Refused {
    if (depth > MAX_DEPTH) {
      throw tooDeep(name);
    }
    JsonStreamContext outside = p.getParsingContext().getParent();
    StringWriter text = new StringWriter();
    try (JsonGenerator out = TEXT.createGenerator(text)) {
      out.writeStartArray();
      for (int level = 1; level > 0; ) {
        JsonToken t = p.nextToken();
        if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
          if (depth + level++ > MAX_DEPTH) {
            throw tooDeep(name);
          }
        } else if (t == JsonToken.END_ARRAY || t == JsonToken.END_OBJECT) {
          level--;
        } else if (t == JsonToken.VALUE_NUMBER_FLOAT && !Double.isFinite(p.getDoubleValue())) {
          finite(pathIn(p, name, outside), p.getDoubleValue());
        }
        out.copyCurrentEvent(p);
      }
    }
    return text.toString();
  }

  /** Where the parser is in the array that is the value of {@code name}: {@code name[3].x[0]}. */
  private static String pathIn(JsonParser p, String name, JsonStreamContext outside) {
    Deque<String> parts = new ArrayDeque<>();
    for (JsonStreamContext c = p.getParsingContext(); c != outside; c = c.getParent()) {
      parts.push(c.inArray() ? "[" + c.getCurrentIndex() + "]" : "." + c.getCurrentName());
    }
    return name + String.join("", parts);
  }

  private static double finite(String name, double d) throws Refused {
    if (!Double.isFinite(d)) {
      throw new Refused(
          name + ": number out of range (larger than a 64-bit floating-point number)");
    }
    return d == 0 ? 0.0 : d;
  }

  private static Refused tooDeep(String name) {
    return new Refused("nested deeper than " + MAX_DEPTH + " levels at '" + name + "'");
  }
}
