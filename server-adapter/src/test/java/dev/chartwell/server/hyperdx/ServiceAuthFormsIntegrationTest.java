package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service's token is accepted in three forms on every route that takes it: {@code Bearer
 * <token>}, HTTP Basic with the service id as user and the token as password, and {@code ApiKey
 * base64(serviceId:token)}; with the same checks in each. Charts, search, ingestion and OTLP (main
 * port and {@code --otlp-port}), from 127.0.0.1. Every 401 here is followed by a success for the
 * same address and id, so that the failed-authentication limiter never locks the tests out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceAuthFormsIntegrationTest {
  static final long T = 1_778_371_200_000L; // 2026-05-10T00:00:00Z

  V2Fixture f;
  HttpTestClient otlpPort;
  String source;
  String otherId;
  String otherToken;
  String readOnlyId;
  String readOnlyToken;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir, "--otlp-port", "0");
    otlpPort = new HttpTestClient(f.server.otlpPort().getAsInt());
    JsonNode other =
        f.cloud(
            "POST",
            V2Fixture.SERVICES,
            "{\"name\":\"Other\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    otherId = other.get("service").get("id").textValue();
    otherToken = other.get("password").textValue();
    JsonNode readOnly =
        f.cloud(
            "POST",
            V2Fixture.SERVICES,
            "{\"name\":\"Reader\",\"provider\":\"aws\",\"region\":\"us-east-1\","
                + "\"isReadonly\":true,\"dataWarehouseId\":\""
                + f.cloud("GET", V2Fixture.SERVICES + "/" + f.serviceId, null)
                    .get("dataWarehouseId")
                    .textValue()
                + "\"}");
    readOnlyId = readOnly.get("service").get("id").textValue();
    readOnlyToken = readOnly.get("password").textValue();
    for (String id : List.of(otherId, readOnlyId)) {
      dev.chartwell.server.Await.until(
          "service " + id + " running",
          () ->
              f.cloud("GET", V2Fixture.SERVICES + "/" + id, null)
                  .get("state")
                  .asText()
                  .equals("running"));
    }
    source = f.logSource("auth_forms");
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  static String bearer(String id, String token) {
    return "Bearer " + token;
  }

  static String basic(String id, String token) {
    return HttpTestClient.basic(id, token);
  }

  static String apiKey(String id, String token) {
    return "ApiKey "
        + Base64.getEncoder().encodeToString((id + ":" + token).getBytes(StandardCharsets.UTF_8));
  }

  interface Form {
    String header(String id, String token);
  }

  static final Form[] FORMS = {
    ServiceAuthFormsIntegrationTest::bearer,
    ServiceAuthFormsIntegrationTest::basic,
    ServiceAuthFormsIntegrationTest::apiKey
  };

  static final String[] FORM_NAMES = {"Bearer", "Basic", "ApiKey"};

  /** A route: name, client, method, path, body. */
  record Call(String name, HttpTestClient http, String path, String body) {}

  List<Call> calls() {
    String chart =
        "{\"startTime\":"
            + T
            + ",\"endTime\":"
            + (T + 3_600_000L)
            + ",\"granularity\":\"1h\",\"series\":[{\"sourceId\":\""
            + source
            + "\",\"aggFn\":\"count\"}]}";
    String search =
        "{\"sourceId\":\""
            + source
            + "\",\"startTime\":\"2026-05-10T00:00:00Z\",\"endTime\":\"2026-05-10T01:00:00Z\"}";
    return List.of(
        new Call("charts", f.http, "/api/v2/charts/series", chart),
        new Call("search", f.http, "/api/v2/search", search),
        new Call(
            "ingestion",
            f.http,
            "/api/v2/sources/" + source + "/events",
            "{\"Timestamp\":" + T + ",\"Body\":\"x\"}"),
        new Call("OTLP", f.http, "/v1/logs", "{}"),
        new Call("OTLP on --otlp-port", otlpPort, "/v1/logs", "{}"));
  }

  HttpResponse<String> send(Call c, String authorization, String... more) throws Exception {
    String type =
        c.path().endsWith("/events") ? "application/x-ndjson" : "application/json; charset=utf-8";
    String[] headers = new String[4 + more.length];
    headers[0] = "Authorization";
    headers[1] = authorization;
    headers[2] = "Content-Type";
    headers[3] = type;
    System.arraycopy(more, 0, headers, 4, more.length);
    return c.http().send("POST", c.path(), c.body(), headers);
  }

  /** The error text of an answer: our {@code error}, or the OTLP Status' {@code message}. */
  static String error(HttpResponse<String> r) throws Exception {
    JsonNode b = V2Fixture.MAPPER.readTree(r.body());
    return b.has("error") ? b.get("error").asText() : b.get("message").asText();
  }

  /** A success for the address and the id, which clears their failures in the limiter. */
  void succeedAs(String id, String token) throws Exception {
    HttpResponse<String> r =
        f.http.send("GET", "/api/v2/stats", null, "Authorization", basic(id, token));
    assertEquals(200, r.statusCode(), r.body());
  }

  @Test
  void everyFormOfTheTokenIsServedOnEveryRoute() throws Exception {
    for (Call c : calls()) {
      for (int i = 0; i < FORMS.length; i++) {
        HttpResponse<String> r = send(c, FORMS[i].header(f.serviceId, f.token));
        assertEquals(200, r.statusCode(), FORM_NAMES[i] + " " + c.name() + ": " + r.body());
      }
    }
  }

  @Test
  void aWrongTokenIsA401InEveryForm() throws Exception {
    for (Call c : calls()) {
      for (int i = 0; i < FORMS.length; i++) {
        HttpResponse<String> r = send(c, FORMS[i].header(f.serviceId, "wrong" + f.token));
        String what = FORM_NAMES[i] + " " + c.name() + ": " + r.body();
        assertEquals(401, r.statusCode(), what);
        assertTrue(
            error(r).contains(i == 0 ? "invalid token" : "invalid service id or token"), what);
        succeedAs(f.serviceId, f.token);
      }
    }
  }

  @Test
  void aServicesTokenUnderAnotherServicesIdIsA401() throws Exception {
    for (Call c : calls()) {
      for (int i = 1; i < FORMS.length; i++) {
        HttpResponse<String> r = send(c, FORMS[i].header(otherId, f.token));
        String what = FORM_NAMES[i] + " " + c.name() + ": " + r.body();
        assertEquals(401, r.statusCode(), what);
        assertTrue(error(r).contains("invalid service id or token"), what);
        succeedAs(otherId, otherToken);
      }
    }
  }

  @Test
  void aReadOnlyServiceIsRefusedIngestionInEveryForm() throws Exception {
    for (Call c : calls()) {
      if (c.name().startsWith("charts") || c.name().startsWith("search")) {
        continue;
      }
      for (int i = 0; i < FORMS.length; i++) {
        HttpResponse<String> r = send(c, FORMS[i].header(readOnlyId, readOnlyToken));
        String what = FORM_NAMES[i] + " " + c.name() + ": " + r.body();
        assertEquals(403, r.statusCode(), what);
        assertTrue(error(r).contains("is read-only"), what);
      }
    }
  }

  @Test
  void anApiKeyAsBasicWithXServiceIdStillReads() throws Exception {
    for (Call c : calls().subList(0, 2)) {
      HttpResponse<String> r = send(c, V2Fixture.ADMIN, "X-Service-Id", f.serviceId);
      assertEquals(200, r.statusCode(), c.name() + ": " + r.body());
      // A wrong secret is the API key's refusal, not the service form's.
      HttpResponse<String> wrong =
          send(c, HttpTestClient.basic("ADMIN", "wrong"), "X-Service-Id", f.serviceId);
      assertEquals(401, wrong.statusCode(), c.name() + ": " + wrong.body());
      assertTrue(error(wrong).contains("invalid API key id or secret"), wrong.body());
      assertEquals(200, send(c, V2Fixture.ADMIN, "X-Service-Id", f.serviceId).statusCode());
    }
  }
}
