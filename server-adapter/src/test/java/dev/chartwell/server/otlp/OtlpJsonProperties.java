package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.chartwell.otlp.RandomRequests;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.http.ApiException;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reading OTLP/JSON gives the request that was written: random requests of every signal, written in
 * OTLP's JSON mapping (hex ids, integer enums, 64-bit integers as strings, special doubles as
 * strings), read back to the same protobuf message. And the spellings the mapping also allows.
 */
class OtlpJsonProperties {
  private static final JsonFactory JSON = new JsonFactory();

  @ParameterizedTest
  @EnumSource(Signal.class)
  void readingTheJsonOfARequestGivesTheRequest(Signal signal) {
    qt().withExamples(300)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              Message m = RandomRequests.of(signal, seed).message();
              String json = write(m, seed % 2 == 0);
              byte[] protobuf =
                  OtlpJson.toProtobuf(json.getBytes(), signal.requestDescriptor(), 1 << 30);
              try {
                assertEquals(m, m.getParserForType().parseFrom(protobuf), json);
              } catch (IOException e) {
                throw new AssertionError(e);
              }
            });
  }

  @Test
  void otherSpellingsTheMappingAllows() throws Exception {
    String json =
        "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{"
            + "\"timeUnixNano\":1e3,\"observedTimeUnixNano\":\"7\",\"severityNumber\":\"SEVERITY_NUMBER_INFO\","
            + "\"flags\":\"4294967295\",\"droppedAttributesCount\":2.0,"
            + "\"attributes\":[{\"key\":\"b\",\"value\":{\"bytesValue\":\"-_8\"}},"
            + "{\"key\":\"i\",\"value\":{\"intValue\":\"-9223372036854775808\"}},"
            + "{\"key\":\"d\",\"value\":{\"doubleValue\":\"-Infinity\"}}],"
            + "\"body\":{\"stringValue\":\"\\u00e9\\n\"},\"eventName\":null}]}]}]}";
    ExportLogsServiceRequest r =
        ExportLogsServiceRequest.parseFrom(
            OtlpJson.toProtobuf(
                json.getBytes(), ExportLogsServiceRequest.getDescriptor(), 1 << 20));
    LogRecord log = r.getResourceLogs(0).getScopeLogs(0).getLogRecords(0);
    assertEquals(1000, log.getTimeUnixNano());
    assertEquals(7, log.getObservedTimeUnixNano());
    assertEquals(9, log.getSeverityNumberValue());
    assertEquals(-1, log.getFlags());
    assertEquals(2, log.getDroppedAttributesCount());
    assertEquals(
        ByteString.copyFrom(new byte[] {-5, -1}), log.getAttributes(0).getValue().getBytesValue());
    assertEquals(Long.MIN_VALUE, log.getAttributes(1).getValue().getIntValue());
    assertEquals(Double.NEGATIVE_INFINITY, log.getAttributes(2).getValue().getDoubleValue());
    assertEquals("é\n", log.getBody().getStringValue());
  }

  @Test
  void valuesOutsideTheirFieldAreNamedByPath() {
    Map<String, String> cases =
        Map.of(
            "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"flags\":-1}]}]}]}",
            "resourceLogs[0].scopeLogs[0].logRecords[0].flags: must be an integer from 0 to"
                + " 4294967295, got -1",
            "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":1.5}]}]}]}",
            "resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano: must be an integer from 0 to"
                + " 18446744073709551615, got '1.5'",
            "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"doubleValue\":\"1x\"}}]}]}]}",
            "resourceLogs[0].scopeLogs[0].logRecords[0].body.doubleValue: must be a number (or"
                + " \"NaN\", \"Infinity\", \"-Infinity\")",
            "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"boolValue\":\"true\"}}]}]}]}",
            "resourceLogs[0].scopeLogs[0].logRecords[0].body.boolValue: must be true or false",
            "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[null]}]}]}",
            "resourceLogs[0].scopeLogs[0].logRecords[0]: null is not a valid element",
            "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"value\":{\"bytesValue\":\"!\"}}]}}]}",
            "resourceLogs[0].resource.attributes[0].value.bytesValue: must be base64, got '!'");
    cases.forEach(
        (json, message) -> {
          ApiException e =
              assertThrows(
                  ApiException.class,
                  () ->
                      OtlpJson.toProtobuf(
                          json.getBytes(), ExportLogsServiceRequest.getDescriptor(), 1 << 20));
          assertEquals(
              "the body is not an OTLP/JSON ExportLogsServiceRequest: " + message, e.getMessage());
        });
  }

  @Test
  void envelopesOfEverySizeReadBack() throws Exception {
    // Resources and scopes are written in place with a padded length: sizes that need one to
    // four bytes of length, and an empty one, read back as the same request.
    for (int size : new int[] {0, 100, 20_000, 3_000_000}) {
      var attribute =
          KeyValue.newBuilder()
              .setKey("big")
              .setValue(AnyValue.newBuilder().setStringValue("v".repeat(size)));
      ExportLogsServiceRequest m =
          ExportLogsServiceRequest.newBuilder()
              .addResourceLogs(
                  ResourceLogs.newBuilder()
                      .setResource(Resource.newBuilder().addAttributes(attribute))
                      .addScopeLogs(
                          ScopeLogs.newBuilder()
                              .setScope(InstrumentationScope.newBuilder().addAttributes(attribute))
                              .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(size + 1))))
              .addResourceLogs(ResourceLogs.getDefaultInstance())
              .build();
      byte[] protobuf =
          OtlpJson.toProtobuf(
              write(m, false).getBytes(), ExportLogsServiceRequest.getDescriptor(), 1 << 30);
      assertEquals(m, ExportLogsServiceRequest.parseFrom(protobuf), "size " + size);
    }
  }

  @Test
  void theProtobufFormIsBoundedByTheLimit() {
    String json = "{\"resourceLogs\":[{\"schemaUrl\":\"" + "s".repeat(2000) + "\"}]}";
    ApiException e =
        assertThrows(
            ApiException.class,
            () ->
                OtlpJson.toProtobuf(
                    json.getBytes(), ExportLogsServiceRequest.getDescriptor(), 1000));
    assertEquals(413, e.code().status());
  }

  /** OTLP's JSON encoding of a message, written here independently of the reader. */
  static String write(Message m, boolean upperHex) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      message(m, g, upperHex);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.toString();
  }

  private static void message(Message m, JsonGenerator g, boolean upperHex) throws IOException {
    g.writeStartObject();
    for (Map.Entry<FieldDescriptor, Object> f : m.getAllFields().entrySet()) {
      FieldDescriptor d = f.getKey();
      g.writeFieldName(d.getJsonName());
      if (d.isRepeated()) {
        g.writeStartArray();
        for (Object v : (List<?>) f.getValue()) {
          value(d, v, g, upperHex);
        }
        g.writeEndArray();
      } else {
        value(d, f.getValue(), g, upperHex);
      }
    }
    g.writeEndObject();
  }

  private static void value(FieldDescriptor d, Object v, JsonGenerator g, boolean upperHex)
      throws IOException {
    switch (d.getType()) {
      case MESSAGE -> message((Message) v, g, upperHex);
      case STRING -> g.writeString((String) v);
      case BYTES -> {
        byte[] b = ((ByteString) v).toByteArray();
        if (d.getName().endsWith("span_id") || d.getName().equals("trace_id")) {
          String hex = HexFormat.of().formatHex(b);
          g.writeString(upperHex ? hex.toUpperCase(java.util.Locale.ROOT) : hex);
        } else {
          g.writeString(Base64.getEncoder().encodeToString(b));
        }
      }
      case BOOL -> g.writeBoolean((Boolean) v);
      case ENUM ->
          g.writeNumber(((com.google.protobuf.Descriptors.EnumValueDescriptor) v).getNumber());
      case INT32, SINT32, SFIXED32 -> g.writeNumber((Integer) v);
      case UINT32, FIXED32 -> g.writeNumber(Integer.toUnsignedLong((Integer) v));
      case INT64, SINT64, SFIXED64 -> g.writeString(Long.toString((Long) v));
      case UINT64, FIXED64 -> g.writeString(Long.toUnsignedString((Long) v));
      case DOUBLE -> {
        double x = (Double) v;
        if (Double.isFinite(x)) {
          g.writeNumber(x);
        } else {
          g.writeString(Double.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity");
        }
      }
      default -> throw new AssertionError("OTLP has no " + d.getType() + " fields");
    }
  }
}
