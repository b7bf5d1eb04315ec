package dev.chartwell.server.clickstack;

import static dev.chartwell.server.validation.FieldType.anyObject;
import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.bool;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.util.List;
import java.util.Locale;

/**
 * ClickStack roles: the two predefined ones every service has ({@code Admin}, which may do
 * everything, and {@code Read Only}, which may read everything), and custom roles made of CASL
 * permissions ({@code {action, subject, inverted?, integration?, conditions?}}). Role names are
 * unique within the service, predefined ones included, regardless of case. Chartwell stores and
 * validates roles; it has no team members to grant them to.
 */
final class RoleRules {
  /** The id of the predefined {@code Admin} role. */
  static final String ADMIN_ID = "000000000000000000000001";

  /** The id of the predefined {@code Read Only} role. */
  static final String READ_ONLY_ID = "000000000000000000000002";

  private static final ObjectShape PERMISSION =
      ObjectShape.of(
          required("action", name()),
          required("subject", name()),
          optional("inverted", bool()),
          optional("integration", string()),
          optional("conditions", anyObject()));
  private static final ObjectShape UPDATE =
      ObjectShape.of(
          optional("name", name()),
          optional("description", string()),
          required("permissions", arrayOf(object(PERMISSION))));
  private static final ObjectShape CREATE = UPDATE.with(required("name", name()));

  private RoleRules() {}

  /**
   * @param mapper JSON codec
   * @return the predefined roles, in the order listed
   */
  static List<ObjectNode> predefined(ObjectMapper mapper) {
    return List.of(
        role(mapper, ADMIN_ID, "Admin", "Full access to every resource", "manage"),
        role(mapper, READ_ONLY_ID, "Read Only", "Read-only access to every resource", "read"));
  }

  private static ObjectNode role(
      ObjectMapper mapper, String id, String name, String description, String action) {
    ObjectNode r = mapper.createObjectNode();
    r.put("id", id);
    r.put("name", name);
    r.put("description", description);
    r.putArray("permissions").addObject().put("action", action).put("subject", "all");
    r.put("isPredefined", true);
    return r;
  }

  /**
   * @param id a role id
   * @throws ApiException 409 when it names a predefined role
   */
  static void requireCustom(String id) {
    if (id.equals(ADMIN_ID) || id.equals(READ_ONLY_ID)) {
      throw ApiException.conflict("role " + id + " is predefined and cannot be changed or deleted");
    }
  }

  /**
   * @param r the role (changed in place: name and description kept from {@code old} when left out)
   * @param old the role it replaces, or {@code null}
   * @param p where problems go
   */
  static void check(ObjectNode r, ObjectNode old, Problems p) {
    (old == null ? CREATE : UPDATE).checkBody(r, p);
    for (String kept : List.of("name", "description")) {
      if (old != null && !r.has(kept) && old.has(kept)) {
        r.set(kept, old.get(kept));
      }
    }
    r.put("isPredefined", false);
  }

  /**
   * @param name a role's name
   * @param others the names of the service's other roles, predefined ones included
   * @throws ApiException 409 when one of them is the same, regardless of case
   */
  static void requireUniqueName(String name, List<String> others) {
    for (String o : others) {
      if (o.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        throw ApiException.conflict("a role named '" + o + "' exists in this service");
      }
    }
  }
}
