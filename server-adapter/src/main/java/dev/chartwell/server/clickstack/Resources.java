package dev.chartwell.server.clickstack;

import static dev.chartwell.engine.InvalidQueryException.MAX_LISTED;
import static dev.chartwell.engine.InvalidQueryException.MAX_PROBLEM_LENGTH;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import dev.chartwell.server.validation.Problems;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The dashboards, alerts, webhooks, saved searches and roles of each service, durable in Chronicle
 * Map. Every document carries its service ({@code _serviceId}); ids of another service are 404s.
 * Each kind is checked by its own rules, which name each problem's path ({@code
 * tiles[3].config.select[0].aggFn}); references between them are checked on write and followed on
 * delete (a dashboard or saved search takes its alerts along; a webhook used by an alert stays).
 */
public final class Resources implements AutoCloseable {
  private final Map<Kind, JsonStore> stores;
  private final ObjectMapper mapper;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private volatile AlertStatus alertStatus = alert -> {};

  private Resources(Map<Kind, JsonStore> stores, ObjectMapper mapper, Clock clock) {
    this.stores = stores;
    this.mapper = mapper;
    this.clock = clock;
  }

  /**
   * @param dataDir the data directory
   * @param mapper JSON codec
   * @param clock time source
   * @param secrets the server's key, which encrypts stored webhook headers and query parameters
   * @return the resources
   * @throws IOException when a store cannot be opened
   */
  public static Resources open(Path dataDir, ObjectMapper mapper, Clock clock, Secrets secrets)
      throws IOException {
    Map<Kind, JsonStore> stores = new EnumMap<>(Kind.class);
    try {
      for (Kind kind : Kind.values()) {
        stores.put(kind, JsonStore.open(dataDir, kind.collection(), mapper, secrets));
      }
    } catch (IOException | RuntimeException e) {
      stores.values().forEach(JsonStore::close);
      throw e;
    }
    return new Resources(stores, mapper, clock);
  }

  /**
   * @param kind a kind
   * @param serviceId the service
   * @return its resources of that kind, oldest first (roles: the predefined ones first)
   */
  public List<ObjectNode> list(Kind kind, String serviceId) {
    return list(kind, serviceId, Api.CLOUD);
  }

  /**
   * @param kind a kind
   * @param serviceId the service
   * @param api the API that shows them
   * @return its resources of that kind, oldest first (roles: the predefined ones first)
   */
  public List<ObjectNode> list(Kind kind, String serviceId, Api api) {
    List<ObjectNode> out = new ArrayList<>();
    if (kind == Kind.ROLE) {
      out.addAll(RoleRules.predefined(mapper));
    }
    stored(kind, serviceId).forEach(n -> out.add(show(kind, n, api)));
    return out;
  }

  /**
   * @param kind a kind
   * @param serviceId the service
   * @param id a resource id
   * @return the resource
   * @throws ApiException 404 when the service has no such resource
   */
  public ObjectNode get(Kind kind, String serviceId, String id) {
    return get(kind, serviceId, id, Api.CLOUD);
  }

  /**
   * @param kind a kind
   * @param serviceId the service
   * @param id a resource id
   * @param api the API that shows it
   * @return the resource
   * @throws ApiException 404 when the service has no such resource
   */
  public ObjectNode get(Kind kind, String serviceId, String id, Api api) {
    if (kind == Kind.ROLE) {
      for (ObjectNode r : RoleRules.predefined(mapper)) {
        if (r.get("id").asText().equals(id)) {
          return r;
        }
      }
    }
    return show(kind, existing(kind, serviceId, id), api);
  }

  /**
   * @param kind a kind
   * @param serviceId the service
   * @param id a resource id
   * @return its id and the times it was created and last updated, which the document's shapes of
   *     dashboards and saved searches have no place for
   * @throws ApiException 404 when the service has no such resource
   */
  public Map<String, Object> timestamps(Kind kind, String serviceId, String id) {
    ObjectNode n = existing(kind, serviceId, id);
    return Map.of(
        "id",
        id,
        "createdAt",
        n.get("createdAt").asText(),
        "updatedAt",
        n.get("updatedAt").asText());
  }

  /**
   * Creates ({@code id == null}) or replaces a resource. An {@code id} in the body is ignored, as
   * the document says of sources.
   *
   * @param kind the kind
   * @param serviceId the service
   * @param id the resource to replace, or {@code null} to create one
   * @param body the definition
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @return the stored resource
   */
  public ObjectNode put(
      Kind kind, String serviceId, String id, JsonNode body, Predicate<String> sourceExists) {
    return put(kind, serviceId, id, body, sourceExists, Api.CLOUD);
  }

