package dev.chartwell.server.management;

import java.util.List;
import java.util.Optional;

/**
 * The scaling rules of ClickHouse Cloud services, shared by create, {@code PATCH .../scaling}
 * (deprecated total memory, replicas, idling) and {@code PATCH .../replicaScaling} (memory per
 * replica, autoscaling mode, replica counts, idling): memory steps and ranges, paid limits, replica
 * counts per organization tier and warehouse, and the two autoscaling modes. Fields a request
 * leaves out keep the service's current values.
 */
final class ScalingRules {
  /**
   * What the rules depend on besides the request.
   *
   * @param org the organization (tier, paid)
   * @param firstOfWarehouse whether the service is (or becomes) its warehouse's primary
   * @param development whether the service is of the development tier
   */
  record Context(Organization org, boolean firstOfWarehouse, boolean development) {
    boolean basic() {
      return org.tier().equals("BASIC");
    }
  }

  private ScalingRules() {}

  /**
   * @param ctx the organization and warehouse
   * @return the scaling of a service created without scaling fields
   */
  static Scaling defaults(Context ctx) {
    long replicas = ctx.basic() ? 1 : ctx.firstOfWarehouse() ? 3 : 1;
    return new Scaling(false, 8, 120, replicas, replicas, true, 15);
  }

  /**
   * Reads the scaling fields a request has and applies them to {@code base}; every problem goes to
   * {@code r}.
   *
   * @param r the request body
   * @param base the current scaling (or {@link #defaults} for a new service)
   * @param ctx the organization and warehouse
   * @return the resulting scaling (meaningless when problems were found)
   */
  static Scaling apply(BodyReader r, Scaling base, Context ctx) {
    Optional<Long> minMem = memory(r, "minReplicaMemoryGb", 8, 356, 4);
    Optional<Long> maxMem = memory(r, "maxReplicaMemoryGb", 8, 356, 4);
    Optional<Long> minTotal = memory(r, "minTotalMemoryGb", 24, 1068, 12);
    Optional<Long> maxTotal = memory(r, "maxTotalMemoryGb", 24, 1068, 12);
    if (!ctx.org().paid() && maxMem.filter(m -> m > 120).isPresent()) {
      r.problem("maxReplicaMemoryGb: at most 120 for organizations without a paid plan");
    }
    if (!ctx.org().paid() && maxTotal.filter(m -> m > 360).isPresent()) {
      r.problem("maxTotalMemoryGb: at most 360 for organizations without a paid plan");
    }
    if (ctx.development() && minTotal.isPresent()) {
      r.problem("minTotalMemoryGb: only for production services");
    }
    if (ctx.development() && maxTotal.isPresent()) {
      r.problem("maxTotalMemoryGb: only for production services");
    }
    minMem = fromTotal(r, "minReplicaMemoryGb", minMem, "minTotalMemoryGb", minTotal);
    maxMem = fromTotal(r, "maxReplicaMemoryGb", maxMem, "maxTotalMemoryGb", maxTotal);
    Optional<String> mode =
        ServiceRules.oneOf(r, "autoscalingMode", false, List.of("vertical", "horizontal"));
    boolean horizontal = mode.map("horizontal"::equals).orElse(base.horizontal());
    Optional<Long> num = r.integer("numReplicas");
    Optional<Long> lo = r.integer("minReplicas");
    Optional<Long> hi = r.integer("maxReplicas");
    if (num.isPresent() && (lo.isPresent() || hi.isPresent())) {
      r.problem("numReplicas: not together with minReplicas and maxReplicas");
    }
    if (lo.isPresent() != hi.isPresent()) {
      r.problem("minReplicas, maxReplicas: give both or neither");
    }
    boolean idleScaling = r.bool("idleScaling").orElse(base.idleScaling());
    Optional<Double> idle = r.number("idleTimeoutMinutes");
    idle.filter(m -> m < 5).ifPresent(m -> r.problem("idleTimeoutMinutes: must be at least 5"));
    long idleMinutes = idle.map(Double::longValue).orElse(base.idleTimeoutMinutes());
    if (horizontal) {
      if (maxTotal.isPresent() || minTotal.isPresent()) {
        r.problem("minTotalMemoryGb, maxTotalMemoryGb: not for horizontal autoscaling");
      }
      return horizontal(r, base, ctx, minMem, maxMem, num, lo, hi, idleScaling, idleMinutes);
    }
    long replicas = base.minReplicas();
    if (num.isPresent()) {
      replicas = replicaCount(r, "numReplicas", num.get(), ctx);
    } else if (lo.isPresent() && hi.isPresent()) {
      if (!lo.get().equals(hi.get())) {
        r.problem("minReplicas: must equal maxReplicas in vertical autoscaling (a fixed count)");
      }
      replicas = replicaCount(r, "minReplicas", lo.get(), ctx);
    }
    long low = minMem.orElse(base.minMemoryGb());
    long high = maxMem.orElse(base.horizontal() ? base.minMemoryGb() : base.maxMemoryGb());
    if (low > high && (minTotal.isPresent() || maxTotal.isPresent())) {
      r.problem(
          "minTotalMemoryGb: must not exceed maxTotalMemoryGb ("
              + low * Scaling.TOTAL_MEMORY_REPLICAS
              + " > "
              + high * Scaling.TOTAL_MEMORY_REPLICAS
              + ")");
    } else if (low > high) {
      r.problem("minReplicaMemoryGb: must not exceed maxReplicaMemoryGb");
    }
    return new Scaling(false, low, high, replicas, replicas, idleScaling, idleMinutes);
  }

