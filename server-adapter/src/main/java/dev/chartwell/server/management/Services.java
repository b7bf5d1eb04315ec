package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Services and their warehouses, durable in Chronicle Map. A service document holds the public
 * fields of the API plus internal ones (prefixed {@code _}: organization, password hash, when the
 * current transition ends). Lifecycle transitions complete asynchronously; one that was under way
 * when the server stopped is resumed at start.
 */
public final class Services implements AutoCloseable {
  /** States a service passes through on its way to a stable one, and where each leads. */
  private static final Map<String, String> TRANSITIONS =
      Map.of(
          "provisioning", "running",
          "starting", "running",
          "stopping", "stopped",
          "terminating", "");

  /** The states in which {@code awake} has nothing to do. */
  private static final Set<String> AWAKE = Set.of("running", "provisioning", "starting");

  private final JsonStore services;
  private final JsonStore warehouses;
  private final ObjectMapper mapper;
  private final SecretHasher hasher;
  private final Clock clock;
  private final Duration transition;
  private final TransitionTimer timer;
  private final java.util.function.Consumer<ObjectNode> onTerminated;
  private final ServiceTokens tokens;

  private Services(
      JsonStore services,
      JsonStore warehouses,
      ObjectMapper mapper,
      SecretHasher hasher,
      Clock clock,
      Duration transition,
      TransitionTimer timer,
      java.util.function.Consumer<ObjectNode> onTerminated,
      Secrets secrets) {
    this.onTerminated = onTerminated;
    this.tokens = new ServiceTokens(services, hasher, secrets);
    this.services = services;
    this.warehouses = warehouses;
    this.mapper = mapper;
    this.hasher = hasher;
    this.clock = clock;
    this.transition = transition;
    this.timer = timer;
  }

