package dev.chartwell.server.management;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How a service scales, as configured: vertical autoscaling runs a fixed number of replicas whose
 * memory moves between {@code minMemoryGb} and {@code maxMemoryGb}; horizontal autoscaling runs
 * between {@code minReplicas} and {@code maxReplicas} replicas of a fixed memory (the two memory
 * bounds are equal). Chartwell runs every service on one machine, so this is the configuration the
 * API reports, with the deprecated total-memory fields derived from it (three replicas' worth, as
 * ClickHouse Cloud counts them).
 *
 * @param horizontal whether the replica count scales
 * @param minMemoryGb least memory per replica
 * @param maxMemoryGb most memory per replica
 * @param minReplicas least replicas (the fixed count in vertical mode)
 * @param maxReplicas most replicas (the fixed count in vertical mode)
 * @param idleScaling whether the service may scale to zero when idle
 * @param idleTimeoutMinutes idle time before it does
 */
record Scaling(
    boolean horizontal,
    long minMemoryGb,
    long maxMemoryGb,
    long minReplicas,
    long maxReplicas,
    boolean idleScaling,
    long idleTimeoutMinutes) {

  /** The replicas ClickHouse Cloud counts in its deprecated total-memory fields. */
  static final int TOTAL_MEMORY_REPLICAS = 3;

  private static final String[] FIELDS = {
    "autoscalingMode",
    "minReplicaMemoryGb",
    "maxReplicaMemoryGb",
    "replicaMemoryGb",
    "numReplicas",
    "minReplicas",
    "maxReplicas",
    "minTotalMemoryGb",
    "maxTotalMemoryGb",
    "idleScaling",
    "idleTimeoutMinutes",
    "currentScaling"
  };

  /**
   * @param service a stored service (also one written before horizontal autoscaling existed)
   * @return its scaling
   */
  static Scaling of(ObjectNode service) {
    boolean horizontal = service.path("autoscalingMode").asText("vertical").equals("horizontal");
    long replicas = service.path("numReplicas").asLong(1);
    return new Scaling(
        horizontal,
        service.path("minReplicaMemoryGb").asLong(8),
        service.path("maxReplicaMemoryGb").asLong(120),
        horizontal ? service.path("minReplicas").asLong(1) : replicas,
        horizontal ? service.path("maxReplicas").asLong(1) : replicas,
        service.path("idleScaling").asBoolean(true),
        service.path("idleTimeoutMinutes").asLong(15));
  }

  /**
   * Stores this scaling in a service document (replacing what was there).
   *
   * @param service the stored service
   */
  void writeTo(ObjectNode service) {
    service.remove(java.util.List.of(FIELDS));
    service.put("autoscalingMode", horizontal ? "horizontal" : "vertical");
    service.put("minReplicaMemoryGb", minMemoryGb);
    service.put("maxReplicaMemoryGb", maxMemoryGb);
    if (horizontal) {
      service.put("minReplicas", minReplicas);
      service.put("maxReplicas", maxReplicas);
    } else {
      service.put("numReplicas", minReplicas);
    }
    service.put("idleScaling", idleScaling);
    service.put("idleTimeoutMinutes", idleTimeoutMinutes);
  }

  /**
   * Adds what the API shows beyond the stored fields: the deprecated totals (vertical only), the
   * fixed replica memory (horizontal only) and {@code currentScaling}, which on one machine is
   * always the configuration itself.
   *
   * @param view the service's public view, with the stored fields
   */
  void addDerived(ObjectNode view) {
    view.remove(java.util.List.of("minTotalMemoryGb", "maxTotalMemoryGb", "currentScaling"));
    if (horizontal) {
      view.put("replicaMemoryGb", minMemoryGb);
    } else {
      view.put("minTotalMemoryGb", minMemoryGb * TOTAL_MEMORY_REPLICAS);
      view.put("maxTotalMemoryGb", maxMemoryGb * TOTAL_MEMORY_REPLICAS);
    }
    ObjectNode c = view.putObject("currentScaling");
    c.put("effectiveAutoscalingMode", horizontal ? "horizontal" : "vertical");
    c.put("effectiveMinReplicaMemoryGb", minMemoryGb);
    c.put("effectiveMaxReplicaMemoryGb", maxMemoryGb);
    c.put("effectiveMinReplicas", minReplicas);
    c.put("effectiveMaxReplicas", maxReplicas);
    c.put("effectiveIdleScaling", idleScaling);
    c.put("effectiveIdleTimeoutMinutes", idleTimeoutMinutes);
  }
}
