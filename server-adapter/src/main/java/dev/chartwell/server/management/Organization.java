package dev.chartwell.server.management;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An organization: the owner of API keys and services.
 *
 * @param id UUID
 * @param name display name
 * @param tier {@code BASIC}, {@code SCALE} or {@code ENTERPRISE} (Chartwell's own field: the
 *     ClickHouse Cloud shape has none)
 * @param paid whether paid limits apply (Chartwell's own field)
 * @param createdAt ISO-8601 instant
 * @param enableCoreDumps whether services may collect core dumps; {@code null} (documents written
 *     before the field existed) means {@code true}
 */
public record Organization(
    String id, String name, String tier, boolean paid, String createdAt, Boolean enableCoreDumps) {

  /**
   * @return whether core dumps are enabled (named so that JSON mapping does not take it for a
   *     field)
   */
  public boolean coreDumpsEnabled() {
    return enableCoreDumps == null || enableCoreDumps;
  }

  /**
   * The organization as the ClickHouse Cloud API shows it: no tier, no paid flag. A single machine
   * has no private endpoints and no BYOC infrastructure, so both lists are empty.
   *
   * @return the public view
   */
  public Map<String, Object> view() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("createdAt", createdAt);
    m.put("name", name);
    m.put("privateEndpoints", List.of());
    m.put("byocConfig", List.of());
    m.put("enableCoreDumps", coreDumpsEnabled());
    return m;
  }

  /**
   * The organization with Chartwell's own fields, for {@code GET /api/v2/organization}.
   *
   * @return id, name, tier, paid, createdAt and enableCoreDumps
   */
  public Map<String, Object> chartwellView() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("name", name);
    m.put("tier", tier);
    m.put("paid", paid);
    m.put("createdAt", createdAt);
    m.put("enableCoreDumps", coreDumpsEnabled());
    return m;
  }
}
