package dev.chartwell.server;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.Services;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What ties an embedded {@link ChartwellServer} to the application whose engine it serves: the
 * service that shows the engine, the adoption of the application's engine sources as tables of that
 * service (at start and every two seconds), and the {@link ChartwellServer.Access} the application
 * needs to reach the server.
 */
final class EmbeddedLink {
  /** How often an embedded server looks for engine sources it does not list. */
  private static final Duration ADOPT_EVERY = Duration.ofSeconds(2);

  private final ChartwellServer.Access access;
  private final SharedEngine adoption;
  private final ScheduledExecutorService adopter;

  private EmbeddedLink(
      ChartwellServer.Access access, SharedEngine adoption, ScheduledExecutorService adopter) {
    this.access = access;
    this.adoption = adoption;
    this.adopter = adopter;
  }

  /**
   * Makes sure the embedded service exists, adopts the engine's sources and starts looking for new
   * ones.
   *
   * @param boot the organization and admin key the server started with
   * @param services the services
   * @param catalog the catalog that lists the sources
   * @param json JSON codec
   * @param embeddedService the name of the service that shows the engine
   * @param config the configuration (the admin key's secret, when given)
   * @param log where failures to adopt are reported
   * @return the link, adopting
   * @throws IOException when interrupted while the service starts
   */
  static EmbeddedLink start(
      Accounts.Bootstrap boot,
      Services services,
      Catalog catalog,
      Json json,
      String embeddedService,
      ServerConfig config,
      PrintStream log)
      throws IOException {
    LocalService service;
    try {
      service =
          LocalService.ensure(
              boot.organization(), services, json.mapper(), embeddedService, Optional.empty());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting the embedded service", e);
    }
    SharedEngine adoption =
        SharedEngine.of(
            catalog, json.mapper(), service.warehouse(), l -> log.println("chartwell: " + l));
    adoption.adopt();
    ScheduledExecutorService adopter =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "chartwell-embedded-sources");
              t.setDaemon(true);
              return t;
            });
    adopter.scheduleWithFixedDelay(
        () -> {
          try {
            adoption.adopt();
          } catch (RuntimeException e) {
            log.println("chartwell: adopting the engine's new sources failed: " + e);
          }
        },
        ADOPT_EVERY.toMillis(),
        ADOPT_EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
    Optional<String> secret =
        boot.generatedSecret().or(() -> config.apiKey().map(ServerConfig.ApiKeySpec::secret));
    return new EmbeddedLink(
        new ChartwellServer.Access(
            boot.organization().id(), boot.keyId(), secret, service.id(), service.token()),
        adoption,
        adopter);
  }

  /**
   * @return how the application reaches the server
   */
  ChartwellServer.Access access() {
    return access;
  }

  /**
   * Lists the engine's sources the server does not know yet.
   *
   * @return how many were found
   */
  int adopt() {
    return adoption.adopt();
  }

  /** Stops looking for new sources. */
  void close() {
    adopter.shutdownNow();
  }
}
