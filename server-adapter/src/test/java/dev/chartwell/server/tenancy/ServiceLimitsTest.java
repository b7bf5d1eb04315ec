package dev.chartwell.server.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import org.junit.jupiter.api.Test;

class ServiceLimitsTest {
  @Test
  void eachServiceHasItsOwnPlacesAndA429PastThem() {
    ServiceLimits limits = new ServiceLimits(2, 1);
    ServiceLimits.Permit a1 = limits.query("a");
    ServiceLimits.Permit a2 = limits.query("a");
    ApiException e = assertThrows(ApiException.class, () -> limits.query("a"));
    assertEquals(ErrorCode.TOO_MANY_REQUESTS, e.code());
    assertEquals("1", e.headers().get("Retry-After"));
    assertTrue(e.getMessage().contains("service a has 2 queries in flight"), e.getMessage());
    assertTrue(e.getMessage().contains("--max-queries-per-service"), e.getMessage());
    limits.query("b").close(); // another service is not held back by a's
    a1.close();
    a1.close(); // a second close gives back nothing more
    ServiceLimits.Permit a3 = limits.query("a");
    assertThrows(ApiException.class, () -> limits.query("a"));
    a2.close();
    a3.close();
    try (ServiceLimits.Permit i = limits.ingest("a")) {
      ApiException full = assertThrows(ApiException.class, () -> limits.ingest("a"));
      assertTrue(full.getMessage().contains("--max-ingests-per-service"), full.getMessage());
      limits.query("a").close(); // queries and ingestion are counted apart
    }
    limits.ingest("a").close();
  }

  @Test
  void limitsMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new ServiceLimits(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new ServiceLimits(1, 0));
  }
}
