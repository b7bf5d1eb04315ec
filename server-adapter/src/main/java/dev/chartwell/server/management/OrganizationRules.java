package dev.chartwell.server.management;

import static dev.chartwell.server.validation.FieldType.arrayOf;
import static dev.chartwell.server.validation.FieldType.bool;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.object;
import static dev.chartwell.server.validation.FieldType.oneOf;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.util.List;
import java.util.Optional;

/**
 * The rules of {@code PATCH /v1/organizations/{organizationId}} and of the organization's private
 * endpoint configuration. A single machine has no private endpoints: removing one is a no-op,
 * adding one is refused.
 */
final class OrganizationRules {
  static final List<String> PROVIDERS = List.of("aws", "gcp", "azure");

  private static final ObjectShape ENDPOINT =
      ObjectShape.of(
          optional("id", string()),
          optional("description", string()),
          optional("cloudProvider", oneOf(PROVIDERS)),
          optional("region", string()));
  private static final ObjectShape ENDPOINTS_PATCH =
      ObjectShape.of(
          optional("add", arrayOf(object(ENDPOINT))),
          optional("remove", arrayOf(object(ENDPOINT))));
  private static final ObjectShape PATCH =
      ObjectShape.of(
          optional("name", name()),
          optional("privateEndpoints", object(ENDPOINTS_PATCH)),
          optional("enableCoreDumps", bool()));

  private OrganizationRules() {}

  /**
   * What a PATCH changes.
   *
   * @param name the new name
   * @param enableCoreDumps the new core-dump setting
   */
  record Change(Optional<String> name, Optional<Boolean> enableCoreDumps) {}

  static Change patch(JsonNode body) {
    Problems p = new Problems();
    PATCH.checkBody(body, p);
    if (body.path("privateEndpoints").path("add").size() > 0) {
      p.add(
          "privateEndpoints.add",
          "a single-machine Chartwell has no private endpoints to register");
    }
    p.throwIfAny();
    return new Change(
        body.path("name").isTextual()
            ? Optional.of(body.get("name").textValue())
            : Optional.empty(),
        body.path("enableCoreDumps").isBoolean()
            ? Optional.of(body.get("enableCoreDumps").booleanValue())
            : Optional.empty());
  }

  /**
   * Checks the query of {@code GET .../privateEndpointConfig}: {@code cloud_provider} and {@code
   * region_id}, both required.
   *
   * @param provider the {@code cloud_provider} parameter
   * @param region the {@code region_id} parameter
   */
  static void privateEndpointQuery(Optional<String> provider, Optional<String> region) {
    Problems p = new Problems();
    if (provider.isEmpty()) {
      p.add("cloud_provider", "is required (aws, gcp or azure)");
    } else if (!PROVIDERS.contains(provider.get())) {
      p.add("cloud_provider", "must be one of aws, gcp, azure");
    }
    if (region.isEmpty()) {
      p.add("region_id", "is required");
    } else if (provider.isPresent()
        && PROVIDERS.contains(provider.get())
        && !ServiceRules.REGIONS.get(provider.get()).contains(region.get())) {
      p.add("region_id", "'" + region.get() + "' is not a region of " + provider.get());
    }
    p.throwIfAny();
  }
}