  /**
   * Creates ({@code id == null}) or replaces a resource through one of the APIs: a replacement
   * keeps the stored fields that API does not show.
   *
   * @param kind the kind
   * @param serviceId the service
   * @param id the resource to replace, or {@code null} to create one
   * @param body the definition
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @param api the API the request came through (and the answer goes back through)
   * @return the stored resource
   */
  public synchronized ObjectNode put(
      Kind kind,
      String serviceId,
      String id,
      JsonNode body,
      Predicate<String> sourceExists,
      Api api) {
    if (kind == Kind.ROLE && id != null) {
      RoleRules.requireCustom(id);
    }
    ObjectNode old = id == null ? null : existing(kind, serviceId, id);
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    ObjectNode doc = ((ObjectNode) body).deepCopy();
    doc.remove("id"); // the path names the resource: an answer sent back as it came is fine
    if (old != null) {
      api.keepHidden(kind, doc, old);
    }
    Instant now = Instant.now(clock).truncatedTo(ChronoUnit.MILLIS);
    Problems p = new Problems();
    switch (kind) {
      case DASHBOARD -> DashboardRules.check(doc, old, sourceExists, this::newId, p);
      case ALERT -> AlertRules.check(doc, old, (k, ref) -> find(k, serviceId, ref), now, p);
      case WEBHOOK -> WebhookRules.check(doc, old, p);
      case SAVED_SEARCH -> SavedSearchRules.check(doc, sourceExists, p);
      case ROLE -> RoleRules.check(doc, old, p);
    }
    p.throwIfAny();
    if (kind == Kind.ROLE) {
      RoleRules.requireUniqueName(doc.get("name").textValue(), roleNames(serviceId, id));
    }
    doc.put("id", old == null ? newId() : id);
    doc.put("createdAt", old == null ? now.toString() : old.get("createdAt").asText());
    doc.put("updatedAt", now.toString());
    if (kind == Kind.ALERT) {
      doc.put("state", "OK");
    }
    doc.put("_serviceId", serviceId);
    stores.get(kind).put(doc.get("id").asText(), doc);
    return show(kind, doc, api);
  }

  /**
   * Says what creating a dashboard would say, storing nothing ({@code POST
   * .../dashboards/validate}).
   *
   * @param body the dashboard
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @return {@code {valid, errors: [{path, message}], normalized}}, paths dot-separated ({@code
   *     tiles.0.config.select}), normalized the dashboard with its defaults (no ids given) when
   *     valid
   */
  public Map<String, Object> validateDashboard(JsonNode body, Predicate<String> sourceExists) {
    return validateDashboard(body, sourceExists, Api.CLOUD);
  }

