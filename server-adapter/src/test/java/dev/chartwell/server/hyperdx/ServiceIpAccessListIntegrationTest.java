package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.Await;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service's {@code ipAccessList} guards every request for its data: its token (Bearer) on the
 * chart, search, ingestion, table, stats and resource routes and on OTLP (main port and {@code
 * --otlp-port}), and an API key's reads with {@code X-Service-Id}. The tests run from 127.0.0.1: a
 * service listing only 10.0.0.0/8 refuses them all (403); one with an empty list, or listing
 * 127.0.0.1/32, serves them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceIpAccessListIntegrationTest {
  static final long T = 1_778_371_200_000L; // 2026-05-10T00:00:00Z

  V2Fixture f;
  HttpTestClient otlpPort;
  String fenced;
  String fencedToken;
  String loopback;
  String loopbackToken;

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir, "--otlp-port", "0");
    otlpPort = new HttpTestClient(f.server.otlpPort().getAsInt());
    JsonNode a = service("fenced", "[{\"source\":\"10.0.0.0/8\",\"description\":\"office\"}]");
    fenced = a.get("service").get("id").textValue();
    fencedToken = a.get("password").textValue();
    JsonNode b = service("loopback", "[{\"source\":\"127.0.0.1/32\"}]");
    loopback = b.get("service").get("id").textValue();
    loopbackToken = b.get("password").textValue();
    for (String id : List.of(fenced, loopback)) {
      Await.until(
          "service " + id + " running",
          () ->
              f.cloud("GET", V2Fixture.SERVICES + "/" + id, null)
                  .get("state")
                  .asText()
                  .equals("running"));
    }
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  private JsonNode service(String name, String list) throws Exception {
    return f.cloud(
        "POST",
        V2Fixture.SERVICES,
        "{\"name\":\""
            + name
            + "\",\"provider\":\"aws\",\"region\":\"us-east-1\",\"ipAccessList\":"
            + list
            + "}");
  }

  private static String chart(String source) {
    return "{\"startTime\":"
        + T
        + ",\"endTime\":"
        + (T + 3_600_000L)
        + ",\"granularity\":\"1h\",\"series\":[{\"sourceId\":\""
        + source
        + "\",\"aggFn\":\"count\"}]}";
  }

  private static String search(String source) {
    return "{\"sourceId\":\""
        + source
        + "\",\"startTime\":\"2026-05-10T00:00:00Z\",\"endTime\":\"2026-05-10T01:00:00Z\"}";
  }

  private HttpResponse<String> bearer(
      HttpTestClient http, String token, String method, String path, String body) throws Exception {
    String type =
        path.endsWith("/events") ? "application/x-ndjson" : "application/json; charset=utf-8";
    return http.send(method, path, body, "Authorization", "Bearer " + token, "Content-Type", type);
  }

  /** Every data request of a service, with its token and with the admin key: status and body. */
  private List<String[]> everything(String serviceId, String token, String source)
      throws Exception {
    List<HttpResponse<String>> answers = new ArrayList<>();
    List<String> names = new ArrayList<>();
    String[][] calls = {
      {"POST", "/api/v2/charts/series", chart(source)},
      {"POST", "/api/v2/search", search(source)},
      {"POST", "/api/v2/sources/" + source + "/events", "{\"Timestamp\":" + T + ",\"Body\":\"x\"}"},
      {"GET", "/api/v2/tables", null},
      {"GET", "/api/v2/stats", null},
      {"GET", "/api/v2/dashboards", null},
      {"GET", "/api/v2/sources", null},
      {"POST", "/v1/logs", "{}"}
    };
    for (String[] c : calls) {
      names.add("Bearer " + c[0] + " " + c[1]);
      answers.add(bearer(f.http, token, c[0], c[1], c[2]));
    }
    names.add("Bearer POST /v1/logs on --otlp-port");
    answers.add(bearer(otlpPort, token, "POST", "/v1/logs", "{}"));
    for (String[] c : calls) {
      if (c[1].startsWith("/api/v2/charts")
          || c[1].startsWith("/api/v2/search")
          || c[1].equals("/api/v2/tables")) {
        names.add("API key " + c[0] + " " + c[1]);
        answers.add(
            f.http.send(
                c[0],
                c[1],
                c[2],
                "Authorization",
                V2Fixture.ADMIN,
                "X-Service-Id",
                serviceId,
                "Content-Type",
                "application/json"));
      }
    }
    List<String[]> out = new ArrayList<>();
    for (int i = 0; i < answers.size(); i++) {
      out.add(
          new String[] {
            names.get(i), Integer.toString(answers.get(i).statusCode()), answers.get(i).body()
          });
    }
    return out;
  }

  @Test
  void aServiceWhoseListExcludesTheClientRefusesItsTokenAndKeyReadsEverywhere() throws Exception {
    String refusal =
        "FORBIDDEN: client address 127.0.0.1 is not in the IP access list of service " + fenced;
    List<String[]> answers =
        everything(fenced, fencedToken, "00000000-0000-4000-8000-000000000001");
    assertEquals(12, answers.size());
    for (String[] a : answers) {
      assertEquals("403", a[1], a[0] + ": " + a[2]);
      JsonNode body = V2Fixture.MAPPER.readTree(a[2]);
      if (a[0].contains("/v1/logs")) {
        // OTLP answers its Status shape: gRPC code 7 (PERMISSION_DENIED) and our text.
        assertEquals(7, body.get("code").asInt(), a[0] + ": " + a[2]);
        assertEquals(refusal, body.get("message").asText(), a[0]);
      } else {
        assertEquals(refusal, body.get("error").asText(), a[0]);
      }
    }
  }

  @Test
  void servicesWithAnEmptyListOrListingTheClientAreServed() throws Exception {
    String[][] served = {{f.serviceId, f.token}, {loopback, loopbackToken}};
    for (String[] s : served) {
      HttpResponse<String> created =
          bearer(
              f.http,
              s[1],
              "POST",
              "/api/v2/sources",
              "{\"name\":\"Logs\",\"kind\":\"log\",\"connection\":\"default\","
                  + "\"from\":{\"databaseName\":\"default\",\"tableName\":\"ip_logs\"},"
                  + "\"timestampValueExpression\":\"Timestamp\","
                  + "\"defaultTableSelectExpression\":\"Timestamp, Body\"}");
      assertEquals(200, created.statusCode(), created.body());
      String source = V2Fixture.MAPPER.readTree(created.body()).get("data").get("id").textValue();
      for (String[] a : everything(s[0], s[1], source)) {
        assertEquals("200", a[1], s[0] + " " + a[0] + ": " + a[2]);
      }
    }
  }

  @Test
  void aChangedListAppliesToTheNextRequest() throws Exception {
    JsonNode c = service("changing", "[{\"source\":\"10.0.0.0/8\"}]");
    String id = c.get("service").get("id").textValue();
    String token = c.get("password").textValue();
    Await.until(
        "service running",
        () ->
            f.cloud("GET", V2Fixture.SERVICES + "/" + id, null)
                .get("state")
                .asText()
                .equals("running"));
    assertEquals(403, bearer(f.http, token, "GET", "/api/v2/tables", null).statusCode());
    f.cloud(
        "PATCH",
        V2Fixture.SERVICES + "/" + id,
        "{\"ipAccessList\":{\"add\":[{\"source\":\"127.0.0.1\"}]}}");
    assertEquals(200, bearer(f.http, token, "GET", "/api/v2/tables", null).statusCode());
    f.cloud(
        "PATCH",
        V2Fixture.SERVICES + "/" + id,
        "{\"ipAccessList\":{\"remove\":[{\"source\":\"127.0.0.1\"}]}}");
    assertEquals(403, bearer(f.http, token, "GET", "/api/v2/tables", null).statusCode());
  }

  @Test
  void theManagementApiIsGuardedByTheKeysOwnListNotTheServices() throws Exception {
    // The Cloud API configures the service (control plane): a service that refuses the client's
    // data requests can still have its list changed by an admin key, or it could never be undone.
    HttpResponse<String> r =
        f.http.send(
            "GET", V2Fixture.SERVICES + "/" + fenced, null, "Authorization", V2Fixture.ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(
        "10.0.0.0/8",
        V2Fixture.MAPPER
            .readTree(r.body())
            .get("result")
            .get("ipAccessList")
            .get(0)
            .get("source")
            .asText());
  }
}
