package dev.chartwell.server.tenancy;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.management.Services;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's tenants are the warehouses (a service's sources, tables and events are its
 * warehouse's): this maps an engine source to its warehouse and gives each warehouse its disk
 * quota, the one set on its service through {@code PUT .../services/{id}/diskQuota} or else {@code
 * --max-disk-per-service}. Built before the engine and attached to the catalog and services once
 * they are open; until then every source is of no tenant.
 */
public final class DiskQuotas {
  private final OptionalLong perService;
  private final Map<String, String> warehouseOfSource = new ConcurrentHashMap<>();
  private volatile Catalog catalog;
  private volatile Services services;
  private volatile Map<String, Long> set = Map.of();

  /**
   * @param perService {@code --max-disk-per-service}, if given
   */
  public DiskQuotas(OptionalLong perService) {
    this.perService = perService;
  }

  /**
   * @param catalog the tables (which warehouse a source is of)
   * @param services the services (their quotas)
   */
  public void attach(Catalog catalog, Services services) {
    this.catalog = catalog;
    this.services = services;
    refresh();
  }

  /** Reads the quotas set on services again (after one changed). */
  public void refresh() {
    Services s = services;
    if (s != null) {
      set = Map.copyOf(s.diskQuotasByWarehouse());
    }
  }

  /**
   * @param sourceId an engine source id
   * @return its warehouse, or {@code null} when it is no table (yet)
   */
  public String tenantOf(String sourceId) {
    String known = warehouseOfSource.get(sourceId);
    if (known != null) {
      return known;
    }
    Catalog c = catalog;
    String found = c == null ? null : c.warehouseOfTable(sourceId).orElse(null);
    if (found != null) {
      warehouseOfSource.put(sourceId, found); // a table never changes warehouse
    }
    return found;
  }

  /**
   * @param warehouse a tenant of the engine
   * @return its disk quota in bytes, {@link Long#MAX_VALUE} for none
   */
  public long quotaOf(String warehouse) {
    Long own = set.get(warehouse);
    if (own != null) {
      return own;
    }
    return warehouse.isEmpty() ? Long.MAX_VALUE : perService.orElse(Long.MAX_VALUE);
  }
}
