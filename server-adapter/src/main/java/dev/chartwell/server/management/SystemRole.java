package dev.chartwell.server.management;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The two system roles of every organization, with the fixed ids that {@code assignedRoleIds} names
 * them by: {@code admin} reads and writes, {@code developer} only reads.
 */
enum SystemRole {
  /** read and write. */
  ADMIN("admin", "Admin", "3c1d2b4e-5f60-4a71-8b92-a3b4c5d6e701"),
  /** read only. */
  DEVELOPER("developer", "Developer", "3c1d2b4e-5f60-4a71-8b92-a3b4c5d6e702");

  private final String legacyName;
  private final String roleName;
  private final String id;

  SystemRole(String legacyName, String roleName, String id) {
    this.legacyName = legacyName;
    this.roleName = roleName;
    this.id = id;
  }

  /**
   * @return the name in the deprecated {@code roles} list
   */
  String legacyName() {
    return legacyName;
  }

  /**
   * @return the role's UUID
   */
  String id() {
    return id;
  }

  /**
   * @param legacyName {@code admin} or {@code developer}
   * @return the role
   */
  static Optional<SystemRole> byLegacyName(String legacyName) {
    for (SystemRole r : values()) {
      if (r.legacyName.equals(legacyName)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /**
   * @param id a role UUID
   * @return the role
   */
  static Optional<SystemRole> byId(String id) {
    for (SystemRole r : values()) {
      if (r.id.equalsIgnoreCase(id)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /**
   * @return the role as an API key's {@code assignedRoles} entry shows it
   */
  Map<String, Object> assigned() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("roleId", id);
    m.put("roleName", roleName);
    m.put("roleType", "system");
    return m;
  }
}