  /**
   * Opens the stores and resumes any transition that was under way.
   *
   * @param dataDir the data directory
   * @param mapper JSON codec
   * @param clock time source
   * @param transition how long a lifecycle transition takes
   * @param timer ends transitions when their time is up ({@link TransitionTimer#realTime()})
   * @param onTerminated told about each service as its deletion ends, before it goes (to drop what
   *     it owned)
   * @param secrets the server's key, under which service tokens are indexed
   * @param hasher hashes service passwords and generates new ones
   * @return the services
   * @throws IOException when a store cannot be opened
   */
  public static Services open(
      Path dataDir,
      ObjectMapper mapper,
      Clock clock,
      Duration transition,
      TransitionTimer timer,
      java.util.function.Consumer<ObjectNode> onTerminated,
      Secrets secrets,
      SecretHasher hasher)
      throws IOException {
    JsonStore services;
    JsonStore warehouses;
    try {
      services = JsonStore.open(dataDir, Collection.SERVICES, mapper);
      try {
        warehouses = JsonStore.open(dataDir, Collection.WAREHOUSES, mapper);
      } catch (IOException | RuntimeException e) {
        services.close();
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      timer.close();
      throw e;
    }
    Services s =
        new Services(
            services, warehouses, mapper, hasher, clock, transition, timer, onTerminated, secrets);
    s.resumeTransitions();
    return s;
  }

  /**
   * A service just created and its password (shown once).
   *
   * @param service the public view
   * @param password the password (the chart API's Bearer token)
   */
  public record Created(ObjectNode service, String password) {}

  /**
   * @param org the organization
   * @param body the create request
   * @return the new service, in state provisioning
   */
  public Created create(Organization org, JsonNode body) {
    ServiceRules.Create c = ServiceRules.create(body, org, id -> warehouseOf(id, org.id()));
    String id = UUID.randomUUID().toString();
    String warehouse = c.dataWarehouseId().orElseGet(() -> newWarehouse(org.id()));
    ObjectNode s = ServiceDocument.create(mapper, id, warehouse, c, body, org.id(), now());
    String password = hasher.randomToken(24);
    tokens.setPassword(s, ServiceTokens.sha256(password));
    // Stored before its timer starts: a transition that ended first would find no service to move
    // on, and the service would stay provisioning for good.
    markTransition(s);
    services.put(id, s);
    endTransitionLater(s);
    return new Created(ServiceDocument.view(s), password);
  }

  /**
   * @param orgId an organization
   * @return its services, oldest first
   */
  public List<ObjectNode> list(String orgId) {
    return list(orgId, List.of());
  }

  /**
   * @param orgId an organization
   * @param filters the list's {@code filter} parameters ({@code tag:key} or {@code tag:key=value}),
   *     all of which a service must match
   * @return its matching services, oldest first
   * @throws ApiException 400 for a filter that is not a tag filter
   */
  public List<ObjectNode> list(String orgId, List<String> filters) {
    List<ServiceRules.TagFilter> tags = ServiceRules.filters(filters);
    return services
        .list(
            s ->
                s.path("_organizationId").asText().equals(orgId)
                    && tags.stream().allMatch(t -> t.matches(s)))
        .stream()
        .map(ServiceDocument::view)
        .toList();
  }

  /**
   * @param orgId the organization of the path
   * @param id a service id
   * @return the service
   * @throws ApiException 404 when the organization has no such service
   */
  public ObjectNode get(String orgId, String id) {
    return ServiceDocument.view(stored(orgId, id));
  }

  /**
   * @param id a service id
   * @return the service, whatever its organization (for work the server does on its own, such as
   *     evaluating alerts)
   */
  public Optional<ObjectNode> byId(String id) {
    return services.get(id).map(ServiceDocument::view);
  }

  /**
   * Updates basic details: name, IP access list and private endpoints (remove, then add), release
   * channel, the MySQL endpoint, tags, core dumps.
   *
   * @param org the organization
   * @param id the service
   * @param body the patch
   * @return the updated service
   */
  public ObjectNode patch(Organization org, String id, JsonNode body) {
    BodyReader r = BodyReader.of(body, ServiceRules.PATCH_FIELDS);
    r.string("name", false).ifPresent(n -> ServiceRules.checkName(r, n));
    for (String list : List.of("ipAccessList", "privateEndpointIds", "tags")) {
      r.node(list).ifPresent(p -> ServiceDocument.addRemove(r, list, p));
    }
    ServiceRules.oneOf(r, "releaseChannel", false, ServiceRules.RELEASE_CHANNELS);
    boolean mysql = ServiceRules.endpoints(r);
    r.string("transparentDataEncryptionKeyId", false);
    r.bool("enableCoreDumps");
    r.finish();
    return ServiceDocument.view(
        update(
            org.id(),
            id,
            s -> {
              ServiceDocument.patch(mapper, s, body, mysql);
              return s;
            }));
  }

  /**
   * Changes how a service scales: {@code PATCH .../scaling} (deprecated total memory, replicas,
   * idling) or {@code PATCH .../replicaScaling} (memory per replica, autoscaling mode, replicas,
   * idling).
   *
   * @param org the organization
   * @param id the service
   * @param body the request
   * @param fields the fields the endpoint takes
   * @return the service
   */
  public ObjectNode scale(Organization org, String id, JsonNode body, Set<String> fields) {
    BodyReader r = BodyReader.of(body, fields);
    return ServiceDocument.view(
        update(
            org.id(),
            id,
            s -> {
              ScalingRules.Context ctx =
                  new ScalingRules.Context(
                      org,
                      s.path("isPrimary").asBoolean(true),
                      s.path("tier").asText().equals("development"));
              Scaling scaling = ScalingRules.apply(r, Scaling.of(s), ctx);
              r.finish();
              scaling.writeTo(s);
              return s;
            }));
  }

  /**
   * @param orgId the organization
   * @param id the service
   * @param command {@code start}, {@code stop} or {@code awake} (which wakes an idle service; a
   *     Chartwell service never idles, so it changes nothing for a running service)
   * @return the service, in its transitional state
   * @throws ApiException 409 when the command does not fit the current state
   */
  public ObjectNode command(String orgId, String id, String command) {
    return ServiceDocument.view(
        update(
            orgId,
            id,
            s -> {
              String state = s.get("state").asText();
              if (command.equals("awake") && AWAKE.contains(state)) {
                return s; // never idle on one machine: running or on its way there already
              }
              String next;
              if (command.equals("stop") && state.equals("running")) {
                next = "stopping";
              } else if (command.equals("start") && state.equals("stopped")) {
                next = "starting";
              } else {
                throw ApiException.conflict(
                    "cannot " + command + " the service in state '" + state + "'");
              }
              s.put("state", next);
              markTransition(s);
              endTransitionLater(s); // its end waits for this compute to be stored
              return s;
            }));
  }

  /**
   * @param orgId the organization
   * @param id the service
   * @param newPasswordHash base64 SHA-256 of a password the client chose, or empty to generate one
   * @return the new password, or empty when the client gave a hash
   */
  public Optional<String> rotatePassword(
      String orgId, String id, Optional<String> newPasswordHash) {
    String password = newPasswordHash.isEmpty() ? hasher.randomToken(24) : null;
    byte[] digest;
    if (password != null) {
      digest = ServiceTokens.sha256(password);
    } else {
      try {
        digest = Base64.getDecoder().decode(newPasswordHash.get());
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest(
            "newPasswordHash: must be the base64 SHA-256 of the password");
      }
      if (digest.length != 32) {
        throw ApiException.badRequest(
            "newPasswordHash: must be the base64 SHA-256 of the password");
      }
    }
    update(
        orgId,
        id,
        s -> {
          tokens.setPassword(s, digest);
          return s;
        });
    return Optional.ofNullable(password);
  }

  /**
   * Starts deleting a stopped service; it is gone when the transition ends.
   *
   * @param orgId the organization
   * @param id the service
   * @throws ApiException 409 unless the service is stopped
   */
  public void delete(String orgId, String id) {
    update(
        orgId,
        id,
        s -> {
          String state = s.get("state").asText();
          if (!state.equals("stopped")) {
            throw ApiException.conflict(
                "the service must be stopped before it is deleted. Current state: '" + state + "'");
          }
          s.put("state", "terminating");
          markTransition(s);
          endTransitionLater(s); // its end waits for this compute to be stored
          return s;
        });
  }

  /**
   * The service a chart API Bearer token (a service password) belongs to, checked on every request
   * ({@link ServiceTokens#byToken}).
   *
   * @param token the token
   * @return the stored service (with internal fields), if the token is a service's password
   */
  public Optional<ObjectNode> byToken(String token) {
    return tokens.byToken(token);
  }

  private ObjectNode stored(String orgId, String id) {
    return services
        .get(id)
        .filter(s -> s.path("_organizationId").asText().equals(orgId))
        .orElseThrow(() -> ApiException.notFound("service " + id + " does not exist"));
  }

  /** Atomically changes one service of the organization (Chronicle Map compute is per key). */
  private ObjectNode update(
      String orgId, String id, java.util.function.UnaryOperator<ObjectNode> change) {
    ObjectNode[] result = new ObjectNode[1];
    services.compute(
        id,
        s -> {
          if (s == null || !s.path("_organizationId").asText().equals(orgId)) {
            return s;
          }
          result[0] = change.apply(s);
          return result[0];
        });
    if (result[0] == null) {
      throw ApiException.notFound("service " + id + " does not exist");
    }
    return result[0];
  }

  /** Records when the transition the service has just begun ends. */
  private void markTransition(ObjectNode s) {
    s.put("_transitionEndsAt", clock.millis() + transition.toMillis());
  }

  /**
   * Starts the timer that ends the service's transition. Call it once the marked document is
   * stored, or from inside the {@code compute} that stores it (the end's own {@code compute} waits
   * for that one): a transition that ended first would find nothing to move on, and the service
   * would stay in its transitional state for good.
   */
  private void endTransitionLater(ObjectNode s) {
    String id = s.get("id").asText();
    String from = s.get("state").asText();
    timer.schedule(() -> completeTransition(id, from), transition.toMillis());
  }

  private void completeTransition(String id, String from) {
    if (TRANSITIONS.get(from).isEmpty()) {
      terminate(id, from);
      return;
    }
    services.compute(
        id,
        s -> {
          if (s == null || !s.get("state").asText().equals(from)) {
            return s; // gone, or something else happened meanwhile
          }
          s.put("state", TRANSITIONS.get(from));
          s.remove("_transitionEndsAt");
          return s;
        });
  }

  /**
   * Ends a deletion: what the service owned is dropped while it is still listed (terminating), and
   * only then does it go, so that a client that saw it gone finds its warehouse's sources gone with
   * it (when it was the warehouse's last service) rather than dropped a moment later, or kept for
   * good by a service created in that moment.
   */
  private void terminate(String id, String from) {
    // read through compute, which waits for the compute that stored the deletion and started it
    ObjectNode[] current = new ObjectNode[1];
    services.compute(
        id,
        t -> {
          current[0] = t;
          return t;
        });
    ObjectNode s = current[0];
    if (s == null || !s.get("state").asText().equals(from)) {
      return; // gone, or something else happened meanwhile
    }
    onTerminated.accept(s);
    services.compute(id, t -> t != null && t.get("state").asText().equals(from) ? null : t);
    tokens.forget(s);
  }

  /**
   * @param warehouseId a warehouse
   * @param except a service not to count (the one being deleted)
   * @return whether any other service still belongs to it
   */
  public boolean warehouseInUse(String warehouseId, String except) {
    return !services
        .list(
            s ->
                s.path("dataWarehouseId").asText().equals(warehouseId)
                    && !s.path("id").asText().equals(except))
        .isEmpty();
  }

  /** The stored field of a service's disk quota in bytes (a Chartwell extension). */
  private static final String DISK_QUOTA = "_maxDiskBytes";

  /**
   * @param orgId the organization of the path
   * @param id a service id
   * @return the disk quota set on the service, if any
   * @throws ApiException 404 when the organization has no such service
   */
  public java.util.OptionalLong diskQuota(String orgId, String id) {
    ObjectNode s = stored(orgId, id);
    return s.has(DISK_QUOTA)
        ? java.util.OptionalLong.of(s.get(DISK_QUOTA).asLong())
        : java.util.OptionalLong.empty();
  }

  /**
   * Sets or clears a service's disk quota.
   *
   * @param orgId the organization of the path
   * @param id a service id
   * @param bytes the quota, or empty to clear it
   * @throws ApiException 404 when the organization has no such service
   */
  public void setDiskQuota(String orgId, String id, java.util.OptionalLong bytes) {
    update(
        orgId,
        id,
        s -> {
          if (bytes.isPresent()) {
            s.put(DISK_QUOTA, bytes.getAsLong());
          } else {
            s.remove(DISK_QUOTA);
          }
          return s;
        });
  }

  /**
   * @return the disk quota of each warehouse whose services have one (the smallest, when several
   *     services share it)
   */
  public Map<String, Long> diskQuotasByWarehouse() {
    Map<String, Long> out = new java.util.HashMap<>();
    for (ObjectNode s : services.list(any -> any.has(DISK_QUOTA))) {
      out.merge(s.get("dataWarehouseId").asText(), s.get(DISK_QUOTA).asLong(), Math::min);
    }
    return out;
  }

  private void resumeTransitions() {
    for (ObjectNode s : services.list(any -> true)) {
      String state = s.get("state").asText();
      if (TRANSITIONS.containsKey(state)) {
        long delay = Math.max(0, s.path("_transitionEndsAt").asLong(0) - clock.millis());
        String id = s.get("id").asText();
        timer.schedule(() -> completeTransition(id, state), delay);
      }
    }
  }

  private boolean warehouseOf(String warehouseId, String orgId) {
    return warehouses
        .get(warehouseId)
        .filter(w -> w.path("organizationId").asText().equals(orgId))
        .isPresent();
  }

  private String newWarehouse(String orgId) {
    String id = UUID.randomUUID().toString();
    ObjectNode w = mapper.createObjectNode();
    w.put("id", id);
    w.put("organizationId", orgId);
    w.put("createdAt", now());
    warehouses.put(id, w);
    return id;
  }

  private String now() {
    return Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
  }

  @Override
  public void close() {
    timer.close();
    services.close();
    warehouses.close();
  }
}
