package dev.chartwell.server.otlp;

import static dev.chartwell.server.otlp.Requests.attribute;
import static dev.chartwell.server.otlp.Requests.log;
import static dev.chartwell.server.otlp.Requests.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.Authenticator;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile and broken OTLP requests: each gets its answer (in OTLP's {@code Status} form, in the
 * request's encoding) and stores nothing, and the server goes on serving.
 */
class OtlpHostileInputIntegrationTest {
  static final String PROTOBUF = "application/x-protobuf";
  static final String JSON = "application/json";

  @TempDir Path dataDir;
  OtlpServerFixture fx;

  @AfterEach
  void tearDown() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  private void assertNothingStored() throws Exception {
    for (JsonNode t : fx.tables().values()) {
      assertEquals(0, t.get("rows").asLong(), t.toString());
    }
  }

  private Requests.Status protobufError(HttpResponse<byte[]> r, int status) throws Exception {
    assertEquals(status, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
    assertEquals(PROTOBUF, r.headers().firstValue("Content-Type").orElse(""));
    assertTrue(r.headers().firstValue("X-Request-Id").isPresent());
    return Requests.status(r.body());
  }

  private JsonNode jsonError(HttpResponse<byte[]> r, int status) throws Exception {
    String body = new String(r.body(), StandardCharsets.UTF_8);
    assertEquals(status, r.statusCode(), body);
    JsonNode error = OtlpServerFixture.MAPPER.readTree(body);
    assertEquals(status, error.get("status").asInt(), body);
    assertEquals(error.get("message").textValue(), error.get("error").textValue());
    assertEquals(
        r.headers().firstValue("X-Request-Id").orElseThrow(), error.get("requestId").textValue());
    return error;
  }

  @Test
  void garbageProtobufIsA400AndStoresNothing() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    byte[] garbage =
        "this is not protobuf at all \u00ff\u00fe".getBytes(StandardCharsets.ISO_8859_1);
    Requests.Status s = protobufError(fx.postOwn("/v1/logs", PROTOBUF, garbage), 400);
    assertEquals(3, s.code());
    assertTrue(
        s.message().startsWith("BAD_REQUEST: the body is not a valid ExportLogsServiceRequest: "),
        s.message());

    // Valid records first and a broken one after: still nothing of the request is stored.
    byte[] valid = logs(log("one"), log("two")).toByteArray();
    byte[] broken = Arrays.copyOf(valid, valid.length + 4);
    broken[valid.length] = 0x0a; // field 1 (resource_logs), length-delimited ...
    broken[valid.length + 1] = 0x40; // ... of 64 bytes, of which 2 follow
    s = protobufError(fx.postOwn("/v1/logs", PROTOBUF, broken), 400);
    assertTrue(s.message().contains("resourceLogs[1]"), s.message());
    assertTrue(s.message().contains("ends in the middle of a field"), s.message());
    assertNothingStored();
    assertTrue(fx.sources().isEmpty());

    // The same valid body alone is stored.
    assertEquals(200, fx.postOwn("/v1/logs", PROTOBUF, valid).statusCode());
    assertEquals(2, fx.tables().get("otel_logs").get("rows").asLong());
  }

  @Test
  void invalidUtf8InAStringIsA400() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    byte[] body = logs(log("abc")).toByteArray();
    int at = indexOf(body, "abc".getBytes(StandardCharsets.UTF_8));
    body[at] = (byte) 0xc0; // an overlong form: not UTF-8
    body[at + 1] = (byte) 0xaf;
    Requests.Status s = protobufError(fx.postOwn("/v1/logs", PROTOBUF, body), 400);
    assertTrue(s.message().contains("not valid UTF-8"), s.message());
    assertNothingStored();
  }

  @Test
  void truncatedGzipIsA400() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    byte[] gz = Requests.gzip(logs(log("hello"), log("world")).toByteArray());
    byte[] cut = Arrays.copyOf(gz, gz.length - 12);
    Requests.Status s =
        protobufError(fx.postOwn("/v1/logs", PROTOBUF, cut, "Content-Encoding", "gzip"), 400);
    assertEquals("BAD_REQUEST: the gzip request body is truncated", s.message());
    JsonNode e = jsonError(fx.postOwn("/v1/logs", JSON, cut, "Content-Encoding", "gzip"), 400);
    assertEquals(3, e.get("code").asInt());
    assertNothingStored();
  }

  @Test
  void aHugeAttributeValueRejectsItsRecordByName() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    String huge = "x".repeat(5 << 20);
    LogRecord record = log("big").toBuilder().addAttributes(attribute("blob", huge)).build();
    HttpResponse<byte[]> r = fx.postOwn("/v1/logs", PROTOBUF, logs(record).toByteArray());
    assertEquals(200, r.statusCode());
    ExportLogsServiceResponse response = ExportLogsServiceResponse.parseFrom(r.body());
    assertEquals(1, response.getPartialSuccess().getRejectedLogRecords());
    String message = response.getPartialSuccess().getErrorMessage();
    assertTrue(message.startsWith("1 of 1 log records rejected"), message);
    assertTrue(message.contains("LogAttributes.blob"), message);
    assertTrue(message.contains("5,242,880"), message);

    String json =
        "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\""
            + Requests.T0_NANOS
            + "\",\"attributes\":[{\"key\":\"blob\",\"value\":{\"stringValue\":\""
            + huge
            + "\"}}]}]}]}]}";
    r = fx.postOwn("/v1/logs", JSON, json.getBytes(StandardCharsets.UTF_8));
    JsonNode answer = OtlpServerFixture.MAPPER.readTree(r.body());
    assertEquals(200, r.statusCode(), answer.toString());
    assertEquals("1", answer.get("partialSuccess").get("rejectedLogRecords").textValue());
    assertTrue(
        answer
            .get("partialSuccess")
            .get("errorMessage")
            .textValue()
            .contains("LogAttributes.blob"));
    assertNothingStored();
  }

  @Test
  void deeplyNestedKeyValueListsAreA400InBothEncodings() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    LogRecord deep =
        log("deep").toBuilder()
            .addAttributes(KeyValue.newBuilder().setKey("deep").setValue(Requests.nested(25)))
            .build();
    Requests.Status s =
        protobufError(fx.postOwn("/v1/logs", PROTOBUF, logs(deep).toByteArray()), 400);
    assertTrue(s.message().contains("nest more than 64 levels"), s.message());

    StringBuilder json = new StringBuilder("{\"stringValue\":\"bottom\"}");
    for (int i = 0; i < 25; i++) {
      json.insert(0, "{\"kvlistValue\":{\"values\":[{\"key\":\"k\",\"value\":").append("}]}}");
    }
    String body =
        "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"attributes\":[{\"key\":\"deep\","
            + "\"value\":"
            + json
            + "}]}]}]}]}";
    JsonNode e =
        jsonError(fx.postOwn("/v1/logs", JSON, body.getBytes(StandardCharsets.UTF_8)), 400);
    assertTrue(e.get("message").textValue().contains("nest more than 64 levels"), e.toString());

    // Thousands of levels stop at the JSON reader's own bound, and are a 400 just the same.
    String abyss = "[".repeat(5000) + "]".repeat(5000);
    e =
        jsonError(
            fx.postOwn(
                "/v1/logs", JSON, ("{\"unknown\":" + abyss + "}").getBytes(StandardCharsets.UTF_8)),
            400);
    assertTrue(e.get("message").textValue().contains("nested deeper than 400"), e.toString());
    assertNothingStored();
  }

  @Test
  void aWrongOrMissingTokenIsA401() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    byte[] body = logs(log("x")).toByteArray();
    HttpResponse<byte[]> r = fx.post("/v1/logs", PROTOBUF, body, "Authorization", "Bearer nope");
    Requests.Status s = protobufError(r, 401);
    assertEquals(16, s.code());
    assertEquals("UNAUTHORIZED: invalid token", s.message());
    assertEquals(
        Authenticator.ServiceToken.CHALLENGE,
        r.headers().firstValue("WWW-Authenticate").orElse(""));
    JsonNode e = jsonError(fx.post("/v1/traces", JSON, "{}".getBytes()), 401);
    assertEquals(16, e.get("code").asInt());
    assertNothingStored();
    assertTrue(fx.sources().isEmpty());
  }

  @Test
  void otherContentTypesAreA415() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    JsonNode e = jsonError(fx.postOwn("/v1/metrics", "text/plain", "hi".getBytes()), 415);
    assertTrue(
        e.get("message").textValue().contains("application/json, application/x-protobuf"),
        e.toString());
    jsonError(fx.postOwn("/v1/metrics", null, "hi".getBytes()), 415);
  }

  @Test
  void bodiesOverTheLimitAreA413EvenWhenTheyOnlyGrowOnceDecoded() throws Exception {
    fx = new OtlpServerFixture(dataDir, "--max-ingest-bytes", "64k");
    byte[] big = logs(log("y".repeat(100_000))).toByteArray();
    Requests.Status s = protobufError(fx.postOwn("/v1/logs", PROTOBUF, big), 413);
    assertEquals(8, s.code());
    byte[] bomb = Requests.gzip(new byte[10 << 20]);
    assertTrue(bomb.length < 64 << 10);
    s = protobufError(fx.postOwn("/v1/logs", PROTOBUF, bomb, "Content-Encoding", "gzip"), 413);
    assertTrue(s.message().contains("exceeds the limit of 65536 bytes"), s.message());
    assertNothingStored();
  }

  @Test
  void manySmallRecordsUnderAHugeResourceAreA413() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < 2000; i++) {
      scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(Requests.T0_NANOS + i));
    }
    ExportLogsServiceRequest request =
        ExportLogsServiceRequest.newBuilder()
            .addResourceLogs(
                ResourceLogs.newBuilder()
                    .setResource(
                        Resource.newBuilder().addAttributes(attribute("pad", "p".repeat(64 << 10))))
                    .addScopeLogs(scope))
            .build();
    Requests.Status s = protobufError(fx.postOwn("/v1/logs", PROTOBUF, request.toByteArray()), 413);
    assertTrue(s.message().contains("the 2,000 log records of this request"), s.message());
    assertNothingStored();
  }

  @Test
  void writesRefusedForMemoryAreA503WithRetryAfter() throws Exception {
    fx = new OtlpServerFixture(dataDir, "--max-memory", "1k");
    byte[] body = logs(log("first"), log("second")).toByteArray();
    assertEquals(200, fx.postOwn("/v1/logs", PROTOBUF, body).statusCode());
    HttpResponse<byte[]> r = fx.postOwn("/v1/logs", PROTOBUF, body);
    Requests.Status s = protobufError(r, 503);
    assertEquals(14, s.code());
    assertEquals("5", r.headers().firstValue("Retry-After").orElse(""));
    assertTrue(s.message().contains("reached the limit"), s.message());
    assertTrue(
        s.message().contains("0 log records of this request were stored before"), s.message());
    assertEquals(2, fx.tables().get("otel_logs").get("rows").asLong());
  }

  @Test
  void aReadOnlyOrStoppedServiceRefusesInItsWords() throws Exception {
    fx = new OtlpServerFixture(dataDir);
    JsonNode readOnly =
        fx.admin(
            "POST",
            OtlpServerFixture.BASE,
            "{\"name\":\"Reader\",\"provider\":\"aws\",\"region\":\"us-east-1\","
                + "\"isReadonly\":true,\"dataWarehouseId\":\""
                + fx.admin("GET", OtlpServerFixture.BASE + "/" + fx.serviceId, null)
                    .get("dataWarehouseId")
                    .textValue()
                + "\"}");
    fx.awaitState(readOnly.get("service").get("id").textValue(), "running");
    byte[] body = logs(log("x")).toByteArray();
    HttpResponse<byte[]> r =
        fx.post(
            "/v1/logs",
            PROTOBUF,
            body,
            "Authorization",
            "Bearer " + readOnly.get("password").textValue());
    assertEquals(7, protobufError(r, 403).code());
    fx.admin(
        "PATCH", OtlpServerFixture.BASE + "/" + fx.serviceId + "/state", "{\"command\":\"stop\"}");
    fx.awaitState(fx.serviceId, "stopped");
    Requests.Status s = protobufError(fx.postOwn("/v1/logs", PROTOBUF, body), 409);
    assertTrue(s.message().contains("is not running"), s.message());
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