  /**
   * @param body the dashboard
   * @param sourceExists whether a source id names a source of the service's warehouse
   * @param api the API that shows the normalized dashboard
   * @return as {@link #validateDashboard(JsonNode, Predicate)}
   */
  public Map<String, Object> validateDashboard(
      JsonNode body, Predicate<String> sourceExists, Api api) {
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    ObjectNode doc = ((ObjectNode) body).deepCopy();
    Problems p = new Problems();
    DashboardRules.check(doc, null, sourceExists, null, p);
    if (p.isEmpty()) {
      Collection.DASHBOARDS.sizeProblem(doc.toString()).ifPresent(tooLarge -> p.add("", tooLarge));
    }
    // As many as a 400 would name, and how many more there are.
    List<Map<String, String>> errors = new ArrayList<>();
    List<Problems.Problem> found = p.list();
    for (Problems.Problem problem : found.subList(0, Math.min(found.size(), MAX_LISTED))) {
      errors.add(error(problem.path().replaceAll("\\[(\\d+)]", ".$1"), problem.message()));
    }
    if (found.size() > MAX_LISTED) {
      errors.add(error("", "and " + (found.size() - MAX_LISTED) + " more"));
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("valid", errors.isEmpty());
    result.put("errors", errors);
    result.put("normalized", errors.isEmpty() ? api.render(Kind.DASHBOARD, doc) : null);
    return result;
  }

  private static Map<String, String> error(String path, String message) {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("path", path);
    int cut = MAX_PROBLEM_LENGTH;
    if (message.length() > cut && Character.isHighSurrogate(message.charAt(cut - 1))) {
      cut--; // never half a character
    }
    e.put("message", message.length() > cut ? message.substring(0, cut) + "..." : message);
    return e;
  }

  /**
   * Deletes a resource. A dashboard or saved search takes its alerts along; a webhook still used by
   * an alert cannot be deleted; predefined roles cannot be deleted.
   *
   * @param kind the kind
   * @param serviceId the service
   * @param id the resource
   * @throws ApiException 404, or 409 for a webhook used by an alert and a predefined role
   */
  public synchronized void delete(Kind kind, String serviceId, String id) {
    if (kind == Kind.ROLE) {
      RoleRules.requireCustom(id);
    }
    existing(kind, serviceId, id);
    for (ObjectNode a : stored(Kind.ALERT, serviceId)) {
      boolean uses =
          switch (kind) {
            case WEBHOOK -> AlertRules.notifies(a, id);
            case DASHBOARD -> a.path("dashboardId").asText().equals(id);
            case SAVED_SEARCH -> a.path("savedSearchId").asText().equals(id);
            default -> false;
          };
      if (uses && kind == Kind.WEBHOOK) {
        throw ApiException.conflict(
            "webhook "
                + id
                + " is used by alert "
                + a.get("id").asText()
                + (a.path("name").isTextual() ? " ('" + a.get("name").asText() + "')" : "")
                + "; delete or change that alert first");
      } else if (uses) {
        stores.get(Kind.ALERT).remove(a.get("id").asText());
      }
    }
    stores.get(kind).remove(id);
  }

  /**
   * Deletes everything of a service (it is gone).
   *
   * @param serviceId the service
   */
  public synchronized void dropService(String serviceId) {
    for (Kind kind : Kind.values()) {
      for (ObjectNode n : stored(kind, serviceId)) {
        stores.get(kind).remove(n.get("id").asText());
      }
    }
  }

  private List<String> roleNames(String serviceId, String except) {
    List<String> names = new ArrayList<>();
    for (ObjectNode r : list(Kind.ROLE, serviceId)) {
      if (!r.get("id").asText().equals(except)) {
        names.add(r.get("name").asText());
      }
    }
    return names;
  }

  private List<ObjectNode> stored(Kind kind, String serviceId) {
    return stores.get(kind).list(n -> n.path("_serviceId").asText().equals(serviceId));
  }

  private ObjectNode find(Kind kind, String serviceId, String id) {
    return stores
        .get(kind)
        .get(id)
        .filter(n -> n.path("_serviceId").asText().equals(serviceId))
        .orElse(null);
  }

  private ObjectNode existing(Kind kind, String serviceId, String id) {
    ObjectNode n = find(kind, serviceId, id);
    if (n == null) {
      throw ApiException.notFound(kind.noun() + " " + id + " does not exist");
    }
    return n;
  }

  private String newId() {
    byte[] b = new byte[12];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** A stored resource as an API shows it; an alert with its evaluation's state. */
  private ObjectNode show(Kind kind, ObjectNode n, Api api) {
    ObjectNode v = api.render(kind, n);
    if (kind == Kind.ALERT) {
      alertStatus.describe(v);
    }
    return v;
  }

  /**
   * What an alert's answers say about its evaluation: its {@code state} and {@code
   * executionErrors}, written over the stored definition whenever one is shown.
   */
  @FunctionalInterface
  public interface AlertStatus {
    /**
     * @param alert an alert's answer (with its {@code id}), to change in place
     */
    void describe(ObjectNode alert);
  }

  /**
   * @param status what alerts' answers show of their evaluation (by default: the stored {@code
   *     state}, {@code OK})
   */
  public void alertStatus(AlertStatus status) {
    this.alertStatus = status;
  }

  /**
   * @return every alert of every service, as stored: with its service in {@code _serviceId}
   */
  public List<ObjectNode> allAlerts() {
    return stores.get(Kind.ALERT).list(any -> true);
  }

  /**
   * @param kind a kind
   * @param serviceId a service
   * @param id a resource id
   * @return the resource as stored, write-only fields (a webhook's headers and query parameters)
   *     included, if the service has it
   */
  public Optional<ObjectNode> lookup(Kind kind, String serviceId, String id) {
    return Optional.ofNullable(find(kind, serviceId, id));
  }

  @Override
  public void close() {
    stores.values().forEach(JsonStore::close);
  }
}
