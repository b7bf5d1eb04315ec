package dev.chartwell.server.management;

import static dev.chartwell.server.validation.FieldType.anyObject;
import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.dateTime;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.nullable;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rules of API key requests (ClickHouse Cloud's {@code ApiKeyPostRequest} and {@code
 * ApiKeyPatchRequest}): roles by their legacy names or by system role id, the key's state, when it
 * expires and the addresses it may be used from.
 */
final class KeyRules {
  private static final ObjectShape IP_ENTRY =
      ObjectShape.of(required("source", string()), optional("description", string()));
  private static final ObjectShape PATCH =
      ObjectShape.of(
          optional("name", name()),
          optional("roles", arrayOf(oneOf("admin", "developer", "query_endpoints"))),
          optional("assignedRoleIds", arrayOf(string())),
          optional("expireAt", nullable(dateTime())),
          optional("state", oneOf("enabled", "disabled")),
          optional("ipAccessList", arrayOf(object(IP_ENTRY))));
  private static final ObjectShape CREATE =
      PATCH.with(required("name", name()), optional("hashData", anyObject()));

  private KeyRules() {}

  /**
   * What a request sets; an absent part is left as it is.
   *
   * @param name the name
   * @param roles the roles, by legacy name ({@code admin}, {@code developer})
   * @param state {@code enabled} or {@code disabled}
   * @param expireAt when the key expires; present and {@code ""} means never
   * @param ipAccessList the addresses the key may be used from
   */
  record KeyChange(
      Optional<String> name,
      Optional<List<String>> roles,
      Optional<String> state,
      Optional<String> expireAt,
      Optional<List<StoredKey.IpAccessEntry>> ipAccessList) {}

  /**
   * @param body a create request
   * @param now the time (an expiry must be later)
   * @return what the new key gets; its roles are never empty
   */
  static KeyChange create(JsonNode body, Instant now) {
    Problems p = new Problems();
    CREATE.checkBody(body, p);
    if (body.has("hashData")) {
      p.add("hashData", "not supported: omit it to get a generated key id and secret");
    }
    KeyChange c = read(body, now, p);
    if (c.roles().isEmpty()) {
      p.add("roles", "is required (or assignedRoleIds)");
    } else if (body.path("roles").size() + body.path("assignedRoleIds").size() == 0
        && !body.path("roles").isValueNode()
        && !body.path("assignedRoleIds").isValueNode()) {
      p.add("roles", "must hold at least one role (in roles or assignedRoleIds)");
    }
    p.throwIfAny();
    return c;
  }

  /**
   * @param body a patch request
   * @param now the time (an expiry must be later)
   * @return the change; empty role lists (which the generated clients send by default) leave the
   *     roles as they are
   */
  static KeyChange patch(JsonNode body, Instant now) {
    Problems p = new Problems();
    PATCH.checkBody(body, p);
    KeyChange c = read(body, now, p);
    p.throwIfAny();
    return c.roles().filter(List::isEmpty).isPresent()
        ? new KeyChange(c.name(), Optional.empty(), c.state(), c.expireAt(), c.ipAccessList())
        : c;
  }

  private static KeyChange read(JsonNode body, Instant now, Problems p) {
    Set<String> roles = new LinkedHashSet<>();
    boolean rolesGiven = body.has("roles") || body.has("assignedRoleIds");
    JsonNode legacy = body.path("roles");
    for (int i = 0; legacy.isArray() && i < legacy.size(); i++) {
      String r = legacy.get(i).asText();
      if (r.equals("query_endpoints")) {
        p.add("roles[" + i + "]", "query_endpoints: Chartwell has no query endpoints");
      } else if (SystemRole.byLegacyName(r).isPresent()) {
        roles.add(r);
      }
    }
    JsonNode ids = body.path("assignedRoleIds");
    for (int i = 0; ids.isArray() && i < ids.size(); i++) {
      String id = ids.get(i).asText();
      Optional<SystemRole> role = SystemRole.byId(id);
      if (role.isEmpty()) {
        p.add(
            "assignedRoleIds[" + i + "]",
            "no role "
                + id
                + "; the roles are Admin ("
                + SystemRole.ADMIN.id()
                + ") and Developer ("
                + SystemRole.DEVELOPER.id()
                + ")");
      } else {
        roles.add(role.get().legacyName());
      }
    }
    Optional<String> expireAt = Optional.empty();
    if (body.has("expireAt")) {
      JsonNode e = body.get("expireAt");
      expireAt = Optional.of(e.isTextual() ? e.textValue() : "");
      if (e.isTextual()
          && dev.chartwell.server.validation.FieldType.isDateTime(e.textValue())
          && !OffsetDateTime.parse(e.textValue()).toInstant().isAfter(now)) {
        p.add("expireAt", "must be in the future");
      }
    }
    Optional<List<StoredKey.IpAccessEntry>> ips = Optional.empty();
    if (body.path("ipAccessList").isArray()) {
      List<StoredKey.IpAccessEntry> list = new ArrayList<>();
      JsonNode l = body.get("ipAccessList");
      for (int i = 0; i < l.size(); i++) {
        String source = l.get(i).path("source").asText();
        if (l.get(i).path("source").isTextual() && IpRange.parse(source).isEmpty()) {
          p.add(
              "ipAccessList[" + i + "].source",
              "must be an IPv4 or IPv6 address or CIDR, got '" + source + "'");
        }
        JsonNode d = l.get(i).get("description");
        list.add(new StoredKey.IpAccessEntry(source, d == null ? null : d.asText()));
      }
      ips = Optional.of(list);
    }
    return new KeyChange(
        body.path("name").isTextual()
            ? Optional.of(body.get("name").textValue())
            : Optional.empty(),
        rolesGiven ? Optional.of(List.copyOf(roles)) : Optional.empty(),
        body.path("state").isTextual()
            ? Optional.of(body.get("state").textValue())
            : Optional.empty(),
        expireAt,
        ips);
  }
}
