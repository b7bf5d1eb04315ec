package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.JsonNode;
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

  private static final Pattern IPV4_CIDR =
      Pattern.compile(
          "(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}(/(3[0-2]|[12]?\\d))?");
  private static final Pattern IPV6_CIDR =
      Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(/(12[0-8]|1[01]\\d|[1-9]?\\d))?");
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

  private ServiceRules() {}

  /** What a create request asks for, validated. */
  record Create(
      String name,
      String provider,
      String region,
      Optional<String> tier,
      long numReplicas,
      Optional<Double> minReplicaMemoryGb,
      Optional<Double> maxReplicaMemoryGb,
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

    Optional<Double> minReplica = memory(r, "minReplicaMemoryGb", 8, 356, 4);
    Optional<Double> maxReplica = memory(r, "maxReplicaMemoryGb", 8, 356, 4);
    if (minReplica.isPresent() && maxReplica.isPresent() && minReplica.get() > maxReplica.get()) {
      r.problem("minReplicaMemoryGb: must not exceed maxReplicaMemoryGb");
    }
    if (!org.paid() && maxReplica.filter(m -> m > 120).isPresent()) {
      r.problem("maxReplicaMemoryGb: at most 120 for organizations without a paid plan");
    }
    Optional<Double> minTotal = memory(r, "minTotalMemoryGb", 24, 1068, 12);
    Optional<Double> maxTotal = memory(r, "maxTotalMemoryGb", 24, 1068, 12);
    if (minTotal.isPresent() && maxTotal.isPresent() && minTotal.get() > maxTotal.get()) {
      r.problem("minTotalMemoryGb: must not exceed maxTotalMemoryGb");
    }
    if (!org.paid() && maxTotal.filter(m -> m > 360).isPresent()) {
      r.problem("maxTotalMemoryGb: at most 360 for organizations without a paid plan");
    }
    if (development && minTotal.isPresent()) {
      r.problem("minTotalMemoryGb: only for production services");
    }
    if (development && maxTotal.isPresent()) {
      r.problem("maxTotalMemoryGb: only for production services");
    }

    Optional<String> warehouse = r.string("dataWarehouseId", false);
    if (warehouse.isPresent() && !warehouseExists.test(warehouse.get())) {
      r.problem(
          "dataWarehouseId: warehouse " + warehouse.get() + " does not exist in this organization");
    }
    boolean firstOfWarehouse = warehouse.isEmpty();
    boolean basic = org.tier().equals("BASIC");
    Optional<Long> replicas = r.integer("numReplicas");
    long numReplicas = replicas.orElse(basic ? 1L : firstOfWarehouse ? 3L : 1L);
    if (replicas.isPresent()) {
      if (basic && numReplicas != 1) {
        r.problem("numReplicas: must be 1 in BASIC organizations");
      } else if (!basic && firstOfWarehouse && (numReplicas < 2 || numReplicas > 20)) {
        r.problem("numReplicas: must be 2 to 20 for the first service of a warehouse");
      } else if (numReplicas < 1 || numReplicas > 20) {
        r.problem("numReplicas: must be 1 to 20");
      }
    }
    r.number("idleTimeoutMinutes")
        .filter(m -> m < 5)
        .ifPresent(m -> r.problem("idleTimeoutMinutes: must be at least 5"));
    r.bool("idleScaling");
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
              if (minReplica.isEmpty() || maxReplica.isEmpty()) {
                r.problem("byocId: needs both minReplicaMemoryGb and maxReplicaMemoryGb");
              }
              for (String f : List.of("minReplicaMemoryGb", "maxReplicaMemoryGb")) {
                Optional<Double> v = f.startsWith("min") ? minReplica : maxReplica;
                if (v.isPresent() && !BYOC_MEMORY.contains(Math.round(v.get()))) {
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
    oneOf(r, "autoscalingMode", false, List.of("vertical", "horizontal"));
    r.integer("minReplicas")
        .filter(n -> n < 1 || n > 20)
        .ifPresent(n -> r.problem("minReplicas: must be 1 to 20"));
    r.integer("maxReplicas")
        .filter(n -> n < 1 || n > 20)
        .ifPresent(n -> r.problem("maxReplicas: must be 1 to 20"));
    r.finish();
    return new Create(
        name,
        provider,
        region,
        tier,
        numReplicas,
        minReplica,
        maxReplica,
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

  private static Optional<Double> memory(BodyReader r, String field, int min, int max, int step) {
    Optional<Double> v = r.number(field);
    if (v.isPresent()) {
      double d = v.get();
      if (d < min || d > max || d != Math.rint(d) || ((long) d) % step != 0) {
        r.problem(field + ": must be a multiple of " + step + " from " + min + " to " + max);
        return Optional.empty();
      }
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
    for (int i = 0; i < list.size(); i++) {
      JsonNode t = list.get(i);
      for (String part : List.of("key", "value")) {
        if (!t.path(part).isTextual() || !TAG.matcher(t.get(part).textValue()).matches()) {
          r.problem(path + "[" + i + "]." + part + ": must be letters, digits, '-', '_' or '.'");
        }
      }
    }
  }

  static boolean isIpOrCidr(String s) {
    if (IPV4_CIDR.matcher(s).matches()) {
      return true;
    }
    if (!IPV6_CIDR.matcher(s).matches()) {
      return false;
    }
    String address = s.contains("/") ? s.substring(0, s.indexOf('/')) : s;
    try {
      // A literal with ':' is parsed, never looked up.
      java.net.InetAddress.getByName(address);
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  static boolean isUuid(String s) {
    try {
      return UUID.fromString(s).toString().equalsIgnoreCase(s);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
