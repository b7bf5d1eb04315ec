package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A service as stored and as shown. The stored document holds the public fields of the API plus
 * internal ones (prefixed {@code _}: organization, password hash, when the current transition
 * ends); the public view leaves those out, and every optional field without a value (the schema
 * types them as strings, numbers or enums, never {@code null}), and adds the fields derived from
 * the scaling configuration.
 */
final class ServiceDocument {
  /** The ClickHouse version a service reports. */
  static final String CLICKHOUSE_VERSION = "25.8";

  private ServiceDocument() {}

  /**
   * @param mapper JSON codec
   * @param id the new service's id
   * @param warehouse its warehouse
   * @param c the validated request
   * @param body the request as sent (for the fields kept as given)
   * @param organizationId its organization
   * @param now the creation time
   * @return the document to store (without password)
   */
  static ObjectNode create(
      ObjectMapper mapper,
      String id,
      String warehouse,
      ServiceRules.Create c,
      JsonNode body,
      String organizationId,
      String now) {
    ObjectNode s = mapper.createObjectNode();
    s.put("id", id);
    s.put("name", c.name());
    s.put("provider", c.provider());
    s.put("region", c.region());
    s.put("state", "provisioning");
    s.put("clickhouseVersion", CLICKHOUSE_VERSION);
    s.set("endpoints", endpoints(mapper, id, c.region(), c.provider(), c.mysql()));
    s.put("tier", c.tier().orElse("production"));
    c.scaling().writeTo(s);
    s.set(
        "ipAccessList",
        body.has("ipAccessList") ? body.get("ipAccessList") : mapper.createArrayNode());
    s.put("createdAt", now);
    copyText(body, s, "encryptionKey");
    copyText(body, s, "encryptionAssumedRoleIdentifier");
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
    c.profile().ifPresent(p -> s.put("profile", p));
    c.complianceType().ifPresent(t -> s.put("complianceType", t));
    s.set("tags", body.has("tags") ? body.get("tags") : mapper.createArrayNode());
    s.put("enableCoreDumps", body.path("enableCoreDumps").asBoolean(true));
    s.put("_organizationId", organizationId);
    return s;
  }

  /**
   * @param s a stored service (also one written by an earlier version, with {@code null}s)
   * @return the public view
   */
  static ObjectNode view(ObjectNode s) {
    ObjectNode v = s.deepCopy();
    List<String> hidden = new ArrayList<>();
    v.fields()
        .forEachRemaining(
            e -> {
              if (e.getKey().startsWith("_") || e.getValue().isNull()) {
                hidden.add(e.getKey());
              }
            });
    v.remove(hidden);
    Scaling.of(s).addDerived(v);
    return v;
  }

  /**
   * Applies a validated basic-details patch ({@code PATCH .../services/{id}}).
   *
   * @param mapper JSON codec
   * @param s the stored service
   * @param body the patch
   * @param mysql whether the MySQL endpoint is to be enabled, when the patch has {@code endpoints}
   * @throws ApiException 400 for what the service's tier or encryption does not allow
   */
  static void patch(ObjectMapper mapper, ObjectNode s, JsonNode body, boolean mysql) {
    if (body.hasNonNull("releaseChannel") && s.get("tier").asText().equals("development")) {
      throw ApiException.badRequest("releaseChannel: not available for the development tier");
    }
    if (body.hasNonNull("transparentDataEncryptionKeyId")
        && !s.path("hasTransparentDataEncryption").asBoolean(false)) {
      throw ApiException.badRequest(
          "transparentDataEncryptionKeyId: the service has no transparent data encryption");
    }
    for (String f : List.of("name", "releaseChannel", "transparentDataEncryptionKeyId")) {
      if (body.hasNonNull(f)) {
        s.put(f, body.get(f).textValue());
      }
    }
    if (body.hasNonNull("ipAccessList")) {
      applyAddRemove((ArrayNode) s.get("ipAccessList"), body.get("ipAccessList"), "source");
    }
    if (body.hasNonNull("privateEndpointIds")) {
      applyAddRemove((ArrayNode) s.get("privateEndpointIds"), body.get("privateEndpointIds"), null);
    }
    if (body.hasNonNull("tags")) {
      applyAddRemove((ArrayNode) s.get("tags"), body.get("tags"), "key");
    }
    if (body.has("endpoints")) {
      s.set(
          "endpoints",
          endpoints(
              mapper,
              s.get("id").asText(),
              s.get("region").asText(),
              s.get("provider").asText(),
              mysql));
    }
    if (body.hasNonNull("enableCoreDumps")) {
      s.put("enableCoreDumps", body.get("enableCoreDumps").booleanValue());
    }
  }

  /**
   * Checks an {@code {add, remove}} patch of a list.
   *
   * @param r where problems go
   * @param field the list
   * @param patch the patch
   */
  static void addRemove(BodyReader r, String field, JsonNode patch) {
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
      JsonNode list = patch.get(part);
      if (list == null || list.isNull()) {
        continue;
      }
      String path = field + "." + part;
      switch (field) {
        case "ipAccessList" -> ServiceRules.ipEntries(r, path, list);
        case "tags" -> ServiceRules.tagEntries(r, path, list);
        default -> {
          if (!list.isArray()) {
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
    }
  }

  /** Removes first, then adds; entries are matched by {@code key} (or whole value). */
  private static void applyAddRemove(ArrayNode target, JsonNode patch, String key) {
    for (JsonNode gone : patch.path("remove")) {
      for (int i = target.size() - 1; i >= 0; i--) {
        if (same(target.get(i), gone, key)) {
          target.remove(i);
        }
      }
    }
    for (JsonNode added : patch.path("add")) {
      boolean present = false;
      for (JsonNode t : target) {
        present |= same(t, added, key);
      }
      if (!present) {
        target.add(added);
      }
    }
  }

  private static boolean same(JsonNode a, JsonNode b, String key) {
    return key == null ? a.equals(b) : a.path(key).equals(b.path(key));
  }

  static ArrayNode endpoints(
      ObjectMapper mapper, String id, String region, String provider, boolean mysql) {
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

  private static void copyText(JsonNode from, ObjectNode to, String field) {
    if (from.hasNonNull(field)) {
      to.put(field, from.get(field).textValue());
    }
  }
}
