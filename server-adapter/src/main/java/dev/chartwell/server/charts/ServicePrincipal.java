package dev.chartwell.server.charts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Principal;
import dev.chartwell.server.management.IpAccessList;
import java.net.InetAddress;

/**
 * A request to the HyperDX-style API ({@code /api/v2}) or OTLP, authenticated with a service's
 * password.
 *
 * @param service the stored service
 */
public record ServicePrincipal(ObjectNode service) implements Principal {
  /**
   * The principal of a request for a service's data, once the client's address is known to be in
   * the service's {@code ipAccessList} (an empty list allows every address).
   *
   * @param service the stored service
   * @param client the client's address (the TCP peer), {@code null} when unknown
   * @return the principal
   * @throws ApiException 403 when the list does not hold the address
   */
  public static ServicePrincipal admitted(ObjectNode service, InetAddress client) {
    if (!IpAccessList.allows(IpAccessList.sources(service.get("ipAccessList")), client)) {
      throw ApiException.forbidden(
          "client address "
              + (client == null ? "(unknown)" : client.getHostAddress())
              + " is not in the IP access list of service "
              + service.get("id").asText());
    }
    return new ServicePrincipal(service);
  }

  @Override
  public String describe() {
    return "service " + service.get("id").asText();
  }

  /**
   * @return the service's id
   */
  public String id() {
    return service.get("id").asText();
  }

  /**
   * @return the id of the service's warehouse (its sources, tables and connections)
   */
  public String warehouseId() {
    return service.get("dataWarehouseId").asText();
  }

  /**
   * @return the service's state ({@code running}, {@code starting}, {@code stopped}, ...)
   */
  public String state() {
    return service.get("state").asText();
  }

  /** Queries and ingestion need a running service: 409 otherwise. */
  public void requireRunning() {
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

  /** Writing events and tables needs a service that is not read-only: 403 otherwise. */
  public void requireWritable() {
    if (service.path("isReadonly").asBoolean(false)) {
      throw ApiException.forbidden(
          "service " + service.get("id").asText() + " is read-only: it reads, it does not write");
    }
  }
}
