package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.shippers.logproto.Push;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/**
 * The hostile cases the other ingestion routes handle, on the Elasticsearch and Loki routes: size
 * limits before parsing (declared, gzip and snappy bombs), strict UTF-8, nesting depth, field
 * counts and names, with the good items of the same request kept.
 */
class ShipperHostileInputIntegrationTest {
  private static final String ND = "application/x-ndjson";

  static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  /**
   * Back-pressure: with the engine refusing writes for memory ({@code --max-memory 1k}: the first
   * write fits, none after it), the items of a batch refused are 429s while those stored stay 201s;
   * a request of which nothing was stored is a whole 429 with {@code Retry-After}, and so is a Loki
   * push. Shippers send those again.
   */
  @Test
  void writesRefusedForMemoryAre429sPerItemAndWhole(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir, "--max-memory", "1k")) {
      String ts = "\"@timestamp\":\"2025-11-28T10:00:00Z\"";
      String bulk =
          "{\"create\":{\"_index\":\"first\"}}\n{"
              + ts
              + ",\"message\":\"a\"}\n{\"create\":{\"_index\":\"second\"}}\n{"
              + ts
              + ",\"message\":\"b\"}\n";
      HttpResponse<byte[]> r =
          s.post("/elasticsearch/_bulk", bulk.getBytes(StandardCharsets.UTF_8), ND);
      assertEquals(200, r.statusCode(), text(r));
      JsonNode answer = ShipperServer.MAPPER.readTree(r.body());
      assertTrue(answer.get("errors").booleanValue(), text(r));
      assertEquals(201, answer.get("items").get(0).get("create").get("status").asInt(), text(r));
      JsonNode refused = answer.get("items").get(1).get("create");
      assertEquals(429, refused.get("status").asInt(), text(r));
      assertEquals("es_rejected_execution_exception", refused.get("error").get("type").asText());
      assertTrue(
          refused
              .get("error")
              .get("reason")
              .asText()
              .contains("1 documents of this request were stored"),
          text(r));
      r = s.post("/elasticsearch/_bulk", bulk.getBytes(StandardCharsets.UTF_8), ND);
      assertEquals(429, r.statusCode(), text(r));
      assertEquals("5", r.headers().firstValue("Retry-After").orElse(""));
      assertEquals("Elasticsearch", r.headers().firstValue("X-Elastic-Product").orElse(""));
      assertEquals(
          "es_rejected_execution_exception",
          ShipperServer.MAPPER.readTree(r.body()).get("error").get("type").asText());
      String push =
          "{\"streams\":[{\"stream\":{\"app\":\"x\"},\"values\":[[\"1764324000000000000\",\"l\"]]}]}";
      r = s.post("/loki/api/v1/push", push.getBytes(StandardCharsets.UTF_8), "application/json");
      assertEquals(429, r.statusCode(), text(r));
      assertEquals("5", r.headers().firstValue("Retry-After").orElse(""));
      assertEquals(1, s.count("first", null));
      assertTrue(!s.sources().containsKey("second") || s.count("second", null) == 0);
    }
  }

  /** A line that is not an action, even after more documents than a batch, stores nothing. */
  @Test
  void aBrokenActionLineRefusesTheWholeRequestFirst(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      StringBuilder body = new StringBuilder();
      for (int i = 0; i < BulkIngest.BATCH_ROWS + 10; i++) {
        body.append("{\"create\":{}}\n{\"@timestamp\":")
            .append(1_764_324_000_000L + i)
            .append(",\"message\":\"m\"}\n");
      }
      body.append("{\"crate\":{}}\n{\"@timestamp\":1764324000000}\n");
      HttpResponse<byte[]> r =
          s.post(
              "/elasticsearch/whole/_bulk", body.toString().getBytes(StandardCharsets.UTF_8), ND);
      assertEquals(400, r.statusCode(), text(r));
      assertTrue(text(r).contains("line " + (2 * (BulkIngest.BATCH_ROWS + 10) + 1)), text(r));
      assertTrue(text(r).contains("unknown bulk action 'crate'"), text(r));
      assertTrue(!s.tables().containsKey("whole"), "nothing stored, no table made");
    }
  }

  @Test
  void bulkItemsAreRefusedOneByOneAndTheGoodOnesKept(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      String ts = "\"@timestamp\":\"2026-11-28T10:00:00Z\"";
      body.writeBytes(
          ("{\"index\":{}}\n{" + ts + ",\"message\":\"good 1\"}\n")
              .getBytes(StandardCharsets.UTF_8));
      // Invalid UTF-8 (an overlong encoding of '/').
      body.writeBytes(
          ("{\"index\":{}}\n{" + ts + ",\"message\":\"").getBytes(StandardCharsets.UTF_8));
      body.writeBytes(new byte[] {(byte) 0xC0, (byte) 0xAF});
      body.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
      // Nested deeper than allowed.
      body.writeBytes(
          ("{\"index\":{}}\n{"
                  + ts
                  + ",\"a\":"
                  + "{\"b\":".repeat(70)
                  + "1"
                  + "}".repeat(70)
                  + "}\n")
              .getBytes(StandardCharsets.UTF_8));
      // Too many fields for a table.
      StringBuilder wide = new StringBuilder("{" + ts);
      for (int i = 0; i < 5000; i++) {
        wide.append(",\"f").append(i).append("\":1");
      }
      body.writeBytes(("{\"index\":{}}\n" + wide + "}\n").getBytes(StandardCharsets.UTF_8));
      // A name longer than names may be.
      body.writeBytes(
          ("{\"index\":{}}\n{" + ts + ",\"" + "n".repeat(2000) + "\":1}\n")
              .getBytes(StandardCharsets.UTF_8));
      // Not a JSON object; a number out of range.
      body.writeBytes(
          ("{\"index\":{}}\n[1,2]\n{\"index\":{}}\n{" + ts + ",\"x\":1e999}\n")
              .getBytes(StandardCharsets.UTF_8));
      body.writeBytes(
          ("{\"index\":{}}\n{" + ts + ",\"message\":\"good 2\"}\n")
              .getBytes(StandardCharsets.UTF_8));
      HttpResponse<byte[]> r = s.post("/elasticsearch/hostile/_bulk", body.toByteArray(), ND);
      assertEquals(200, r.statusCode(), text(r));
      JsonNode items = ShipperServer.MAPPER.readTree(r.body()).get("items");
      int[] expected = {201, 400, 400, 400, 400, 400, 400, 201};
      assertEquals(expected.length, items.size(), items.toString());
      for (int i = 0; i < expected.length; i++) {
        assertEquals(
            expected[i],
            items.get(i).get("index").get("status").intValue(),
            items.get(i).toString());
      }
      assertTrue(items.get(1).toString().contains("UTF-8"), items.get(1).toString());
      assertTrue(items.get(2).toString().contains("deeper"), items.get(2).toString());
      assertEquals(2, s.count("hostile", null));
    }
  }

  @Test
  void bodiesOverTheLimitAreRefusedBeforeParsing(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir, "--max-ingest-bytes", "64k")) {
      byte[] big = new byte[100_000];
      java.util.Arrays.fill(big, (byte) ' ');
      HttpResponse<byte[]> r = s.post("/elasticsearch/_bulk", big, ND);
      assertEquals(413, r.statusCode(), text(r));
      assertEquals(
          "content_too_long_exception",
          ShipperServer.MAPPER.readTree(r.body()).get("error").get("type").textValue());
      // A snappy body that says it uncompresses past the limit is refused before it is.
      byte[] bomb = Snappy.compress(new byte[1 << 20]);
      assertTrue(bomb.length < 64 << 10, "the compressed body is within the limit");
      r = s.post("/loki/api/v1/push", bomb, "application/x-protobuf");
      assertEquals(413, r.statusCode(), text(r));
      // A gzip bomb on either route.
      ByteArrayOutputStream gz = new ByteArrayOutputStream();
      try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
        out.write(new byte[4 << 20]);
      }
      r =
          s.post(
              "/loki/api/v1/push",
              gz.toByteArray(),
              "application/json",
              "Content-Encoding",
              "gzip");
      assertEquals(413, r.statusCode(), text(r));
      r = s.post("/elasticsearch/_bulk", gz.toByteArray(), ND, "Content-Encoding", "gzip");
      assertEquals(413, r.statusCode(), text(r));
    }
  }

  @Test
  void lokiRefusesInvalidUtf8AndBadTimesWhole(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      byte[] proto =
          Push.PushRequest.newBuilder()
              .addStreams(
                  Push.Stream.newBuilder()
                      .setLabels("{app=\"x\"}")
                      .addEntries(
                          Push.Entry.newBuilder()
                              .setTimestamp(Push.Timestamp.newBuilder().setSeconds(1_764_324_000L))
                              .setLine("good")))
              .build()
              .toByteArray();
      // Corrupt the line's bytes into invalid UTF-8.
      String asText = new String(proto, StandardCharsets.ISO_8859_1);
      int at = asText.indexOf("good");
      proto[at] = (byte) 0xFF;
      HttpResponse<byte[]> r =
          s.post("/loki/api/v1/push", Snappy.compress(proto), "application/x-protobuf");
      assertEquals(400, r.statusCode(), text(r));
      byte[] json =
          "{\"streams\":[{\"stream\":{\"a\":\"\u00ff\"},\"values\":[[\"1\",\"x\"]]}]}"
              .getBytes(StandardCharsets.ISO_8859_1);
      r = s.post("/loki/api/v1/push", json, "application/json");
      assertEquals(400, r.statusCode(), text(r));
      // An overlong encoding of '/', which Jackson alone would decode.
      byte[] overlong =
          "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[\"1\",\"x\u00c0\u00af\"]]}]}"
              .getBytes(StandardCharsets.ISO_8859_1);
      r = s.post("/loki/api/v1/push", overlong, "application/json");
      assertEquals(400, r.statusCode(), text(r));
      assertTrue(text(r).contains("not valid UTF-8"), text(r));
      byte[] zero =
          Snappy.compress(
              Push.PushRequest.newBuilder()
                  .addStreams(
                      Push.Stream.newBuilder()
                          .setLabels("{app=\"x\"}")
                          .addEntries(Push.Entry.newBuilder().setLine("no time")))
                  .build()
                  .toByteArray());
      r = s.post("/loki/api/v1/push", zero, "application/x-protobuf");
      assertEquals(400, r.statusCode(), text(r));
      assertTrue(text(r).contains("after 1970"), text(r));
      byte[] pastLong = // 19 digits, one past the largest long
          "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[\"9223372036854775808\",\"x\"]]}]}"
              .getBytes(StandardCharsets.UTF_8);
      r = s.post("/loki/api/v1/push", pastLong, "application/json");
      assertEquals(400, r.statusCode(), text(r));
      assertTrue(text(r).contains("before 2262"), text(r));
      assertTrue(!s.tables().containsKey("loki_logs"));
    }
  }
}
