package dev.chartwell.server.prometheus;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.Source;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.Signal;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.otlp.OtelSources;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the Prometheus routes keep per warehouse: its series ({@link MetricStore}), the ledger of
 * remote-written series ({@link WriteLedger}) and the metric metadata senders gave (kept in memory:
 * Prometheus sends it again every minute).
 */
final class Tenants {
  /** The most metric families whose metadata one warehouse keeps. */
  static final int MAX_FAMILIES = 100_000;

  private final Catalog catalog;
  private final ObjectMapper mapper;
  private final long maxSamples;
  private final SeriesCache cache;
  private final Map<String, Tenant> byWarehouse = new ConcurrentHashMap<>();

  /**
   * @param catalog the tables
   * @param mapper reads and writes JSON
   * @param maxSamples the most samples one selection may read
   * @param cache the decoded series of segments, shared by every warehouse
   */
  Tenants(Catalog catalog, ObjectMapper mapper, long maxSamples, SeriesCache cache) {
    this.catalog = catalog;
    this.mapper = mapper;
    this.maxSamples = maxSamples;
    this.cache = cache;
  }

  Tenants(Catalog catalog, ObjectMapper mapper, long maxSamples) {
    this(catalog, mapper, maxSamples, SeriesCache.ofHeap());
  }

  /**
   * @param warehouse a warehouse that is written: its metric tables are created when missing
   * @return its state
   */
  Tenant writing(String warehouse) {
    Tenant t = reading(warehouse);
    t.tables = OtelSources.tables(catalog, mapper, warehouse, Signal.METRICS);
    return t;
  }

  /**
   * @param warehouse a warehouse that is read
   * @return its state
   */
  Tenant reading(String warehouse) {
    return byWarehouse.computeIfAbsent(warehouse, Tenant::new);
  }

  /** One warehouse. */
  final class Tenant {
    private final String warehouse;
    private final WriteLedger ledger = new WriteLedger();
    private final Map<String, RemoteWrite.Metadata> metadata = new ConcurrentHashMap<>();
    private volatile Map<OtelTable, Source> tables;

    Tenant(String warehouse) {
      this.warehouse = warehouse;
    }

    WriteLedger ledger() {
      return ledger;
    }

    Map<OtelTable, Source> tables() {
      return tables;
    }

    MetricStore store() {
      return new MetricStore(this::table, maxSamples, SeriesKeys.DIRECT, cache);
    }

    private Source table(OtelTable t) {
      return catalog.engineTable(warehouse, Catalog.DEFAULT_DATABASE, t.tableName()).orElse(null);
    }

    void metadata(List<RemoteWrite.Metadata> sent) {
      for (RemoteWrite.Metadata m : sent) {
        if (!m.family().isEmpty()
            && (metadata.size() < MAX_FAMILIES || metadata.containsKey(m.family()))) {
          metadata.put(m.family(), m);
        }
      }
    }

    /**
     * @param name a series' name
     * @return the metadata of its family (the name, or the name less a histogram's or summary's
     *     suffix), or null
     */
    RemoteWrite.Metadata metadataOf(String name) {
      RemoteWrite.Metadata m = metadata.get(name);
      if (m != null) {
        return m;
      }
      for (String suffix : new String[] {"_bucket", "_count", "_sum", "_total"}) {
        if (name.endsWith(suffix)) {
          m = metadata.get(name.substring(0, name.length() - suffix.length()));
          if (m != null) {
            return m;
          }
        }
      }
      return null;
    }

    /**
     * @return every family's metadata, by name: what remote write sent, then the OTLP metrics'
     *     ({@link OtlpMetadata}) under names remote write did not give
     */
    Map<String, RemoteWrite.Metadata> metadata() {
      Map<String, RemoteWrite.Metadata> all = new TreeMap<>(metadata);
      OtlpMetadata.families(this::table).forEach(all::putIfAbsent);
      return all;
    }
  }
}
