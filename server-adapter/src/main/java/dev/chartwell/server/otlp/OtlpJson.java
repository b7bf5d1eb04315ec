package dev.chartwell.server.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.JsonErrors;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Reads OTLP's JSON encoding into the protobuf encoding of the same request, streaming, so that
 * both encodings are then checked and stored by one decoder. It follows the protobuf JSON mapping
 * with OTLP's changes: trace and span ids are hex (other bytes base64), enums are integers (their
 * names are accepted too), 64-bit integers are strings or numbers, and fields it does not know are
 * ignored. Keys are the lowerCamelCase field names; the original snake_case names are accepted as
 * well. Anything else (a wrong type, a number out of range, bad hex) is a 400 naming the path.
 */
final class OtlpJson {
  /** How deep messages may nest in a request; records are held to a tighter bound later. */
  static final int MAX_DEPTH = 100;

  /**
   * Messages above this depth (a request's resources and their scopes) are written in place with a
   * five-byte length; deeper ones (records and their parts, small) in a buffer of their own, copied
   * once with a minimal length.
   */
  private static final int IN_PLACE_DEPTH = 2;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  // Our own depth bound comes first (an array level per repeated field included);
                  // strings are bounded by the body limit and checked per record later.
                  .maxNestingDepth(4 * MAX_DEPTH)
                  .maxStringLength(Integer.MAX_VALUE)
                  .build())
          .build();

  private static final Pattern JSON_NUMBER =
      Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
  private static final Set<String> HEX_IDS = Set.of("trace_id", "span_id", "parent_span_id");
  private static final BigInteger UNSIGNED_64 = BigInteger.ONE.shiftLeft(64);
  private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS =
      new ConcurrentHashMap<>();

  private final JsonParser p;
  private final long maxBytes;
  private final Buffer[] buffers = new Buffer[MAX_DEPTH + 1];
  private final String[] names = new String[MAX_DEPTH + 1];
  private final int[] indexes = new int[MAX_DEPTH + 1];

  private OtlpJson(JsonParser p, long maxBytes) {
    this.p = p;
    this.maxBytes = maxBytes;
  }

  /**
   * @param json the request body
   * @param type the export request's message type
   * @param maxBytes the largest protobuf encoding allowed (413 beyond)
   * @return the protobuf encoding of the same request
   * @throws ApiException 400 when the body is not the JSON encoding of such a request, 413 when its
   *     protobuf form is larger than allowed
   */
  static byte[] toProtobuf(byte[] json, Descriptor type, long maxBytes) {
    String what = "the body is not an OTLP/JSON " + type.getName();
    if (json.length == 0) {
      throw ApiException.badRequest(what + ": it is empty");
    }
    int invalid = JsonErrors.invalidUtf8At(json);
    if (invalid >= 0) {
      throw ApiException.badRequest(
          what + ": it is not valid UTF-8 (invalid byte sequence at byte offset " + invalid + ")");
    }
    try (JsonParser parser = FACTORY.createParser(json)) {
      OtlpJson reader = new OtlpJson(parser, Math.min(maxBytes, Integer.MAX_VALUE - 8));
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw ApiException.badRequest(what + ": it must be a JSON object");
      }
      Buffer out = reader.buffer(0);
      reader.message(type, out, 0);
      if (parser.nextToken() != null) {
        throw ApiException.badRequest(what + ": there is more after its JSON object");
      }
      return out.toByteArray();
    } catch (JsonProcessingException e) {
      String why =
          JsonErrors.describe(e)
              .replace(
                  "nested deeper than " + Json.MAX_NESTING_DEPTH,
                  "nested deeper than " + 4 * MAX_DEPTH);
      throw ApiException.badRequest(what + ": " + why);
    } catch (Invalid e) {
      throw ApiException.badRequest(what + ": " + e.getMessage());
    } catch (IOException e) {
      throw ApiException.badRequest(what + ": it could not be read");
    }
  }

  /** A value that does not fit its field; the message names the path. */
  private static final class Invalid extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  /** Reads the object the parser is at (its START_OBJECT was read) as a message of type d. */
  private void message(Descriptor d, Buffer out, int depth) throws IOException {
    Map<String, FieldDescriptor> fields = fields(d);
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      FieldDescriptor f = fields.get(name);
      JsonToken value = p.nextToken();
      if (f == null || value == JsonToken.VALUE_NULL) {
        p.skipChildren(); // unknown fields are ignored; null is the default value
        continue;
      }
      names[depth] = name;
      indexes[depth] = -1;
      if (!f.isRepeated()) {
        value(f, out, depth);
      } else if (value != JsonToken.START_ARRAY) {
        throw invalid(depth, "must be an array");
      } else {
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
          indexes[depth] = i;
          if (p.currentToken() == JsonToken.VALUE_NULL) {
            throw invalid(depth, "null is not a valid element");
          }
          value(f, out, depth);
        }
      }
    }
  }

  private void value(FieldDescriptor f, Buffer out, int depth) throws IOException {
    int n = f.getNumber();
    switch (f.getType()) {
      case MESSAGE, GROUP -> {
        if (p.currentToken() != JsonToken.START_OBJECT) {
          throw invalid(depth, "must be an object");
        }
        if (depth + 1 > MAX_DEPTH) {
          throw invalid(depth, "messages nest more than " + MAX_DEPTH + " levels deep");
        }
        if (depth < IN_PLACE_DEPTH) {
          // The envelopes (resources, scopes) are as large as the request: written in place,
          // their length patched in afterwards, so that nothing that size is copied.
          int at = out.beginInPlace(n);
          message(f.getMessageType(), out, depth + 1);
          out.endInPlace(at);
        } else {
          Buffer nested = buffer(depth + 1);
          nested.reset();
          message(f.getMessageType(), nested, depth + 1);
          out.lengthDelimited(n, nested);
        }
      }
      case STRING -> out.lengthDelimited(n, text(depth).getBytes(StandardCharsets.UTF_8));
      case BYTES -> out.lengthDelimited(n, bytes(f, depth));
      case BOOL -> {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
          throw invalid(depth, "must be true or false");
        }
        out.varintField(n, t == JsonToken.VALUE_TRUE ? 1 : 0);
      }
      case ENUM -> out.varintField(n, enumValue(f, depth));
      case INT32 -> out.varintField(n, integer(depth, Integer.MIN_VALUE, Integer.MAX_VALUE));
      case SINT32 ->
          out.varintField(n, zigZag(integer(depth, Integer.MIN_VALUE, Integer.MAX_VALUE)));
      case UINT32 -> out.varintField(n, integer(depth, 0, 0xffffffffL));
      case FIXED32 -> out.fixed32Field(n, (int) integer(depth, 0, 0xffffffffL));
      case SFIXED32 ->
          out.fixed32Field(n, (int) integer(depth, Integer.MIN_VALUE, Integer.MAX_VALUE));
      case INT64 -> out.varintField(n, integer(depth, Long.MIN_VALUE, Long.MAX_VALUE));
      case SINT64 -> out.varintField(n, zigZag(integer(depth, Long.MIN_VALUE, Long.MAX_VALUE)));
      case UINT64 -> out.varintField(n, unsigned(depth));
      case FIXED64 -> out.fixed64Field(n, unsigned(depth));
      case SFIXED64 -> out.fixed64Field(n, integer(depth, Long.MIN_VALUE, Long.MAX_VALUE));
      case DOUBLE -> out.fixed64Field(n, Double.doubleToRawLongBits(real(depth)));
      case FLOAT -> out.fixed32Field(n, Float.floatToRawIntBits((float) real(depth)));
    }
  }

  private String text(int depth) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw invalid(depth, "must be a string");
    }
    return p.getText();
  }

  private byte[] bytes(FieldDescriptor f, int depth) throws IOException {
    String s = text(depth);
    if (HEX_IDS.contains(f.getName())) {
      if (s.length() % 2 != 0) {
        throw invalid(depth, "must be hex digits in pairs, got " + quoted(s));
      }
      byte[] out = new byte[s.length() / 2];
      for (int i = 0; i < out.length; i++) {
        int hi = Character.digit(s.charAt(2 * i), 16);
        int lo = Character.digit(s.charAt(2 * i + 1), 16);
        if (hi < 0 || lo < 0) {
          throw invalid(depth, "must be hex digits, got " + quoted(s));
        }
        out[i] = (byte) (hi << 4 | lo);
      }
      return out;
    }
    try {
      String standard = s.replace('-', '+').replace('_', '/');
      return Base64.getDecoder().decode(standard);
    } catch (IllegalArgumentException e) {
      throw invalid(depth, "must be base64, got " + quoted(s));
    }
  }

  private long enumValue(FieldDescriptor f, int depth) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_STRING) {
      EnumValueDescriptor named = f.getEnumType().findValueByName(p.getText());
      if (named != null) {
        return named.getNumber();
      }
    }
    return integer(depth, Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  /** An integer given as a JSON number or a decimal string, within [min, max]. */
  private long integer(int depth, long min, long max) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
      long v = p.getLongValue();
      if (v >= min && v <= max) {
        return v;
      }
      throw invalid(depth, "must be an integer from " + min + " to " + max + ", got " + v);
    }
    BigInteger v = exactInteger(depth, min + " to " + max);
    if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
      throw invalid(depth, "must be an integer from " + min + " to " + max + ", got " + v);
    }
    return v.longValue();
  }

  /** An unsigned 64-bit integer as a JSON number or a decimal string; its bits as a long. */
  private long unsigned(int depth) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_STRING) {
      try {
        return Long.parseUnsignedLong(p.getText());
      } catch (NumberFormatException e) {
        // other spellings below
      }
    }
    BigInteger v = exactInteger(depth, "0 to 18446744073709551615");
    if (v.signum() < 0 || v.compareTo(UNSIGNED_64) >= 0) {
      throw invalid(depth, "must be an integer from 0 to 18446744073709551615, got " + v);
    }
    return v.longValue();
  }

  private BigInteger exactInteger(int depth, String range) throws IOException {
    JsonToken t = p.currentToken();
    if (t != JsonToken.VALUE_NUMBER_INT
        && t != JsonToken.VALUE_NUMBER_FLOAT
        && t != JsonToken.VALUE_STRING) {
      throw invalid(depth, "must be an integer from " + range);
    }
    try {
      return new BigDecimal(p.getText().strip()).toBigIntegerExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw invalid(depth, "must be an integer from " + range + ", got " + quoted(p.getText()));
    }
  }

  private double real(int depth) throws IOException {
    JsonToken t = p.currentToken();
    double v;
    if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
      v = p.getDoubleValue();
      if (!Double.isFinite(v)) {
        throw invalid(depth, "is out of range (larger than a 64-bit floating-point number)");
      }
      return v;
    }
    if (t == JsonToken.VALUE_STRING) {
      String s = p.getText();
      switch (s) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          if (JSON_NUMBER.matcher(s).matches()) {
            v = Double.parseDouble(s);
            if (Double.isFinite(v)) {
              return v;
            }
          }
      }
    }
    throw invalid(depth, "must be a number (or \"NaN\", \"Infinity\", \"-Infinity\")");
  }

  private static long zigZag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  private Invalid invalid(int depth, String what) {
    StringBuilder path = new StringBuilder();
    for (int i = 0; i <= depth; i++) {
      if (i > 0) {
        path.append('.');
      }
      path.append(names[i]);
      if (indexes[i] >= 0) {
        path.append('[').append(indexes[i]).append(']');
      }
    }
    return new Invalid(path + ": " + what);
  }

  private static String quoted(String s) {
    String clean = s.length() > 60 ? s.substring(0, 60) + "..." : s;
    return "'" + clean.replaceAll("\\p{Cntrl}", "?") + "'";
  }

  private Buffer buffer(int depth) {
    if (buffers[depth] == null) {
      buffers[depth] = new Buffer(maxBytes);
    }
    return buffers[depth];
  }

  /** The JSON keys of a message: lowerCamelCase names, and the original names too. */
  private static Map<String, FieldDescriptor> fields(Descriptor d) {
    return FIELDS.computeIfAbsent(
        d,
        type -> {
          Map<String, FieldDescriptor> m = new HashMap<>();
          for (FieldDescriptor f : type.getFields()) {
            m.put(f.getName(), f);
            m.put(f.getJsonName(), f);
          }
          return Map.copyOf(m);
        });
  }

  /** A growing byte array holding one message's encoding, bounded by the body limit. */
  private static final class Buffer {
    private final long max;
    private byte[] bytes = new byte[256];
    private int size;

    Buffer(long max) {
      this.max = max;
    }

    void reset() {
      size = 0;
    }

    byte[] toByteArray() {
      return java.util.Arrays.copyOf(bytes, size);
    }

    void varintField(int field, long v) {
      varint((long) field << 3);
      varint(v);
    }

    void fixed32Field(int field, int v) {
      varint((long) field << 3 | 5);
      room(4);
      for (int i = 0; i < 4; i++) {
        bytes[size++] = (byte) (v >>> (8 * i));
      }
    }

    void fixed64Field(int field, long v) {
      varint((long) field << 3 | 1);
      room(8);
      for (int i = 0; i < 8; i++) {
        bytes[size++] = (byte) (v >>> (8 * i));
      }
    }

    void lengthDelimited(int field, byte[] data) {
      varint((long) field << 3 | 2);
      varint(data.length);
      room(data.length);
      System.arraycopy(data, 0, bytes, size, data.length);
      size += data.length;
    }

    /**
     * Starts a length-delimited field whose bytes follow in this buffer.
     *
     * @return where its length goes
     */
    int beginInPlace(int field) {
      varint((long) field << 3 | 2);
      room(5);
      int at = size;
      size += 5;
      return at;
    }

    /** Writes the length of the field begun at {@code at}, as a varint padded to five bytes. */
    void endInPlace(int at) {
      int length = size - at - 5;
      for (int i = 0; i < 4; i++) {
        bytes[at + i] = (byte) (((length >>> (7 * i)) & 0x7f) | 0x80);
      }
      bytes[at + 4] = (byte) (length >>> 28);
    }

    void lengthDelimited(int field, Buffer nested) {
      varint((long) field << 3 | 2);
      varint(nested.size);
      room(nested.size);
      System.arraycopy(nested.bytes, 0, bytes, size, nested.size);
      size += nested.size;
    }

    private void varint(long v) {
      room(10);
      while ((v & ~0x7fL) != 0) {
        bytes[size++] = (byte) ((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      bytes[size++] = (byte) v;
    }

    private void room(int n) {
      if ((long) size + n > max) {
        throw new ApiException(
            ErrorCode.PAYLOAD_TOO_LARGE,
            String.format(
                Locale.ROOT, "the request's protobuf form exceeds the limit of %d bytes", max));
      }
      if (size + n > bytes.length) {
        bytes =
            java.util.Arrays.copyOf(
                bytes, (int) Math.min(max, Math.max(bytes.length * 2L, size + n)));
      }
    }
  }
}
