package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.validation.Names;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The validation rules of services (ClickHouse Cloud semantics): enums, memory and replica ranges,
 * tier and organization rules. Each failure is one problem naming its field; all are reported
 * together.
 */
final class ServiceRules {
  static final Map<String, Set<String>> REGIONS =
      Map.of(
          "aws",
          Set.of(
              "ap-northeast-1",
              "ap-northeast-2",
              "ap-south-1",
              "ap-southeast-1",
              "ap-southeast-2",
              "ca-central-1",
              "eu-central-1",
              "eu-west-1",
              "eu-west-2",
              "il-central-1",
              "us-east-1",
              "us-east-2",
              "us-west-2"),
          "gcp",
          Set.of(
              "us-east1",
              "us-central1",
              "europe-west2",
              "europe-west4",
              "asia-southeast1",
              "asia-northeast1"),
          "azure",
          Set.of("eastus", "eastus2", "westus3", "germanywestcentral", "centralus"));
  static final List<String> TIERS =
      List.of(
          "development",
          "production",
          "dedicated_high_mem",
          "dedicated_high_cpu",
          "dedicated_standard",
          "dedicated_standard_n2d_standard_4",
          "dedicated_standard_n2d_standard_8",
          "dedicated_standard_n2d_standard_32",
          "dedicated_standard_n2d_standard_128",
          "dedicated_standard_n2d_standard_32_16SSD",
          "dedicated_standard_n2d_standard_64_24SSD");
  static final List<String> RELEASE_CHANNELS = List.of("slow", "default", "fast");
  static final List<String> PROFILES =
      List.of(
          "v1-default",
          "v1-highmem-xs",
          "v1-highmem-s",
          "v1-highmem-m",
          "v1-highmem-l",
          "v1-highmem-xl");
  static final List<String> COMPLIANCE = List.of("hipaa", "pci");
  static final Set<Long> BYOC_MEMORY = Set.of(48L, 116L, 172L, 232L);
  static final Set<String> CREATE_FIELDS =
      Set.of(
          "name",
          "provider",
          "region",
          "tier",
          "ipAccessList",
          "minTotalMemoryGb",
          "maxTotalMemoryGb",
          "autoscalingMode",
          "minReplicaMemoryGb",
          "maxReplicaMemoryGb",
          "numReplicas",
          "minReplicas",
          "maxReplicas",
          "idleScaling",
          "idleTimeoutMinutes",
          "isReadonly",
          "dataWarehouseId",
          "backupId",
          "encryptionKey",
          "encryptionAssumedRoleIdentifier",
          "privateEndpointIds",
          "privatePreviewTermsChecked",
          "releaseChannel",
          "byocId",
          "hasTransparentDataEncryption",
          "endpoints",
          "profile",
          "complianceType",
          "tags",
          "enableCoreDumps");
  static final Set<String> PATCH_FIELDS =
      Set.of(
          "name",
          "ipAccessList",
          "privateEndpointIds",
          "releaseChannel",
          "endpoints",
          "transparentDataEncryptionKeyId",
          "tags",
          "enableCoreDumps");

  /** The fields of {@code PATCH .../scaling}. */
  static final Set<String> SCALING_FIELDS =
      Set.of(
          "minTotalMemoryGb",
          "maxTotalMemoryGb",
          "numReplicas",
          "idleScaling",
          "idleTimeoutMinutes");

