package dev.chartwell.otlp;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import java.util.Base64;
import java.util.List;

/**
 * How an OTLP value ({@code AnyValue}) is stored: as text, the way the ClickHouse exporter fills
 * its {@code Map(String, String)} columns, so that one attribute can carry values of different
 * types without a record being refused. Nothing is lost: strings as they are, booleans as {@code
 * true}/{@code false}, integers in decimal, doubles in the shortest text that reads back as the
 * same double ({@code NaN}, {@code Infinity}, {@code -Infinity} for the non-finite ones), bytes in
 * base64, arrays and key-value lists as JSON whose scalars keep their JSON type (bytes as base64
 * strings, non-finite doubles as strings). A value without any of these is the empty string.
 */
final class AnyValues {
  private AnyValues() {}

  /**
   * @param v a value
   * @return its stored text
   */
  static String text(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case BOOL_VALUE -> v.getBoolValue() ? "true" : "false";
      case INT_VALUE -> Long.toString(v.getIntValue());
      case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
      case BYTES_VALUE -> base64(v.getBytesValue());
      case ARRAY_VALUE, KVLIST_VALUE -> {
        JsonText json = new JsonText();
        json(v, json);
        yield json.toString();
      }
      default -> ""; // no value (string indexes belong to profiles, which are not ingested)
    };
  }

  /**
   * Writes a value as JSON.
   *
   * @param v the value
   * @param out where
   */
  static void json(AnyValue v, JsonText out) {
    switch (v.getValueCase()) {
      case STRING_VALUE -> out.string(v.getStringValue());
      case BOOL_VALUE -> out.raw(v.getBoolValue() ? "true" : "false");
      case INT_VALUE -> out.raw(Long.toString(v.getIntValue()));
      case DOUBLE_VALUE -> out.number(v.getDoubleValue());
      case BYTES_VALUE -> out.string(base64(v.getBytesValue()));
      case ARRAY_VALUE -> {
        out.beginArray();
        for (AnyValue element : v.getArrayValue().getValuesList()) {
          out.comma();
          json(element, out);
        }
        out.endArray();
      }
      case KVLIST_VALUE -> {
        out.beginObject();
        for (KeyValue kv : v.getKvlistValue().getValuesList()) {
          out.key(kv.getKey());
          json(kv.getValue(), out);
        }
        out.endObject();
      }
      default -> out.raw("null");
    }
  }

  /**
   * Writes attributes as one JSON object of their stored texts, as the exporter fills a map column
   * of a nested structure (the attributes of span events and links, of exemplars).
   *
   * @param attributes the attributes
   * @param out where
   */
  static void attributesObject(List<KeyValue> attributes, JsonText out) {
    out.beginObject();
    for (KeyValue kv : attributes) {
      out.key(kv.getKey());
      out.string(text(kv.getValue()));
    }
    out.endObject();
  }

  static String base64(ByteString bytes) {
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }
}
