package dev.chartwell.server.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET} and {@code PATCH .../services/{id}/diskQuota}: shapes, refusals, persistence. */
class DiskQuotaRouteIntegrationTest {
  @TempDir Path dir;

  @Test
  void aQuotaIsSetReadClearedAndKeptAcrossARestart() throws Exception {
    String path;
    try (TwoServices s = new TwoServices(dir, "--max-disk-per-service", "64m")) {
      path = TwoServices.SERVICES + "/" + s.a.id() + "/diskQuota";
      JsonNode none = s.cloud("GET", path, null);
      assertTrue(none.get("maxDiskBytes").isNull(), none.toString());
      assertEquals(64L << 20, none.get("defaultMaxDiskBytes").asLong());
      assertEquals(0, none.get("usedDiskBytes").asLong());
      JsonNode set = s.cloud("PATCH", path, "{\"maxDiskBytes\":2097152}");
      assertEquals(2_097_152, set.get("maxDiskBytes").asLong());
      assertEquals(2_097_152, s.cloud("GET", path, null).get("maxDiskBytes").asLong());
      // the other service keeps the default
      assertTrue(
          s.cloud("GET", TwoServices.SERVICES + "/" + s.b.id() + "/diskQuota", null)
              .get("maxDiskBytes")
              .isNull());

      for (String[] bad :
          new String[][] {
            {"{\"maxDiskBytes\":1000}", "maxDiskBytes: must be a whole number of bytes, at least"},
            {"{\"maxDiskBytes\":\"1g\"}", "maxDiskBytes: must be a whole number of bytes"},
            {"{}", "maxDiskBytes: is required"},
            {"{\"maxDiskBytes\":2097152,\"x\":1}", "x: unknown field"},
            {"[1]", "the body must be a JSON object"},
          }) {
        HttpResponse<String> r =
            s.http.send("PATCH", path, bad[0], "Authorization", TwoServices.ADMIN);
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains(bad[1]), bad[0] + ": " + r.body());
      }
      HttpResponse<String> missing =
          s.http.send(
              "PATCH",
              TwoServices.SERVICES + "/no-such-service/diskQuota",
              "{\"maxDiskBytes\":2097152}",
              "Authorization",
              TwoServices.ADMIN);
      assertEquals(404, missing.statusCode(), missing.body());
      HttpResponse<String> anonymous = s.http.send("GET", path, null);
      assertEquals(401, anonymous.statusCode(), anonymous.body());
      assertEquals(2_097_152, s.cloud("GET", path, null).get("maxDiskBytes").asLong());
    }
    try (ChartwellServer again = TestServers.start(dir)) {
      HttpTestClient http = new HttpTestClient(again.port());
      HttpResponse<String> r = http.send("GET", path, null, "Authorization", TwoServices.ADMIN);
      assertEquals(200, r.statusCode(), r.body());
      assertEquals(
          2_097_152,
          TwoServices.MAPPER.readTree(r.body()).get("result").get("maxDiskBytes").asLong());
      r = http.send("PATCH", path, "{\"maxDiskBytes\":null}", "Authorization", TwoServices.ADMIN);
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(
          TwoServices.MAPPER.readTree(r.body()).get("result").get("maxDiskBytes").isNull(),
          r.body());
    }
  }
}
