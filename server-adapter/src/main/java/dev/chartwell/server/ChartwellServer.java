package dev.chartwell.server;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryCounters;
import dev.chartwell.engine.QueryLimits;
import dev.chartwell.server.alerts.Alerts;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.TableNames;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.http.ApiServer;
import dev.chartwell.server.http.FailedAuthLimiter;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.http.SelfSigned;
import dev.chartwell.server.http.Tls;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.SecretHasher;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.management.TransitionTimer;
import dev.chartwell.server.prometheus.ServerMeters;
import dev.chartwell.server.security.OutboundPolicy;
import dev.chartwell.server.store.DataDirectory;
import dev.chartwell.server.store.RecoveryReport;
import dev.chartwell.server.store.Secrets;
import dev.chartwell.server.tenancy.DiskQuotas;
import dev.chartwell.server.tenancy.ExternalQueries;
import dev.chartwell.server.tenancy.ServiceLimits;
import dev.chartwell.server.tenancy.Tenancy;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A running Chartwell server: the data directory, the durable stores and the HTTP front, wired
 * together. {@link #close()} stops it gracefully: no new connections, in-flight requests finish,
 * stores are flushed and closed.
 */
public final class ChartwellServer implements AutoCloseable {
  /** How long a service takes to provision, start, stop or terminate. */
  static final Duration SERVICE_TRANSITION = Duration.ofSeconds(1);

  /** How often an embedded server looks for engine sources it does not list. */
  private static final Duration ADOPT_EVERY = Duration.ofSeconds(2);

  /** Ingestion is refused while the heap is fuller than this after garbage collection. */
  static final double MAX_HEAP_OCCUPANCY = 0.85;

  private final DataDirectory dataDirectory;
  private final Accounts accounts;
  private final Services services;
  private final Catalog catalog;
  private final Resources resources;
  private final Alerts alerts;
  private final Engine engine;
  private final ApiServer api;
  private final ApiServer otlp; // null without --otlp-port
  private final ApiServer elastic; // null without --elasticsearch-port
  private final List<String> banner;
  private final boolean ownsEngine;
  private final Access access; // null unless embedded
  private final SharedEngine shared; // null unless embedded
  private final ScheduledExecutorService adopter; // null unless embedded
  private final Runnable cleanup;

  private ChartwellServer(
      DataDirectory dataDirectory,
      Accounts accounts,
      Services services,
      Catalog catalog,
      Resources resources,
      Alerts alerts,
      Engine engine,
      ApiServer api,
      ApiServer otlp,
      ApiServer elastic,
      List<String> banner,
      boolean ownsEngine,
      Access access,
      SharedEngine shared,
      ScheduledExecutorService adopter,
      Runnable cleanup) {
    this.dataDirectory = dataDirectory;
    this.accounts = accounts;
    this.services = services;
    this.catalog = catalog;
    this.resources = resources;
    this.alerts = alerts;
    this.engine = engine;
    this.api = api;
    this.otlp = otlp;
    this.elastic = elastic;
    this.banner = banner;
    this.ownsEngine = ownsEngine;
    this.access = access;
    this.shared = shared;
    this.adopter = adopter;
    this.cleanup = cleanup;
  }

  /**
   * Opens the state under the data directory, bootstraps the organization and admin key, and starts
   * serving.
   *
   * @param config the configuration
   * @param log where unexpected request failures are logged
   * @return the running server
   * @throws IOException when the data directory or the address cannot be used
   */
  public static ChartwellServer start(ServerConfig config, PrintStream log) throws IOException {
    return start(config, log, Overrides.NONE);
  }

  /**
   * What a test sets that a running server otherwise takes from the system. The defaults ({@link
   * #NONE}) are the system's clock, the alerts' own threads and one-second service transitions.
   *
   * @param clock the time alerts and API keys follow (evaluation windows, retries, expiry, last
   *     use), and the lock-outs of failed authentication
   * @param alertThreads whether the alerts' scheduler and delivery threads run; without them the
   *     test drives evaluation and delivery through {@link #alerts()}
   * @param serviceTransition how long a service takes to provision, start, stop or terminate
   * @param transitions ends those transitions; {@code null} for a timer on a thread of its own
   */
  public record Overrides(
      Clock clock, boolean alertThreads, Duration serviceTransition, TransitionTimer transitions) {
    /** A server as users run it. */
    public static final Overrides NONE =
        new Overrides(Clock.systemUTC(), true, SERVICE_TRANSITION, null);

    TransitionTimer timer() {
      return transitions == null ? TransitionTimer.realTime() : transitions;
    }
  }

  /**
   * Starts a server with some of what it takes from the system set by the caller, for tests.
   *
   * @param config the configuration
   * @param log where unexpected request failures are logged
   * @param overrides clocks and timers
   * @return the running server
   * @throws IOException when the data directory or the address cannot be used
   */
  public static ChartwellServer start(ServerConfig config, PrintStream log, Overrides overrides)
      throws IOException {
    return start(config, log, overrides, null, null, () -> {});
  }

  /**
   * Serves the HTTP API and the web UI over an engine the application already holds, in the same
   * process. See {@link EmbeddedServer} for how it authenticates, where its state is kept and the
   * JVM flags it needs.
   *
   * @param engine the application's engine; the server reads and writes it and never closes it
   * @return a builder of the embedded server
   */
  public static EmbeddedServer embedded(Engine engine) {
    return new EmbeddedServer(engine);
  }

  /**
   * @param shared the application's engine, or {@code null} to open one under the data directory
   * @param embeddedService with {@code shared}: the name of the service that shows it
   * @param cleanup runs after the server has stopped
   */
  static ChartwellServer start(
      ServerConfig config,
      PrintStream log,
      Overrides overrides,
      Engine shared,
      String embeddedService,
      Runnable cleanup)
      throws IOException {
    // The certificate files are read before anything else: a bad one stops the start at once.
    Tls tls = null;
    if (config.tls().isPresent()) {
      ServerConfig.TlsSpec spec = config.tls().get();
      tls =
          spec.selfSigned()
              ? Tls.pending()
              : Tls.fromFiles(
                  spec.certFile(),
                  spec.keyFile(),
                  spec.checkEvery(),
                  line -> log.println("chartwell: " + line));
    }
    try {
      Tls t = tls;
      return start(
          config,
          log,
          overrides,
          shared,
          embeddedService,
          tls,
          () -> {
            if (t != null) {
              t.close();
            }
            cleanup.run();
          });
    } catch (IOException | RuntimeException e) {
      if (tls != null) {
        tls.close();
      }
      throw e;
    }
  }

  private static ChartwellServer start(
      ServerConfig config,
      PrintStream log,
      Overrides overrides,
      Engine shared,
      String embeddedService,
      Tls tls,
      Runnable cleanup)
      throws IOException {
    allowHostHeader();
    if (tls == null && !config.loopbackOnly()) {
      log.println(
          "chartwell: warning: serving plain HTTP on "
              + config.host()
              + ": API keys, service tokens, ingested events, queries and their results travel"
              + " in clear text; give --tls-cert and --tls-key (or --tls-self-signed), or put a"
              + " TLS proxy in front (docs/running.md, \"Exposing the server\")");
    }
    if (config.webhookDenyPrivate()) {
      log.println(
          "chartwell: --webhook-deny-private is deprecated: outbound requests (webhooks and"
              + " ClickHouse connections) are restricted whenever --host is not loopback; with it"
              + " they are restricted on loopback too. Use --allow-outbound to allow ranges.");
    }
    OutboundPolicy outbound = config.outboundPolicy();
    Json json = new Json();
    // The ports first: a server that cannot listen must not touch the data directory.
    ApiServer api = ApiServer.bind(config.host(), config.port(), config.http(), json, log, tls);
    ApiServer otlp = null;
    ApiServer elastic = null;
    DataDirectory dir;
    try {
      if (config.otlpPort().isPresent()) {
        otlp =
            ApiServer.bind(
                config.host(), config.otlpPort().getAsInt(), config.http(), json, log, tls);
      }
      if (config.elasticsearchPort().isPresent()) {
        elastic =
            ApiServer.bind(
                config.host(),
                config.elasticsearchPort().getAsInt(),
                config.http(),
                json,
                log,
                tls);
      }
      dir = DataDirectory.open(config.dataDir());
    } catch (IOException | RuntimeException e) {
      stop(api, otlp, elastic);
      throw e;
    }
    try {
      if (tls != null && config.tls().get().selfSigned()) {
        tls.useKeyStore(SelfSigned.ensure(dir.root(), config.host()), SelfSigned.password());
      }
    } catch (IOException | RuntimeException e) {
      stop(api, otlp, elastic);
      dir.close();
      throw e;
    }
    Secrets secrets;
    try {
      if (dir.isOpenToOthers()) {
        log.println(
            "chartwell: warning: the data directory "
                + dir.root()
                + " can be entered by other users; it holds events, hashed keys and encrypted"
                + " secrets: chmod 700 it");
      }
      int tightened = dir.tightenPermissions();
      if (tightened > 0) {
        log.println(
            "chartwell: made "
                + tightened
                + " files and folders in the data directory owner-only (0600/0700)");
      }
      secrets = Secrets.open(dir.root(), config.secrets().keyFile());
    } catch (IOException | RuntimeException e) {
      stop(api, otlp);
      dir.close();
      throw e;
    }
    RecoveryReport recovery;
    try {
      recovery = RecoveryReport.begin(dir.root());
    } catch (IOException | RuntimeException e) {
      stop(api, otlp, elastic);
      dir.close();
      throw e;
    }
    Accounts accounts = null;
    Services services = null;
    Catalog catalog = null;
    Resources resources = null;
    Alerts alerts = null;
    Accounts.Bootstrap boot = null;
    ScheduledExecutorService adopter = null;
    Tenancy tenancy = null;
    ServerMeters meters = null;
    Engine engine;
    DiskQuotas quotas = new DiskQuotas(config.tenants().maxDiskPerService());
    try {
      engine =
          shared != null
              ? shared
              : engine(config, log, quotas, TableNames.read(dir.root(), json.mapper()));
    } catch (IOException | RuntimeException e) {
      recovery.close();
      stop(api, otlp, elastic);
      dir.close();
      throw e;
    }
    try {
      SecretHasher hasher = new SecretHasher(config.secrets().keyHashIterations());
      accounts = Accounts.open(dir.root(), json.mapper(), overrides.clock(), secrets, hasher);
      catalog =
          Catalog.open(
              dir.root(),
              engine,
              json.mapper(),
              Clock.systemUTC(),
              shared != null,
              outbound,
              secrets);
      Catalog sources = catalog;
      resources = Resources.open(dir.root(), json.mapper(), Clock.systemUTC(), secrets);
      Resources owned = resources;
      Services[] holder = new Services[1];
      services =
          Services.open(
              dir.root(),
              json.mapper(),
              Clock.systemUTC(),
              overrides.serviceTransition(),
              overrides.timer(),
              gone -> {
                // A service's dashboards, alerts and webhooks go with it; a warehouse's sources
                // and events with its last service.
                owned.dropService(gone.path("id").asText());
                String warehouse = gone.path("dataWarehouseId").asText();
                if (holder[0] == null || !holder[0].warehouseInUse(warehouse)) {
                  sources.dropWarehouse(warehouse);
                }
              },
              secrets,
              hasher);
      holder[0] = services;
      quotas.attach(catalog, services);
      alerts =
          Alerts.open(
              dir.root(),
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
      recovery.close();
      boot =
          accounts.bootstrap(
              config.orgId(),
              config.apiKey().map(ServerConfig.ApiKeySpec::keyId),
              config.apiKey().map(ServerConfig.ApiKeySpec::secret),
              config.orgTier(),
              config.orgPaid());

      tenancy =
          new Tenancy(
              new ServiceLimits(
                  config.tenants().maxQueriesPerService(), config.tenants().maxIngestsPerService()),
              new ExternalQueries(
                  Math.max(8, config.http().maxThreads() / 2), config.queryTimeout()));
      meters = new ServerMeters(engine, alerts);
      ServerRoutes routes =
          ServerRoutes.register(
              config,
              dir.root(),
              accounts,
              services,
              catalog,
              resources,
              alerts,
              engine,
              json,
              quotas,
              tenancy,
              meters);
      Router router = routes.router();

      // One limiter for both ports: failures on one count on the other.
      FailedAuthLimiter limiter =
          new FailedAuthLimiter(
              overrides.clock(),
              FailedAuthLimiter.Policy.DEFAULT,
              line -> log.println("chartwell: " + line));
      api.start(router, limiter);
      if (otlp != null) {
        otlp.start(routes.otlpOnly(), limiter);
      }
      if (elastic != null) {
        elastic.start(routes.elasticsearchOnly(), limiter);
      }
      if (overrides.alertThreads()) {
        alerts.start();
      }
      Access access = null;
      SharedEngine adoption = null;
      if (shared != null) {
        LocalService service;
        try {
          service =
              LocalService.ensure(
                  boot.organization(), services, json.mapper(), embeddedService, Optional.empty());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while starting the embedded service", e);
        }
        adoption =
            SharedEngine.of(
                catalog, json.mapper(), service.warehouse(), l -> log.println("chartwell: " + l));
        adoption.adopt();
        SharedEngine a = adoption;
        adopter =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "chartwell-embedded-sources");
                  t.setDaemon(true);
                  return t;
                });
        adopter.scheduleWithFixedDelay(
            () -> {
              try {
                a.adopt();
              } catch (RuntimeException e) {
                log.println("chartwell: adopting the engine's new sources failed: " + e);
              }
            },
            ADOPT_EVERY.toMillis(),
            ADOPT_EVERY.toMillis(),
            TimeUnit.MILLISECONDS);
        Optional<String> secret =
            boot.generatedSecret().or(() -> config.apiKey().map(ServerConfig.ApiKeySpec::secret));
        access =
            new Access(
                boot.organization().id(), boot.keyId(), secret, service.id(), service.token());
      }

      List<String> banner =
          StartupBanner.lines(
              config,
              tls,
              dir,
              api.port(),
              otlp == null ? -1 : otlp.port(),
              elastic == null ? -1 : elastic.port(),
              boot,
              services,
              catalog,
              resources,
              json,
              log,
              access);
      recovery.line().ifPresent(banner::add);
      ExternalQueries external = tenancy.external();
      ServerMeters ownMeters = meters;
      return new ChartwellServer(
          dir,
          accounts,
          services,
          catalog,
          resources,
          alerts,
          engine,
          api,
          otlp,
          elastic,
          List.copyOf(banner),
          shared == null,
          access,
          adoption,
          adopter,
          () -> {
            external.close();
            ownMeters.close();
            cleanup.run();
          });
    } catch (IOException | RuntimeException e) {
      if (meters != null) {
        meters.close();
      }
      if (adopter != null) {
        adopter.shutdownNow();
      }
      if (tenancy != null) {
        tenancy.external().close();
      }
      recovery.close();
      if (boot != null) {
        accounts.undoGeneratedKey(boot);
      }
      stop(api, otlp, elastic);
      if (alerts != null) {
        alerts.close();
      }
      if (services != null) {
        services.close();
      }
      if (catalog != null) {
        catalog.close();
      }
      if (resources != null) {
        resources.close();
      }
      if (shared == null) {
        engine.close();
      }
      if (accounts != null) {
        accounts.close();
      }
      dir.close();
      throw e;
    }
  }

  /**
   * Lets the JDK's HTTP client send the {@code Host} header: requests to an external ClickHouse
   * over plain HTTP connect to the address the outbound policy checked and name the original host
   * in {@code Host}. The JDK reads this property once, when its HTTP client is first used, so it is
   * set before the server makes any request; an application embedding the server that used the
   * client earlier can pass {@code -Djdk.httpclient.allowRestrictedHeaders=host} itself (without
   * it, such requests carry the address as their {@code Host}, which ClickHouse ignores).
   */
  static void allowHostHeader() {
    String name = "jdk.httpclient.allowRestrictedHeaders";
    String current = System.getProperty(name, "");
    boolean has = false;
    for (String h : current.split(",")) {
      has |= h.trim().equalsIgnoreCase("host");
    }
    if (!has) {
      System.setProperty(name, current.isBlank() ? "host" : current + ",host");
    }
  }

  private static void stop(ApiServer api, ApiServer... others) {
    api.stop(1);
    for (ApiServer other : others) {
      if (other != null) {
        other.stop(1);
      }
    }
  }

  /**
   * Opens the engine on {@code <data-dir>/engine}: every source the last process kept, with its
   * logged events replayed (which prints progress lines when there is much to do).
   */
  private static Engine engine(
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

  /**
   * @return the bound port
   */
  public int port() {
    return api.port();
  }

  /**
   * @return the bound OTLP/HTTP port, when {@code --otlp-port} was given
   */
  public OptionalInt otlpPort() {
    return otlp == null ? OptionalInt.empty() : OptionalInt.of(otlp.port());
  }

  /**
   * @return the bound Elasticsearch API port, when {@code --elasticsearch-port} was given
   */
  public OptionalInt elasticsearchPort() {
    return elastic == null ? OptionalInt.empty() : OptionalInt.of(elastic.port());
  }

  /**
   * @return the engine the server reads and writes (the application's, when embedded)
   */
  public Engine engine() {
    return engine;
  }

  /**
   * @return how many chart queries run now, and how many completed, were stopped or refused
   */
  public QueryCounters queryCounters() {
    return engine.queryCounters();
  }

  /**
   * @return the alerts: their evaluation, history and notifications
   */
  public Alerts alerts() {
    return alerts;
  }

  /**
   * @return the catalog: tables, sources and the engine sources behind them
   */
  public Catalog catalog() {
    return catalog;
  }

  /**
   * @return the lines to print at start, one fact each
   */
  public List<String> banner() {
    return banner;
  }

  /**
   * What an application needs to reach an embedded server: the admin API key (for the web UI and
   * the management API) and its service's token (Bearer, for the chart, search and ingestion API).
   *
   * @param organizationId the organization
   * @param adminKeyId the admin key's id (the Basic user name; the UI's "key id")
   * @param adminKeySecret its secret, when given to the builder or generated at this start (a key
   *     generated at an earlier start over the same state directory was shown then only)
   * @param serviceId the embedded service, whose warehouse holds the engine's sources
   * @param serviceToken a token of the service, made at this start
   */
  public record Access(
      String organizationId,
      String adminKeyId,
      Optional<String> adminKeySecret,
      String serviceId,
      String serviceToken) {
    @Override
    public String toString() {
      return "Access[organizationId="
          + organizationId
          + ", adminKeyId="
          + adminKeyId
          + ", serviceId="
          + serviceId
          + ", secrets=***]";
    }
  }

  /**
   * @return how to reach an embedded server; empty for a standalone one
   */
  public Optional<Access> access() {
    return Optional.ofNullable(access);
  }

  /**
   * Lists the engine's sources the server does not know yet (an embedded server also looks every
   * two seconds), with ClickStack sources for them.
   *
   * @return how many were found
   */
  public int adoptEngineSources() {
    return shared == null ? 0 : shared.adopt();
  }

  @Override
  public void close() throws IOException {
    if (adopter != null) {
      adopter.shutdownNow();
    }
    try {
      // Both ports stop at once, so that the whole stop still takes at most 10 seconds.
      Thread otlpStop =
          otlp == null && elastic == null
              ? null
              : new Thread(
                  () -> {
                    if (otlp != null) {
                      otlp.stop(10);
                    }
                    if (elastic != null) {
                      elastic.stop(10);
                    }
                  },
                  "second-ports-stop");
      if (otlpStop != null) {
        otlpStop.start();
      }
      api.stop(10);
      if (otlpStop != null) {
        try {
          otlpStop.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    } finally {
      try {
        alerts.close();
        services.close();
        resources.close();
        catalog.close();
        if (ownsEngine) {
          engine.close();
        }
        accounts.close();
      } finally {
        dataDirectory.close();
        cleanup.run();
      }
    }
  }
}
