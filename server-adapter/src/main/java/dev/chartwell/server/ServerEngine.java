package dev.chartwell.server;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryLimits;
import dev.chartwell.server.catalog.TableNames;
import dev.chartwell.server.tenancy.DiskQuotas;
import java.io.PrintStream;
import java.util.Map;

/**
 * The engine as a standalone {@link ChartwellServer} opens it: its files under the data directory,
 * the configured query, memory, retention and disk limits, each service a tenant with its disk
 * quota, idle heads sealed, and its lines printed with the names of the tables they concern. (An
 * embedded server uses the application's engine as it is.)
 */
final class ServerEngine {
  /** Ingestion is refused while the heap is fuller than this after garbage collection. */
  static final double MAX_HEAP_OCCUPANCY = 0.85;

  private ServerEngine() {}

  /**
   * Opens the engine on {@code <data-dir>/engine}: every source the last process kept, with its
   * logged events replayed (which prints progress lines when there is much to do).
   *
   * @param config the configuration
   * @param log where the engine's progress and problems are printed
   * @param quotas the services' disk quotas (a service is a tenant)
   * @param names every table's id to its name, so that the engine's lines name tables
   * @return the open engine
   */
  static Engine open(
      ServerConfig config, PrintStream log, DiskQuotas quotas, Map<String, String> names) {
    Engine.Builder b =
        Engine.builder()
            .dataDirectory(config.dataDir().resolve("engine"))
            .fsyncPolicy(config.fsync())
            .reporter(line -> log.println("chartwell: " + TableNames.addTo(line, names)))
            .workerThreads(config.threads())
            .queryLimits(
                QueryLimits.defaults(config.threads())
                    .withTimeout(config.queryTimeout())
                    .withMemoryBytes(config.queryMemoryBytes()))
            .maxMemoryBytes(config.maxMemoryBytes())
            .maxHeapOccupancy(MAX_HEAP_OCCUPANCY)
            .tenants(quotas::tenantOf)
            .diskQuota(quotas::quotaOf)
            .sealIdle(config.tenants().sealIdle());
    config.retention().ifPresent(b::retention);
    config.maxDiskBytes().ifPresent(b::maxDiskBytes);
    return b.build();
  }
}