  /** The fields of {@code PATCH .../replicaScaling}. */
  static final Set<String> REPLICA_SCALING_FIELDS =
      Set.of(
          "minReplicaMemoryGb",
          "maxReplicaMemoryGb",
          "autoscalingMode",
          "numReplicas",
          "minReplicas",
          "maxReplicas",
          "idleScaling",
          "idleTimeoutMinutes");

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9 ]{1,50}");

  /** The API's limit: "alphanumerical string with whitespaces up to 50 characters". */
  static final int MAX_NAME_LENGTH = 50;

  /**
   * Checks a service name: the shared {@link Names} rules, then the API's alphabet.
   *
   * @param r where the problem goes
   * @param name the proposed name
   */
  static void checkName(BodyReader r, String name) {
    String problem = Names.name("name", name, MAX_NAME_LENGTH);
    if (problem == null && !NAME.matcher(name).matches()) {
      problem = "name: must be 1 to 50 letters, digits or spaces";
    }
    if (problem != null) {
      r.problem(problem);
    }
  }

  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_.-]+");

  /** The most tags a service may have. */
  static final int MAX_TAGS = 50;

  private ServiceRules() {}

  /** What a create request asks for, validated. */
  record Create(
      String name,
      String provider,
      String region,
      Optional<String> tier,
      Scaling scaling,
      Optional<String> dataWarehouseId,
      boolean isReadonly,
      Optional<String> releaseChannel,
      Optional<String> profile,
      Optional<String> complianceType,
      boolean mysql) {}

  static Create create(
      JsonNode json, Organization org, java.util.function.Predicate<String> warehouseExists) {
    BodyReader r = BodyReader.of(json, CREATE_FIELDS);
    String name = r.string("name", true).orElse(null);
    if (name != null) {
      checkName(r, name);
    }
    String provider = oneOf(r, "provider", true, List.of("aws", "gcp", "azure")).orElse(null);
    String region = r.string("region", true).orElse(null);
    if (region != null) {
      boolean known = REGIONS.values().stream().anyMatch(s -> s.contains(region));
      if (!known) {
        r.problem("region: unknown region '" + region + "'");
      } else if (provider != null && !REGIONS.get(provider).contains(region)) {
        r.problem("region: '" + region + "' is not a region of " + provider);
      }
    }
    Optional<String> tier = oneOf(r, "tier", false, TIERS);
    boolean development = tier.filter("development"::equals).isPresent();
    if (development && "azure".equals(provider)) {
      r.problem("tier: development is not available on azure");
    }

    Optional<String> warehouse = r.string("dataWarehouseId", false);
    if (warehouse.isPresent() && !warehouseExists.test(warehouse.get())) {
      r.problem(
          "dataWarehouseId: warehouse " + warehouse.get() + " does not exist in this organization");
    }
    ScalingRules.Context ctx = new ScalingRules.Context(org, warehouse.isEmpty(), development);
    Scaling scaling = ScalingRules.apply(r, ScalingRules.defaults(ctx), ctx);
    boolean readonly = r.bool("isReadonly").orElse(false);
    if (readonly && warehouse.isEmpty()) {
      r.problem("isReadonly: only allowed together with dataWarehouseId");
    }
    r.string("backupId", false)
        .ifPresent(
            id -> {
              if (!isUuid(id)) {
                r.problem("backupId: must be a UUID");
              } else {
                r.problem("backupId: backup " + id + " does not exist");
              }
            });
    Optional<String> channel = oneOf(r, "releaseChannel", false, RELEASE_CHANNELS);
    if (channel.isPresent() && development) {
      r.problem("releaseChannel: not available for the development tier");
    }
    r.string("byocId", false)
        .ifPresent(
            byoc -> {
              List<String> memory = List.of("minReplicaMemoryGb", "maxReplicaMemoryGb");
              if (!memory.stream().allMatch(f -> json.path(f).isNumber())) {
                r.problem("byocId: needs both minReplicaMemoryGb and maxReplicaMemoryGb");
              }
              for (String f : memory) {
                JsonNode v = json.path(f);
                if (v.isNumber() && !BYOC_MEMORY.contains(Math.round(v.doubleValue()))) {
                  r.problem(f + ": must be one of 48, 116, 172, 232 with byocId");
                }
              }
            });
    boolean enterprise = org.tier().equals("ENTERPRISE");
    if (r.bool("hasTransparentDataEncryption").orElse(false) && !enterprise) {
      r.problem("hasTransparentDataEncryption: only for ENTERPRISE organizations");
    }
    Optional<String> profile = oneOf(r, "profile", false, PROFILES);
    if (profile.isPresent() && !enterprise) {
      r.problem("profile: only for ENTERPRISE organizations");
    }
    Optional<String> compliance = oneOf(r, "complianceType", false, COMPLIANCE);
    boolean mysql = endpoints(r);
    ipAccessList(r, "ipAccessList");
    tags(r, "tags");
    r.strings("privateEndpointIds", false);
    r.string("encryptionKey", false);
    r.string("encryptionAssumedRoleIdentifier", false);
    r.bool("privatePreviewTermsChecked");
    r.bool("enableCoreDumps");
    r.finish();
    return new Create(
        name,
        provider,
        region,
        tier,
        scaling,
        warehouse,
        readonly,
        channel,
        profile,
        compliance,
        mysql);
  }

  static Optional<String> oneOf(
      BodyReader r, String field, boolean required, List<String> allowed) {
    Optional<String> v = r.string(field, required);
    if (v.isPresent() && !allowed.contains(v.get())) {
      r.problem(field + ": must be one of " + String.join(", ", allowed));
      return Optional.empty();
    }
    return v;
  }

  /** {@code [{protocol:"mysql", enabled:bool}]}: whether MySQL ends up enabled. */
  static boolean endpoints(BodyReader r) {
    Optional<JsonNode> list = r.node("endpoints");
    if (list.isEmpty()) {
      return false;
    }
    if (!list.get().isArray()) {
      r.problem("endpoints: must be an array");
      return false;
    }
    boolean mysql = false;
    for (int i = 0; i < list.get().size(); i++) {
      JsonNode e = list.get().get(i);
      String path = "endpoints[" + i + "]";
      if (!e.isObject()) {
        r.problem(path + ": must be an object");
        continue;
      }
      if (!e.path("protocol").isTextual() || !e.get("protocol").textValue().equals("mysql")) {
        r.problem(path + ".protocol: must be mysql");
      }
      if (!e.path("enabled").isBoolean()) {
        r.problem(path + ".enabled: must be true or false");
      } else {
        mysql = e.get("enabled").booleanValue();
      }
    }
    return mysql;
  }

  static void ipAccessList(BodyReader r, String field) {
    r.node(field).ifPresent(list -> ipEntries(r, field, list));
  }

  static void ipEntries(BodyReader r, String path, JsonNode list) {
    if (!list.isArray()) {
      r.problem(path + ": must be an array");
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode e = list.get(i);
      String p = path + "[" + i + "]";
      if (!e.isObject() || !e.path("source").isTextual()) {
        r.problem(p + ".source: is required (an IP address or CIDR)");
        continue;
      }
      String source = e.get("source").textValue();
      if (!isIpOrCidr(source)) {
        r.problem(p + ".source: must be an IPv4 or IPv6 address or CIDR, got '" + source + "'");
      }
      if (e.has("description") && !e.get("description").isTextual()) {
        r.problem(p + ".description: must be a string");
      }
    }
  }

  static void tags(BodyReader r, String field) {
    r.node(field).ifPresent(list -> tagEntries(r, field, list));
  }

  static void tagEntries(BodyReader r, String path, JsonNode list) {
    if (!list.isArray()) {
      r.problem(path + ": must be an array");
      return;
    }
    if (list.size() > MAX_TAGS) {
      r.problem(path + ": at most " + MAX_TAGS + " tags, got " + list.size());
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode t = list.get(i);
      String p = path + "[" + i + "]";
      if (!t.isObject()) {
        r.problem(p + ": must be an object {key, value}");
        continue;
      }
      t.fieldNames()
          .forEachRemaining(
              f -> {
                if (!f.equals("key") && !f.equals("value")) {
                  r.problem(p + "." + f + ": unknown field");
                }
              });
      tagPart(r, p + ".key", t.get("key"), 128, true);
      tagPart(r, p + ".value", t.get("value"), 256, false);
    }
  }

  private static void tagPart(BodyReader r, String path, JsonNode v, int max, boolean required) {
    if (v == null || v.isNull()) {
      if (required) {
        r.problem(path + ": is required");
      }
    } else if (!v.isTextual() || !TAG.matcher(v.textValue()).matches()) {
      r.problem(path + ": must be letters, digits, '-', '_' or '.'");
    } else if (v.textValue().length() > max) {
      r.problem(path + ": at most " + max + " characters");
    }
  }

  /**
   * One {@code filter} of the service list: {@code tag:key} (the service has the tag) or {@code
   * tag:key=value} (with that value).
   *
   * @param key the tag key
   * @param value the value, if the filter names one
   */
  record TagFilter(String key, Optional<String> value) {
    boolean matches(JsonNode service) {
      for (JsonNode t : service.path("tags")) {
        if (t.path("key").asText().equals(key)
            && value.map(v -> v.equals(t.path("value").asText(null))).orElse(true)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * @param filters the {@code filter} query parameters
   * @return them as tag filters
   * @throws ApiException 400 for one that is not a tag filter
   */
  static List<TagFilter> filters(List<String> filters) {
    List<TagFilter> out = new java.util.ArrayList<>();
    for (String f : filters) {
      String tag = f.startsWith("tag:") ? f.substring(4) : "";
      int eq = tag.indexOf('=');
      String key = eq < 0 ? tag : tag.substring(0, eq);
      if (key.isEmpty()) {
        throw ApiException.badRequest(
            "filter: '" + f + "' is not a tag filter (tag:<key> or tag:<key>=<value>)");
      }
      out.add(new TagFilter(key, eq < 0 ? Optional.empty() : Optional.of(tag.substring(eq + 1))));
    }
    return out;
  }

  static boolean isIpOrCidr(String s) {
    return IpRange.parse(s).isPresent();
  }

  static boolean isUuid(String s) {
    try {
      return UUID.fromString(s).toString().equalsIgnoreCase(s);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
