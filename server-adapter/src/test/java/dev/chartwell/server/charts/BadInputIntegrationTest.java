package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each bad input the attack found, answered with a clear 400 in our words (each failed before). */
class BadInputIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String BASE = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String token;
  String sourceId;

  @BeforeEach
  void setUp() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
    HttpResponse<String> r =
        http.send(
            "POST",
            BASE,
            "{\"name\":\"Bad\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
            "Authorization",
            ADMIN);
    JsonNode created = MAPPER.readTree(r.body()).get("result");
    String serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    Await.until(
        "the service running",
        () ->
            http.send("GET", BASE + "/" + serviceId, null, "Authorization", ADMIN)
                .body()
                .contains("\"running\""));
    sourceId =
        MAPPER
            .readTree(
                http.send(
                        "POST",
                        BASE + "/" + serviceId + "/clickstack/sources",
                        "{\"name\":\"app\",\"kind\":\"log\"}",
                        "Authorization",
                        ADMIN)
                    .body())
            .get("result")
            .get("id")
            .textValue();
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
  }

  HttpResponse<String> post(String path, byte[] body, String type) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> chart(String body) throws Exception {
    return post("/api/v2/charts/series", body.getBytes(StandardCharsets.UTF_8), "application/json");
  }

  static String error(HttpResponse<String> r) throws Exception {
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  @Test
  void jacksonsClassAndOptionNamesNeverReachTheClient() throws Exception {
    HttpResponse<String> deep = chart("[".repeat(1000) + "]".repeat(1000));
    assertEquals(400, deep.statusCode());
    assertTrue(error(deep).contains("nested deeper than 64 levels"), deep.body());
    HttpResponse<String> nan = chart("{\"startTime\":NaN}");
    assertEquals(400, nan.statusCode());
    assertTrue(error(nan).contains("NaN and Infinity are not JSON numbers"), nan.body());
    for (HttpResponse<String> r : new HttpResponse[] {deep, nan}) {
      assertTrue(
          !r.body().contains("StreamReadConstraints")
              && !r.body().contains("JsonReadFeature")
              && !r.body().contains("()"),
          r.body());
    }
  }

  @Test
  void aNumberTooLargeForADoubleIsRefusedNotStoredAsInfinity() throws Exception {
    HttpResponse<String> q =
        chart(
            "{\"startTime\":1767225600000,\"endTime\":1767312000000,\"series\":[{\"sourceId\":\""
                + sourceId
                + "\",\"aggFn\":\"quantile\",\"field\":\"v\",\"level\":1e309}]}");
    assertEquals(400, q.statusCode());
    assertTrue(error(q).contains("series[0].level: number out of range"), q.body());
    HttpResponse<String> ingest =
        post(
            "/api/v2/sources/" + sourceId + "/events",
            ("{\"Timestamp\":1767225600000,\"v\":1e309}\n{\"Timestamp\":1767225600001,\"v\":2.5}\n")
                .getBytes(StandardCharsets.UTF_8),
            "application/x-ndjson");
    assertEquals(200, ingest.statusCode(), ingest.body());
    JsonNode report = MAPPER.readTree(ingest.body());
    assertEquals(1, report.get("accepted").intValue());
    assertEquals(1, report.get("errors").get(0).get("line").intValue());
    assertTrue(
        report.get("errors").get(0).get("error").textValue().contains("v: number out of range"),
        ingest.body());
  }

  @Test
  void invalidUtf8IsRefusedInBodiesAndRejectedLineByLineInIngestion() throws Exception {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes("{\"startTime\":1767225600000,\"x\":\"a".getBytes(StandardCharsets.UTF_8));
    body.writeBytes(new byte[] {(byte) 0xC0, (byte) 0xAF}); // an overlong '/'
    body.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> q = post("/api/v2/charts/series", body.toByteArray(), "application/json");
    assertEquals(400, q.statusCode());
    assertTrue(error(q).contains("not valid UTF-8"), q.body());
    assertTrue(error(q).contains("byte offset 33"), q.body());

    ByteArrayOutputStream ndjson = new ByteArrayOutputStream();
    ndjson.writeBytes(
        "{\"Timestamp\":1767225600000,\"Body\":\"ok\"}\n".getBytes(StandardCharsets.UTF_8));
    ndjson.writeBytes("{\"Timestamp\":1767225600001,\"Body\":\"a".getBytes(StandardCharsets.UTF_8));
    ndjson.writeBytes(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}); // an encoded surrogate
    ndjson.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
    ndjson.writeBytes(
        "{\"Timestamp\":1767225600002,\"Body\":\"fine\"}\n".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> ingest =
        post(
            "/api/v2/sources/" + sourceId + "/events",
            ndjson.toByteArray(),
            "application/x-ndjson");
    assertEquals(200, ingest.statusCode(), ingest.body());
    JsonNode report = MAPPER.readTree(ingest.body());
    assertEquals(2, report.get("accepted").intValue(), ingest.body());
    assertEquals(2, report.get("errors").get(0).get("line").intValue());
    assertTrue(
        report.get("errors").get(0).get("error").textValue().startsWith("not valid UTF-8"),
        ingest.body());
    // Nothing was altered into U+FFFD: the body with the replacement character is not there.
    HttpResponse<String> count =
        chart(
            "{\"startTime\":1767225600000,\"endTime\":1767225600009,\"granularity\":\"30d\","
                + "\"series\":[{\"sourceId\":\""
                + sourceId
                + "\",\"aggFn\":\"count\",\"where\":\"Body:*\"}]}");
    assertTrue(count.body().contains("\"series_0.data\":2"), count.body());
  }

  /** An array body whose third byte is not UTF-8 fails while Jackson detects the encoding. */
  @Test
  void anArrayBodyThatIsNotUtf8FromTheStartIsRejectedNotA500() throws Exception {
    byte[] body = {'[', ' ', (byte) 0xFF, (byte) 0xFE, '{', '}', ']'};
    HttpResponse<String> ingest =
        post("/api/v2/sources/" + sourceId + "/events", body, "application/json");
    assertEquals(200, ingest.statusCode(), ingest.body());
    JsonNode report = MAPPER.readTree(ingest.body());
    assertEquals(0, report.get("accepted").intValue(), ingest.body());
    assertEquals(1, report.get("errors").get(0).get("line").intValue(), ingest.body());
    assertTrue(
        report.get("errors").get(0).get("error").textValue().startsWith("not valid UTF-8"),
        ingest.body());
  }

  @Test
  void aBodyWithThousandsOfProblemsListsTwentyAndCountsTheRest() throws Exception {
    StringBuilder body = new StringBuilder("{");
    for (int i = 0; i < 20_000; i++) {
      body.append("\"unknown").append(i).append("\":").append(i).append(',');
    }
    body.append("\"startTime\":1}");
    HttpResponse<String> r = chart(body.toString());
    assertEquals(400, r.statusCode());
    assertTrue(r.body().length() < 8_000, "answer of " + r.body().length() + " characters");
    assertTrue(error(r).matches(".*; and \\d+ more"), r.body());
  }
}
