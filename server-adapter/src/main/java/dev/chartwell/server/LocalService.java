package dev.chartwell.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.management.Organization;
import dev.chartwell.server.management.Services;
import java.util.Optional;

/**
 * A service the server makes for its own start-up features (the embedded server's service, the
 * demo, the quick start): found by name or created, started when stopped, and waited for until it
 * runs.
 *
 * @param id the service id
 * @param warehouse its warehouse (where its sources are)
 * @param token its token: the one given when it still works, else a new one
 */
record LocalService(String id, String warehouse, String token) {

  /**
   * @param org the organization
   * @param services the services
   * @param mapper JSON codec
   * @param name the service's name
   * @param knownToken a token the caller kept, kept when it still belongs to the service
   * @return the running service and a token of it
   * @throws InterruptedException when interrupted while it starts
   */
  static LocalService ensure(
      Organization org,
      Services services,
      ObjectMapper mapper,
      String name,
      Optional<String> knownToken)
      throws InterruptedException {
    Optional<ObjectNode> existing =
        services.list(org.id()).stream()
            .filter(s -> s.get("name").asText().equals(name))
            .findFirst();
    String id;
    String token;
    if (existing.isPresent()) {
      id = existing.get().get("id").asText();
      String serviceId = id;
      token =
          knownToken
              .filter(
                  t ->
                      services
                          .byToken(t)
                          .filter(s -> serviceId.equals(s.path("id").asText()))
                          .isPresent())
              .orElseGet(
                  () ->
                      services.rotatePassword(org.id(), serviceId, Optional.empty()).orElseThrow());
      if (existing.get().get("state").asText().equals("stopped")) {
        services.command(org.id(), id, "start");
      }
    } else {
      ObjectNode body = mapper.createObjectNode();
      body.put("name", name);
      body.put("provider", "aws");
      body.put("region", "us-east-1");
      if (org.tier().equals("BASIC")) {
        body.put("numReplicas", 1);
      }
      Services.Created c = services.create(org, body);
      id = c.service().get("id").asText();
      token = c.password();
    }
    // A transition takes a second (ChartwellServer.SERVICE_TRANSITION), on another thread.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!services.get(org.id(), id).get("state").asText().equals("running")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the service " + name + " (" + id + ") did not start");
      }
      Thread.sleep(5);
    }
    return new LocalService(id, services.get(org.id(), id).get("dataWarehouseId").asText(), token);
  }
}
