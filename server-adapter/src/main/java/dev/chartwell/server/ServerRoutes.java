package dev.chartwell.server;

import dev.chartwell.engine.Engine;
import dev.chartwell.server.alerts.AlertRoutes;
import dev.chartwell.server.alerts.Alerts;
import dev.chartwell.server.backup.BackupRoutes;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.StatsRoutes;
import dev.chartwell.server.charts.TableRoutes;
import dev.chartwell.server.charts.TimestampRoutes;
import dev.chartwell.server.clickstack.ResourceRoutes;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.clickstack.SourceRoutes;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.hyperdx.HyperdxRoutes;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.DiskQuotaRoutes;
import dev.chartwell.server.management.KeyRoutes;
import dev.chartwell.server.management.OrganizationRoutes;
import dev.chartwell.server.management.ServiceRoutes;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.management.SingleMachineRoutes;
import dev.chartwell.server.otlp.BodyBudget;
import dev.chartwell.server.otlp.OtlpRoutes;
import dev.chartwell.server.prometheus.PrometheusRoutes;
import dev.chartwell.server.prometheus.ServerMeters;
import dev.chartwell.server.shippers.ElasticRoutes;
import dev.chartwell.server.shippers.LokiRoutes;
import dev.chartwell.server.store.Secrets;
import dev.chartwell.server.tenancy.DiskQuotas;
import dev.chartwell.server.tenancy.Tenancy;
import dev.chartwell.server.ui.UiRoutes;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Every route of the server on the main port, and the routers of the optional second ports (OTLP
 * only, Elasticsearch only), each with {@code GET /health}.
 *
 * @param router the main port's routes
 * @param otlp the OTLP routes, registered again on {@code --otlp-port}
 * @param elasticsearch the Elasticsearch routes, registered again without prefix on {@code
 *     --elasticsearch-port}
 */
record ServerRoutes(Router router, OtlpRoutes otlp, ElasticRoutes elasticsearch) {

  /**
   * Registers every route.
   *
   * @return the routes
   */
  static ServerRoutes register(
      ServerConfig config,
      Path dataDir,
      Accounts accounts,
      Services services,
      Catalog catalog,
      Resources resources,
      Alerts alerts,
      Engine engine,
      Json json,
      DiskQuotas quotas,
      Tenancy tenancy,
      ServerMeters meters) {
    Router router = new Router();
    router.add(
        "GET",
        "/health",
        new Authenticator.None(),
        config.maxRequestBytes(),
        req -> Response.json(200, Map.of("status", "ok")));
    UiRoutes.register(router, config.maxRequestBytes());
    OrganizationRoutes.register(router, accounts, json, config.maxRequestBytes());
    KeyRoutes.register(router, accounts, json, config.maxRequestBytes());
    ServiceRoutes.register(router, accounts, services, json, config.maxRequestBytes());
    SingleMachineRoutes.register(router, accounts, services, json, config.maxRequestBytes());
    BackupRoutes.register(
        router,
        accounts,
        services,
        config.backupDir(),
        dataDir,
        config.secrets().keyFile().orElse(dataDir.resolve(Secrets.KEY_FILE)),
        json,
        config.maxRequestBytes());
    SourceRoutes.register(router, accounts, services, catalog, json, config.maxRequestBytes());
    ResourceRoutes.register(
        router, accounts, services, catalog, resources, json, config.maxRequestBytes());
    AlertRoutes.register(router, accounts, services, alerts, config.maxRequestBytes());
    TableRoutes.register(router, services, accounts, catalog, json, config.maxRequestBytes());
    TimestampRoutes.register(router, services, catalog, resources, config.maxRequestBytes());
    StatsRoutes.register(router, services, catalog, config.maxRequestBytes());
    DiskQuotaRoutes.register(
        router,
        accounts,
        services,
        json,
        config.maxRequestBytes(),
        config.tenants().maxDiskPerService(),
        warehouse -> diskBytes(engine, catalog, warehouse),
        quotas::refresh);
    HyperdxRoutes.register(
        router,
        services,
        accounts,
        catalog,
        resources,
        alerts,
        engine,
        json,
        Clock.systemUTC(),
        config.maxRequestBytes(),
        tenancy);
    ChartRoutes.register(
        router,
        services,
        accounts,
        catalog,
        engine,
        json,
        config.maxRequestBytes(),
        config.maxIngestBytes(),
        tenancy);
    OtlpRoutes otlpRoutes =
        new OtlpRoutes(services, catalog, json.mapper(), config.maxIngestBytes(), tenancy.limits());
    otlpRoutes.register(router);
    // The shippers' routes hold bodies whole, within one budget of their own.
    BodyBudget shipperBodies = BodyBudget.forHeap(config.maxIngestBytes());
    ElasticRoutes elasticRoutes =
        new ElasticRoutes(
            services,
            catalog,
            json.mapper(),
            config.maxIngestBytes(),
            shipperBodies,
            tenancy.limits());
    elasticRoutes.register(router, ElasticRoutes.PREFIX);
    new LokiRoutes(
            services,
            catalog,
            json.mapper(),
            config.maxIngestBytes(),
            shipperBodies,
            config.lokiTable(),
            tenancy.limits())
        .register(router);
    meters.register(router, accounts, config.metricsToken(), config.maxRequestBytes());
    new PrometheusRoutes(
            services,
            catalog,
            json.mapper(),
            meters.remoteWrite(),
            config.maxRequestBytes(),
            config.maxIngestBytes(),
            tenancy.limits())
        .register(router);
    router.observe(meters);
    return new ServerRoutes(router, otlpRoutes, elasticRoutes);
  }

  /**
   * @return the routes of {@code --otlp-port}: OTLP and {@code GET /health}
   */
  Router otlpOnly() {
    Router only = health();
    otlp.register(only);
    return only;
  }

  /**
   * @return the routes of {@code --elasticsearch-port}: the Elasticsearch API without prefix and
   *     {@code GET /health}
   */
  Router elasticsearchOnly() {
    Router only = health();
    elasticsearch.register(only, "");
    return only;
  }

  private Router health() {
    Router only = new Router();
    only.add(router.route("GET", "/health").route());
    return only;
  }

  /** The bytes a warehouse's tables take on disk now. */
  private static long diskBytes(Engine engine, Catalog catalog, String warehouse) {
    long total = 0;
    for (var t : catalog.tables(warehouse)) {
      total += engine.source(t.get("id").asText()).map(s -> s.stats().diskBytes()).orElse(0L);
    }
    return total;
  }
}
