package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.clickhouse.local.LocalClickHouse;
import dev.chartwell.server.LocalClickHouses;
import io.opentelemetry.proto.logs.v1.LogRecord;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OTLP logs routed to an external ClickHouse by the service's connection marked {@code otlp: true}:
 * the first write creates a {@code Logs} source on that connection over its {@code otel_logs}
 * table, rows are inserted there (a row whose attribute the table has no column for is rejected, as
 * the export response says), and the source charts them through ClickHouse.
 *
 * <p>ClickHouse 18.16 has neither {@code Map} nor {@code DateTime64}: the table here holds the
 * attributes the test sends as plain columns and the time as epoch milliseconds; the exporter's own
 * schema is for newer servers (docs/clickhouse.md).
 */
class OtlpToClickHouseIntegrationTest {
  static LocalClickHouse ch;

  @BeforeAll
  static void startClickHouse() throws Exception {
    ch = LocalClickHouses.start(OtlpToClickHouseIntegrationTest.class, "");
    ch.query(
        "CREATE TABLE default.otel_logs (Timestamp Int64, TimestampNanos Int64,"
            + " ObservedTimestamp Int64, TraceId String, SpanId String, TraceFlags Int64,"
            + " SeverityText String, SeverityNumber Int64, ServiceName String, Body String,"
            + " EventName String, ResourceSchemaUrl String, ScopeSchemaUrl String,"
            + " ScopeName String, ScopeVersion String,"
            + " `ResourceAttributes.service.name` Nullable(String),"
            + " `LogAttributes.user` Nullable(String)) ENGINE = MergeTree ORDER BY Timestamp");
  }

  @AfterAll
  static void stopClickHouse() throws Exception {
    if (ch != null) {
      ch.close();
      ch.deleteFiles();
    }
  }

  @Test
  void logsGoToTheConnectionMarkedForOtlp(@TempDir Path dir) throws Exception {
    try (OtlpServerFixture f = new OtlpServerFixture(dir)) {
      HttpResponse<String> created =
          f.http.send(
              "POST",
              "/api/v2/connections",
              "{\"name\":\"otlp-ch\",\"host\":\""
                  + ch.url()
                  + "\",\"username\":\"default\",\"otlp\":true}",
              "Authorization",
              "Bearer " + f.token,
              "Content-Type",
              "application/json");
      assertEquals(200, created.statusCode(), created.body());
      assertTrue(created.body().contains("\"otlp\":true"), created.body());
      LogRecord plain = Requests.log("checkout failed");
      LogRecord withUser =
          Requests.log("login").toBuilder()
              .addAttributes(Requests.attribute("user", "ann"))
              .build();
      LogRecord unknown =
          Requests.log("odd").toBuilder().addAttributes(Requests.attribute("nope", "x")).build();
      HttpResponse<byte[]> r =
          f.postOwn(
              "/v1/logs",
              "application/x-protobuf",
              Requests.logs(plain, withUser, unknown).toByteArray());
      assertEquals(200, r.statusCode(), new String(r.body()));
      assertTrue(
          new String(r.body()).contains("LogAttributes.nope"),
          "the partial success names the rejected row's field: " + new String(r.body()));
      assertEquals("2", ch.query("SELECT count() FROM default.otel_logs").trim());
      assertEquals(
          "ann",
          ch.query("SELECT `LogAttributes.user` FROM default.otel_logs WHERE Body = 'login'")
              .trim());
      Map<String, JsonNode> sources = f.sources();
      JsonNode logs = sources.get("Logs");
      String connection = OtlpServerFixture.MAPPER.readTree(created.body()).at("/data/id").asText();
      assertEquals(connection, logs.get("connection").asText(), logs.toString());
      long t0 = Requests.T0_NANOS / 1_000_000;
      Map<String, Long> byBody =
          f.values(logs.get("id").asText(), "Body", t0 - 1000, t0 + 1000, Map.of());
      assertEquals(Map.of("checkout failed", 1L, "login", 1L), byBody);
      assertTrue(!f.tables().containsKey("otel_logs"), "no table in the embedded engine");
    }
  }
}
