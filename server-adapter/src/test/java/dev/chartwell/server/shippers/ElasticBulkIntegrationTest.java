package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Elasticsearch bulk API and its handshake, with raw requests against the real server. */
class ElasticBulkIntegrationTest {
  private static final String ND = "application/x-ndjson";

  static JsonNode json(HttpResponse<byte[]> r) throws Exception {
    return ShipperServer.MAPPER.readTree(r.body());
  }

  static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  @Test
  void handshakeAnswersAsElasticsearchAndNamesTheProduct(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      HttpResponse<byte[]> info =
          s.send("GET", "/elasticsearch", null, "Authorization", s.bearer());
      assertEquals(200, info.statusCode(), text(info));
      assertEquals("Elasticsearch", info.headers().firstValue("X-Elastic-Product").orElse(null));
      JsonNode body = json(info);
      assertEquals("8.17.0", body.get("version").get("number").textValue());
      assertEquals("You Know, for Search", body.get("tagline").textValue());
      HttpResponse<byte[]> nine =
          s.send(
              "GET",
              "/elasticsearch/",
              null,
              "Authorization",
              s.basic(),
              "Accept",
              "application/vnd.elasticsearch+json; compatible-with=9");
      assertEquals("9.0.0", json(nine).get("version").get("number").textValue());
      assertEquals(
          200, s.send("HEAD", "/elasticsearch", null, "Authorization", s.apiKey()).statusCode());
      assertEquals(
          "green",
          json(s.send("GET", "/elasticsearch/_cluster/health", null, "Authorization", s.bearer()))
              .get("status")
              .textValue());
      assertEquals(
          "active",
          json(s.send("GET", "/elasticsearch/_license", null, "Authorization", s.bearer()))
              .get("license")
              .get("status")
              .textValue());
      HttpResponse<byte[]> template =
          s.send(
              "GET",
              "/elasticsearch/_index_template/filebeat-8.17.0",
              null,
              "Authorization",
              s.bearer());
      assertEquals(404, template.statusCode());
      assertEquals(
          "Elasticsearch", template.headers().firstValue("X-Elastic-Product").orElse(null));
      assertEquals(
          "resource_not_found_exception", json(template).get("error").get("type").textValue());
      assertEquals(
          200,
          s.send(
                  "PUT",
                  "/elasticsearch/_index_template/filebeat-8.17.0",
                  "{\"index_patterns\":[\"filebeat-*\"]}".getBytes(StandardCharsets.UTF_8),
                  "Authorization",
                  s.bearer(),
                  "Content-Type",
                  "application/json")
              .statusCode());
      assertEquals(
          404,
          s.send("HEAD", "/elasticsearch/app-logs", null, "Authorization", s.bearer())
              .statusCode());
      assertEquals(
          200,
          s.send("PUT", "/elasticsearch/app-logs", null, "Authorization", s.bearer()).statusCode());
      assertEquals(
          200,
          s.send("HEAD", "/elasticsearch/app-logs", null, "Authorization", s.bearer())
              .statusCode());
      assertTrue(s.tables().containsKey("app_logs"));
      HttpResponse<byte[]> noAuth = s.send("GET", "/elasticsearch", null);
      assertEquals(401, noAuth.statusCode());
      assertEquals("security_exception", json(noAuth).get("error").get("type").textValue());
    }
  }

  @Test
  void bulkStoresIndexAndCreateAndAnswersEachItem(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      String body =
          """
          {"index":{"_index":"logs-app-2026.11.28","_id":"a1"}}
          {"@timestamp":"2026-11-28T10:00:00.000Z","message":"user login ok","service":{"name":"api"},"log":{"level":"info"}}
          {"create":{"_index":"logs-app-2026.11.29"}}
          {"@timestamp":"2026-11-29T10:00:00Z","message":"user logout","http":{"status":200}}
          {"delete":{"_index":"logs-app-2026.11.28","_id":"a1"}}
          {"update":{"_index":"logs-app-2026.11.28","_id":"a1"}}
          {"doc":{"message":"changed"}}
          {"index":{"_index":"logs-app-2026.11.28"}}
          {"message":"no time"}
          {"index":{"_index":"logs-app-2026.11.28"}}
          {"@timestamp":"2026-11-28T10:00:01Z","message":"bad
          {"index":{}}
          {"timestamp":1764324000000,"message":"vector style"}
          """;
      HttpResponse<byte[]> r =
          s.send(
              "POST",
              "/elasticsearch/metrics-default/_bulk",
              body.getBytes(StandardCharsets.UTF_8),
              "Authorization",
              s.bearer(),
              "Content-Type",
              ND);
      assertEquals(200, r.statusCode(), text(r));
      JsonNode a = json(r);
      assertTrue(a.get("errors").booleanValue());
      JsonNode items = a.get("items");
      assertEquals(7, items.size(), a.toString());
      assertEquals(201, items.get(0).get("index").get("status").intValue());
      assertEquals("a1", items.get(0).get("index").get("_id").textValue());
      assertEquals(201, items.get(1).get("create").get("status").intValue());
      assertEquals(400, items.get(2).get("delete").get("status").intValue());
      assertEquals(400, items.get(3).get("update").get("status").intValue());
      assertEquals(400, items.get(4).get("index").get("status").intValue());
      assertTrue(
          items.get(4).get("index").get("error").get("reason").textValue().contains("@timestamp"));
      assertEquals(400, items.get(5).get("index").get("status").intValue());
      assertEquals(201, items.get(6).get("index").get("status").intValue());
      assertEquals("metrics-default", items.get(6).get("index").get("_index").textValue());
      assertEquals(2, s.count("logs_app", null));
      assertEquals(1, s.count("logs_app", "\"login\""));
      assertEquals(1, s.count("logs_app", "http.status:200"));
      assertEquals(1, s.count("logs_app", "_id:a1"));
      assertEquals(1, s.count("metrics_default", null));
    }
  }

  @Test
  void gzipBodiesAndTheThreeAuthForms(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 3000; i++) {
        sb.append("{\"create\":{}}\n{\"@timestamp\":")
            .append(1_764_324_000_000L + i)
            .append(",\"message\":\"line ")
            .append(i)
            .append("\"}\n");
      }
      ByteArrayOutputStream gz = new ByteArrayOutputStream();
      try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
      }
      for (String auth : new String[] {s.bearer(), s.basic(), s.apiKey()}) {
        HttpResponse<byte[]> r =
            s.send(
                "POST",
                "/elasticsearch/gz/_bulk",
                gz.toByteArray(),
                "Authorization",
                auth,
                "Content-Type",
                ND,
                "Content-Encoding",
                "gzip");
        assertEquals(200, r.statusCode(), text(r));
        assertFalse(json(r).get("errors").booleanValue());
      }
      assertEquals(9000, s.count("gz", null));
      HttpResponse<byte[]> wrong =
          s.send(
              "POST",
              "/elasticsearch/gz/_bulk",
              // Small: the 401 comes before the body is read, and the server then closes the
              // connection; a large body could still be in flight (a broken pipe, not an answer).
              "{\"create\":{}}\n{\"message\":\"x\"}\n".getBytes(StandardCharsets.UTF_8),
              "Authorization",
              "Bearer nope",
              "Content-Type",
              ND);
      assertEquals(401, wrong.statusCode());
    }
  }

  @Test
  void theOwnPortServesTheApiAtItsRoot(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir, "--elasticsearch-port", "0")) {
      int port = s.server.elasticsearchPort().getAsInt();
      java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
      HttpResponse<String> info =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + port + "/"))
                  .header("Authorization", s.bearer())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, info.statusCode(), info.body());
      assertEquals(
          "chartwell", ShipperServer.MAPPER.readTree(info.body()).get("cluster_name").textValue());
      HttpResponse<String> bulk =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + port + "/own/_bulk"))
                  .header("Authorization", s.bearer())
                  .header("Content-Type", ND)
                  .POST(
                      java.net.http.HttpRequest.BodyPublishers.ofString(
                          "{\"index\":{}}\n{\"@timestamp\":\"2026-11-28T10:00:00Z\",\"message\":\"m\"}\n"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, bulk.statusCode(), bulk.body());
      assertEquals(1, s.count("own", null));
      HttpResponse<String> other =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + port + "/api/v2/tables"))
                  .header("Authorization", s.bearer())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(404, other.statusCode(), "only the Elasticsearch API on its port");
    }
  }
}
