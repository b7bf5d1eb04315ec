package dev.chartwell.server;

import dev.chartwell.engine.Engine;
import dev.chartwell.server.alerts.Alerts;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.SecretHasher;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.security.OutboundPolicy;
import dev.chartwell.server.store.Secrets;
import dev.chartwell.server.tenancy.DiskQuotas;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The durable stores of a {@link ChartwellServer}, opened under its data directory in the order
 * they need each other and wired together: the accounts (organization and API keys), the catalog
 * (sources and tables over the engine), the ClickStack resources (dashboards, saved searches,
 * alerts and webhooks), the services (whose end takes its resources with it, and a warehouse's
 * sources and events with its last service) and the alerts' evaluation and delivery.
 *
 * @param accounts the organization and its API keys
 * @param catalog the sources and tables
 * @param resources dashboards, saved searches, alerts and webhooks
 * @param services the services and their warehouses
 * @param alerts the alerts' evaluation, history and notifications
 */
record ServerStores(
    Accounts accounts, Catalog catalog, Resources resources, Services services, Alerts alerts)
    implements AutoCloseable {

  /**
   * Opens the stores; when one cannot be opened, those opened already are closed.
   *
   * @param root the data directory
   * @param engine the engine holding the events
   * @param shared whether the engine is the application's (an embedded server)
   * @param config the configuration
   * @param overrides the clock and service transitions (tests)
   * @param json JSON codec
   * @param outbound which addresses webhooks and ClickHouse connections may reach
   * @param secrets the server's key, which encrypts stored secrets
   * @param quotas the services' disk quotas, attached to the catalog and services here
   * @param log where the alerts report
   * @return the open stores
   * @throws IOException when a store cannot be opened
   */
  static ServerStores open(
      Path root,
      Engine engine,
      boolean shared,
      ServerConfig config,
      ChartwellServer.Overrides overrides,
      Json json,
      OutboundPolicy outbound,
      Secrets secrets,
      DiskQuotas quotas,
      PrintStream log)
      throws IOException {
    Accounts accounts = null;
    Catalog catalog = null;
    Resources resources = null;
    Services services = null;
    Alerts alerts = null;
    try {
      SecretHasher hasher = new SecretHasher(config.secrets().keyHashIterations());
      accounts = Accounts.open(root, json.mapper(), overrides.clock(), secrets, hasher);
      catalog =
          Catalog.open(root, engine, json.mapper(), Clock.systemUTC(), shared, outbound, secrets);
      Catalog sources = catalog;
      resources = Resources.open(root, json.mapper(), Clock.systemUTC(), secrets);
      Resources owned = resources;
      Services[] holder = new Services[1];
      services =
          Services.open(
              root,
              json.mapper(),
              Clock.systemUTC(),
              overrides.serviceTransition(),
              overrides.timer(),
              gone -> {
                // A service's dashboards, alerts and webhooks go with it; a warehouse's sources
                // and events with its last service.
                owned.dropService(gone.path("id").asText());
                String warehouse = gone.path("dataWarehouseId").asText();
                if (holder[0] == null
                    || !holder[0].warehouseInUse(warehouse, gone.path("id").asText())) {
                  sources.dropWarehouse(warehouse);
                }
              },
              secrets,
              hasher);
      holder[0] = services;
      quotas.attach(catalog, services);
      alerts =
          Alerts.open(
              root,
              resources,
              catalog,
              services,
              engine,
              json.mapper(),
              overrides.clock(),
              config.alerts(),
              outbound,
              line -> log.println("chartwell: " + line));
      resources.alertStatus(alerts);
      return new ServerStores(accounts, catalog, resources, services, alerts);
    } catch (IOException | RuntimeException e) {
      new ServerStores(accounts, catalog, resources, services, alerts).close();
      throw e;
    }
  }

  /**
   * Flushes and closes every store that is open.
   *
   * @throws IOException when the alerts' outbox cannot be written
   */
  @Override
  public void close() throws IOException {
    if (alerts != null) {
      alerts.close();
    }
    if (services != null) {
      services.close();
    }
    if (resources != null) {
      resources.close();
    }
    if (catalog != null) {
      catalog.close();
    }
    if (accounts != null) {
      accounts.close();
    }
  }
}
