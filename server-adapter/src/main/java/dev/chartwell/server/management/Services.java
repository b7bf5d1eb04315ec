package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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

  private final JsonStore services;
  private final JsonStore warehouses;
  private final ObjectMapper mapper;
  private final SecretHasher hasher;
  private final Clock clock;
  private final Duration transition;
  private final ScheduledExecutorService timer;
  private final java.util.function.Consumer<ObjectNode> onTerminated;

  private Services(
      JsonStore services,
      JsonStore warehouses,
      ObjectMapper mapper,
      SecretHasher hasher,
      Clock clock,
      Duration transition,
      java.util.function.Consumer<ObjectNode> onTerminated) {
    this.onTerminated = onTerminated;
    this.services = services;
    this.warehouses = warehouses;
    this.mapper = mapper;
    this.hasher = hasher;
    this.clock = clock;
    this.transition = transition;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "chartwell-lifecycle");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Opens the stores and resumes any transition that was under way.
   *
   * @param dataDir the data directory
   * @param mapper JSON codec
   * @param clock time source
   * @param transition how long a lifecycle transition takes
   * @param onTerminated told about each service once it is gone (to drop what it owned)
   * @return the services
   * @throws IOException when a store cannot be opened
   */
  public static Services open(
      Path dataDir,
      ObjectMapper mapper,
      Clock clock,
      Duration transition,
      java.util.function.Consumer<ObjectNode> onTerminated)
      throws IOException {
    JsonStore services = JsonStore.open(dataDir, Collection.SERVICES, mapper);
    JsonStore warehouses;
    try {
      warehouses = JsonStore.open(dataDir, Collection.WAREHOUSES, mapper);
    } catch (IOException | RuntimeException e) {
      services.close();
      throw e;
    }
    Services s =
        new Services(
            services, warehouses, mapper, new SecretHasher(), clock, transition, onTerminated);
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
    ObjectNode s = mapper.createObjectNode();
    s.put("id", id);
    s.put("name", c.name());
    s.put("provider", c.provider());
    s.put("region", c.region());
    s.put("state", "provisioning");
    s.put("clickhouseVersion", "25.8");
    s.set("endpoints", endpoints(id, c.region(), c.provider(), c.mysql()));
    s.put("tier", c.tier().orElse("production"));
    copyNumber(body, s, "minTotalMemoryGb");
    copyNumber(body, s, "maxTotalMemoryGb");
    s.put("minReplicaMemoryGb", c.minReplicaMemoryGb().orElse(8.0).longValue());
    s.put("maxReplicaMemoryGb", c.maxReplicaMemoryGb().orElse(120.0).longValue());
    s.put("numReplicas", c.numReplicas());
    String mode = body.path("autoscalingMode").asText("vertical");
    s.put("autoscalingMode", mode);
    ObjectNode scaling = s.putObject("currentScaling");
    scaling.put("effectiveAutoscalingMode", mode);
    scaling.put("effectiveMinReplicaMemoryGb", s.get("minReplicaMemoryGb").longValue());
    scaling.put("effectiveMaxReplicaMemoryGb", s.get("maxReplicaMemoryGb").longValue());
    scaling.put("effectiveMinReplicas", c.numReplicas());
    scaling.put("effectiveMaxReplicas", c.numReplicas());
    s.put("idleScaling", body.path("idleScaling").asBoolean(true));
    s.put("idleTimeoutMinutes", body.path("idleTimeoutMinutes").asLong(15));
    s.set(
        "ipAccessList",
        body.has("ipAccessList") ? body.get("ipAccessList") : mapper.createArrayNode());
    s.put("createdAt", now());
    copyText(body, s, "encryptionKey");
    copyText(body, s, "encryptionAssumedRoleIdentifier");
    s.putNull("iamRole");
    s.set(
        "privateEndpointIds",
        body.has("privateEndpointIds") ? body.get("privateEndpointIds") : mapper.createArrayNode());
    s.set("availablePrivateEndpointIds", mapper.createArrayNode());
    s.put("dataWarehouseId", warehouse);
    s.put("isPrimary", c.dataWarehouseId().isEmpty());
    s.put("isReadonly", c.isReadonly());
    s.put("releaseChannel", c.releaseChannel().orElse("default"));
    copyText(body, s, "byocId");
    s.put(
        "hasTransparentDataEncryption", body.path("hasTransparentDataEncryption").asBoolean(false));
    if (c.profile().isPresent()) {
      s.put("profile", c.profile().get());
    } else {
      s.putNull("profile");
    }
    if (c.complianceType().isPresent()) {
      s.put("complianceType", c.complianceType().get());
    } else {
      s.putNull("complianceType");
    }
    s.set("tags", body.has("tags") ? body.get("tags") : mapper.createArrayNode());
    s.put("enableCoreDumps", body.path("enableCoreDumps").asBoolean(true));
    s.put("_organizationId", org.id());
    String password = hasher.randomToken(24);
    setPassword(s, sha256(password));
    scheduleTransition(s);
    services.put(id, s);
    return new Created(view(s), password);
  }

  /**
   * @param orgId an organization
   * @return its services, oldest first
   */
  public List<ObjectNode> list(String orgId) {
    return services.list(s -> s.path("_organizationId").asText().equals(orgId)).stream()
        .map(Services::view)
        .toList();
  }

  /**
   * @param orgId the organization of the path
   * @param id a service id
   * @return the service
   * @throws ApiException 404 when the organization has no such service
   */
  public ObjectNode get(String orgId, String id) {
    return view(stored(orgId, id));
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
    r.node("ipAccessList").ifPresent(p -> addRemove(r, "ipAccessList", p, true));
    r.node("privateEndpointIds").ifPresent(p -> addRemove(r, "privateEndpointIds", p, false));
    r.node("tags").ifPresent(p -> addRemove(r, "tags", p, false));
    Optional<String> channel =
        ServiceRules.oneOf(r, "releaseChannel", false, ServiceRules.RELEASE_CHANNELS);
    boolean mysqlGiven = body.has("endpoints");
    boolean mysql = ServiceRules.endpoints(r);
    r.string("transparentDataEncryptionKeyId", false);
    r.bool("enableCoreDumps");
    r.finish();
    return view(
        update(
            org.id(),
            id,
            s -> {
              if (channel.isPresent() && s.get("tier").asText().equals("development")) {
                throw ApiException.badRequest(
                    "releaseChannel: not available for the development tier");
              }
              if (body.hasNonNull("name")) {
                s.put("name", body.get("name").textValue());
              }
              if (body.hasNonNull("ipAccessList")) {
                applyAddRemove(
                    (ArrayNode) s.get("ipAccessList"), body.get("ipAccessList"), "source");
              }
              if (body.hasNonNull("privateEndpointIds")) {
                applyAddRemove(
                    (ArrayNode) s.get("privateEndpointIds"), body.get("privateEndpointIds"), null);
              }
              if (body.hasNonNull("tags")) {
                applyAddRemove((ArrayNode) s.get("tags"), body.get("tags"), "key");
              }
              channel.ifPresent(c -> s.put("releaseChannel", c));
              if (mysqlGiven) {
                s.set(
                    "endpoints",
                    endpoints(
                        s.get("id").asText(),
                        s.get("region").asText(),
                        s.get("provider").asText(),
                        mysql));
              }
              if (body.hasNonNull("enableCoreDumps")) {
                s.put("enableCoreDumps", body.get("enableCoreDumps").booleanValue());
              }
              return s;
            }));
  }

  /**
   * @param orgId the organization
   * @param id the service
   * @param command {@code start} or {@code stop}
   * @return the service, in its transitional state
   * @throws ApiException 409 when the command does not fit the current state
   */
  public ObjectNode command(String orgId, String id, String command) {
    return view(
        update(
            orgId,
            id,
            s -> {
              String state = s.get("state").asText();
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
              scheduleTransition(s);
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
      digest = sha256(password);
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
          setPassword(s, digest);
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
          scheduleTransition(s);
          return s;
        });
  }

  /**
   * The service a chart API Bearer token (a service password) belongs to. Checked on every request,
   * so a rotated password stops working at once.
   *
   * @param token the token
   * @return the stored service (with internal fields), if the token is a service's password
   */
  public Optional<ObjectNode> byToken(String token) {
    byte[] digest = sha256(token);
    for (ObjectNode s : services.list(any -> true)) {
      if (hasher.matchesDigest(
          digest, s.get("_passwordSalt").asText(), s.get("_passwordHash").asText())) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
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

  private void scheduleTransition(ObjectNode s) {
    long endsAt = clock.millis() + transition.toMillis();
    s.put("_transitionEndsAt", endsAt);
    String id = s.get("id").asText();
    String from = s.get("state").asText();
    timer.schedule(
        () -> completeTransition(id, from), transition.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void completeTransition(String id, String from) {
    ObjectNode[] gone = new ObjectNode[1];
    services.compute(
        id,
        s -> {
          if (s == null || !s.get("state").asText().equals(from)) {
            return s; // gone, or something else happened meanwhile
          }
          String to = TRANSITIONS.get(from);
          if (to.isEmpty()) {
            gone[0] = s;
            return null; // terminated: gone
          }
          s.put("state", to);
          s.remove("_transitionEndsAt");
          return s;
        });
    if (gone[0] != null) {
      onTerminated.accept(gone[0]);
    }
  }

  /**
   * @param warehouseId a warehouse
   * @return whether any service still belongs to it
   */
  public boolean warehouseInUse(String warehouseId) {
    return !services.list(s -> s.path("dataWarehouseId").asText().equals(warehouseId)).isEmpty();
  }

  private void resumeTransitions() {
    for (ObjectNode s : services.list(any -> true)) {
      String state = s.get("state").asText();
      if (TRANSITIONS.containsKey(state)) {
        long delay = Math.max(0, s.path("_transitionEndsAt").asLong(0) - clock.millis());
        String id = s.get("id").asText();
        timer.schedule(() -> completeTransition(id, state), delay, TimeUnit.MILLISECONDS);
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

  private ArrayNode endpoints(String id, String region, String provider, boolean mysql) {
    ArrayNode list = mapper.createArrayNode();
    String host = id.substring(0, 8) + "." + region + "." + provider + ".chartwell.internal";
    ObjectNode https = list.addObject();
    https.put("protocol", "https");
    https.put("host", host);
    https.put("port", 8443);
    https.put("username", "default");
    if (mysql) {
      ObjectNode m = list.addObject();
      m.put("protocol", "mysql");
      m.put("host", host);
      m.put("port", 3306);
      m.put("username", id);
    }
    return list;
  }

  private void addRemove(BodyReader r, String field, JsonNode patch, boolean ips) {
    if (!patch.isObject()) {
      r.problem(field + ": must be an object with add and/or remove");
      return;
    }
    Iterator<String> names = patch.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!Set.of("add", "remove").contains(n)) {
        r.problem(field + "." + n + ": unknown field");
      }
    }
    for (String part : List.of("add", "remove")) {
      if (!patch.has(part)) {
        continue;
      }
      JsonNode list = patch.get(part);
      String path = field + "." + part;
      if (ips) {
        ServiceRules.ipEntries(r, path, list);
      } else if (field.equals("tags")) {
        ServiceRules.tagEntries(r, path, list);
      } else if (!list.isArray()) {
        r.problem(path + ": must be an array");
      } else {
        for (int i = 0; i < list.size(); i++) {
          if (!list.get(i).isTextual()) {
            r.problem(path + "[" + i + "]: must be a string");
          }
        }
      }
    }
  }

  /** Removes first, then adds; entries are matched by {@code key} (or whole value). */
  private static void applyAddRemove(ArrayNode target, JsonNode patch, String key) {
    if (patch.has("remove")) {
      for (JsonNode gone : patch.get("remove")) {
        for (int i = target.size() - 1; i >= 0; i--) {
          JsonNode t = target.get(i);
          boolean same = key == null ? t.equals(gone) : t.path(key).equals(gone.path(key));
          if (same) {
            target.remove(i);
          }
        }
      }
    }
    if (patch.has("add")) {
      for (JsonNode added : patch.get("add")) {
        boolean present = false;
        for (JsonNode t : target) {
          present |= key == null ? t.equals(added) : t.path(key).equals(added.path(key));
        }
        if (!present) {
          target.add(added);
        }
      }
    }
  }

  private void setPassword(ObjectNode s, byte[] digest) {
    SecretHasher.Hashed h = hasher.hashDigest(digest);
    s.put("_passwordSalt", h.salt());
    s.put("_passwordHash", h.hash());
  }

  static byte[] sha256(String password) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /**
   * @param s a stored service
   * @return the public view: every field but the internal ones
   */
  static ObjectNode view(ObjectNode s) {
    ObjectNode v = s.deepCopy();
    List<String> internal = new ArrayList<>();
    v.fieldNames()
        .forEachRemaining(
            n -> {
              if (n.startsWith("_")) {
                internal.add(n);
              }
            });
    v.remove(internal);
    return v;
  }

  private static void copyNumber(JsonNode from, ObjectNode to, String field) {
    if (from.hasNonNull(field)) {
      to.put(field, from.get(field).longValue());
    } else {
      to.putNull(field);
    }
  }

  private static void copyText(JsonNode from, ObjectNode to, String field) {
    if (from.hasNonNull(field)) {
      to.put(field, from.get(field).textValue());
    } else {
      to.putNull(field);
    }
  }

  private String now() {
    return Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    services.close();
    warehouses.close();
  }
}