  private static Scaling horizontal(
      BodyReader r,
      Scaling base,
      Context ctx,
      Optional<Long> minMem,
      Optional<Long> maxMem,
      Optional<Long> num,
      Optional<Long> lo,
      Optional<Long> hi,
      boolean idleScaling,
      long idleMinutes) {
    if (ctx.basic()) {
      r.problem("autoscalingMode: horizontal autoscaling is not available in BASIC organizations");
    }
    if (num.isPresent()) {
      r.problem("numReplicas: horizontal autoscaling scales between minReplicas and maxReplicas");
    }
    long low = lo.orElse(base.minReplicas());
    long high = hi.orElse(base.maxReplicas());
    if (lo.isEmpty() && !base.horizontal()) {
      r.problem("minReplicas, maxReplicas: horizontal autoscaling needs both");
    } else if (lo.isPresent()) {
      low = replicaCount(r, "minReplicas", low, ctx);
      high = replicaCount(r, "maxReplicas", high, ctx);
      if (low > high) {
        r.problem("minReplicas: must not exceed maxReplicas");
      }
    }
    if (minMem.isPresent() && maxMem.isPresent() && !minMem.get().equals(maxMem.get())) {
      r.problem(
          "maxReplicaMemoryGb: must equal minReplicaMemoryGb in horizontal autoscaling (a fixed"
              + " memory per replica)");
    }
    Optional<Long> memory = minMem.or(() -> maxMem);
    if (memory.isEmpty() && base.minMemoryGb() == base.maxMemoryGb()) {
      memory = Optional.of(base.minMemoryGb());
    }
    if (memory.isEmpty()) {
      r.problem(
          "minReplicaMemoryGb, maxReplicaMemoryGb: horizontal autoscaling needs a fixed memory"
              + " per replica (both equal)");
      memory = Optional.of(base.minMemoryGb());
    }
    return new Scaling(true, memory.get(), memory.get(), low, high, idleScaling, idleMinutes);
  }

  /** The replica count rules: exactly 1 in BASIC; 2 to 20 for a warehouse's first; else 1 to 20. */
  private static long replicaCount(BodyReader r, String field, long n, Context ctx) {
    if (ctx.basic() && n != 1) {
      r.problem(field + ": must be 1 in BASIC organizations");
    } else if (!ctx.basic() && ctx.firstOfWarehouse() && (n < 2 || n > 20)) {
      r.problem(field + ": must be 2 to 20 for the first service of a warehouse");
    } else if (n < 1 || n > 20) {
      r.problem(field + ": must be 1 to 20");
    }
    return n;
  }

  /** A replica memory bound, given directly or as its deprecated total (three replicas' worth). */
  private static Optional<Long> fromTotal(
      BodyReader r, String field, Optional<Long> replica, String totalField, Optional<Long> total) {
    if (total.isEmpty()) {
      return replica;
    }
    long derived = total.get() / Scaling.TOTAL_MEMORY_REPLICAS;
    if (replica.isPresent() && replica.get() != derived) {
      r.problem(
          totalField
              + ": must be "
              + Scaling.TOTAL_MEMORY_REPLICAS
              + " times "
              + field
              + " ("
              + replica.get() * Scaling.TOTAL_MEMORY_REPLICAS
              + ") when both are given");
    }
    return replica.or(() -> Optional.of(derived));
  }

  private static Optional<Long> memory(BodyReader r, String field, int min, int max, int step) {
    Optional<Double> v = r.number(field);
    if (v.isPresent()) {
      double d = v.get();
      if (d < min || d > max || d != Math.rint(d) || ((long) d) % step != 0) {
        r.problem(field + ": must be a multiple of " + step + " from " + min + " to " + max);
        return Optional.empty();
      }
    }
    return v.map(Double::longValue);
  }
}
