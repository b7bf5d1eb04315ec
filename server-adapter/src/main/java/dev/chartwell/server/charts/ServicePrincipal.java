package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Principal;

/**
 * A chart API request authenticated with a service's password.
 *
 * @param service the stored service
 */
record ServicePrincipal(ObjectNode service) implements Principal {
  @Override
  public String describe() {
    return "service " + service.get("id").asText();
  }

  String id() {
    return service.get("id").asText();
  }

  String warehouseId() {
    return service.get("dataWarehouseId").asText();
  }

  /** Queries and ingestion need a running service. */
  void requireRunning() {
    String state = service.get("state").asText();
    if (!state.equals("running")) {
      throw ApiException.conflict(
          "service "
              + service.get("id").asText()
              + " is not running. Current state: '"
              + state
              + "'");
    }
  }

  void requireWritable() {
    if (service.path("isReadonly").asBoolean(false)) {
      throw ApiException.forbidden(
          "service "
              + service.get("id").asText()
              + " is read-only and cannot write events or tables");
    }
  }
}
