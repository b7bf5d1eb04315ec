package dev.chartwell.server;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryCounters;
import dev.chartwell.engine.QueryLimits;
import dev.chartwell.server.alerts.AlertRoutes;
import dev.chartwell.server.alerts.Alerts;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.StatsRoutes;
import dev.chartwell.server.charts.TableRoutes;
import dev.chartwell.server.charts.TimestampRoutes;
import dev.chartwell.server.clickstack.ResourceRoutes;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.clickstack.SourceRoutes;
import dev.chartwell.server.http.ApiServer;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.FailedAuthLimiter;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.http.SelfSigned;
import dev.chartwell.server.http.Tls;
import dev.chartwell.server.hyperdx.HyperdxRoutes;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyRoutes;
import dev.chartwell.server.management.OrganizationRoutes;
import dev.chartwell.server.management.ServiceRoutes;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.management.SingleMachineRoutes;
import dev.chartwell.server.management.TransitionTimer;
import dev.chartwell.server.otlp.OtlpRoutes;
import dev.chartwell.server.prometheus.PrometheusRoutes;
import dev.chartwell.server.prometheus.ServerMeters;
import dev.chartwell.server.security.OutboundPolicy;
import dev.chartwell.server.store.DataDirectory;
import dev.chartwell.server.store.RecoveryReport;
import dev.chartwell.server.ui.UiRoutes;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
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
    DataDirectory dir;
    try {
      if (config.otlpPort().isPresent()) {
        otlp =
            ApiServer.bind(
                config.host(), config.otlpPort().getAsInt(), config.http(), json, log, tls);
      }
      dir = DataDirectory.open(config.dataDir());
    } catch (IOException | RuntimeException e) {
      stop(api, otlp);
      throw e;
    }
    try {
      if (tls != null && config.tls().get().selfSigned()) {
        tls.useKeyStore(SelfSigned.ensure(dir.root(), config.host()), SelfSigned.password());
      }
    } catch (IOException | RuntimeException e) {
      stop(api, otlp);
      dir.close();
      throw e;
    }
    RecoveryReport recovery;
    try {
      recovery = RecoveryReport.begin(dir.root());
    } catch (IOException | RuntimeException e) {
      stop(api, otlp);
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
    ServerMeters meters = null;
    Engine engine;
    try {
      engine = shared != null ? shared : engine(config, log);
    } catch (RuntimeException e) {
      recovery.close();
      stop(api, otlp);
      dir.close();
      throw e;
    }
    try {
      accounts = Accounts.open(dir.root(), json.mapper(), overrides.clock());
      catalog =
          Catalog.open(
              dir.root(), engine, json.mapper(), Clock.systemUTC(), shared != null, outbound);
      Catalog sources = catalog;
      resources = Resources.open(dir.root(), json.mapper(), Clock.systemUTC());
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
              });
      holder[0] = services;
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
      SourceRoutes.register(router, accounts, services, catalog, json, config.maxRequestBytes());
      ResourceRoutes.register(
          router, accounts, services, catalog, resources, json, config.maxRequestBytes());
      AlertRoutes.register(router, accounts, services, alerts, config.maxRequestBytes());
      TableRoutes.register(router, services, accounts, catalog, json, config.maxRequestBytes());
      TimestampRoutes.register(router, services, catalog, resources, config.maxRequestBytes());
      StatsRoutes.register(router, services, catalog, config.maxRequestBytes());
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
          config.maxRequestBytes());
      ChartRoutes.register(
          router,
          services,
          accounts,
          catalog,
          engine,
          json,
          config.maxRequestBytes(),
          config.maxIngestBytes());
      OtlpRoutes otlpRoutes =
          new OtlpRoutes(services, catalog, json.mapper(), config.maxIngestBytes());
      otlpRoutes.register(router);
      meters = new ServerMeters(engine, alerts);
      meters.register(router, accounts, config.metricsToken(), config.maxRequestBytes());
      new PrometheusRoutes(
              services,
              catalog,
              json.mapper(),
              meters.remoteWrite(),
              config.maxRequestBytes(),
              config.maxIngestBytes())
          .register(router);
      router.observe(meters);

      // One limiter for both ports: failures on one count on the other.
      FailedAuthLimiter limiter =
          new FailedAuthLimiter(
              overrides.clock(),
              FailedAuthLimiter.Policy.DEFAULT,
              line -> log.println("chartwell: " + line));
      api.start(router, limiter);
      if (otlp != null) {
        Router otlpOnly = new Router();
        otlpOnly.add(router.route("GET", "/health").route());
        otlpRoutes.register(otlpOnly);
        otlp.start(otlpOnly, limiter);
      }
      if (overrides.alertThreads()) {
        alerts.start();
      }
      Access access = null;
      SharedEngine adoption = null;
      if (shared != null) {
        SharedEngine.Service service;
        try {
          service =
              SharedEngine.ensureService(
                  boot.organization(), services, json.mapper(), embeddedService);
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

      List<String> banner = new ArrayList<>();
      String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
      String scheme = tls == null ? "http://" : "https://";
      banner.add("Chartwell listening on " + scheme + host + ":" + api.port());
      if (otlp != null) {
        banner.add("OTLP/HTTP listening on " + scheme + host + ":" + otlp.port());
      }
      if (tls != null) {
        banner.add("TLS certificate SHA-256 fingerprint: " + tls.fingerprint());
        if (config.tls().get().selfSigned()) {
          banner.add(
              "self-signed certificate: "
                  + dir.root().resolve(SelfSigned.CERTIFICATE)
                  + " (trust it, e.g. curl --cacert, or check the fingerprint)");
        }
      }
      banner.add("organization id: " + boot.organization().id());
      banner.add("admin key id: " + boot.keyId());
      boot.generatedSecret()
          .ifPresent(s -> banner.add("admin key secret (shown once, store it now): " + s));
      if (config.demo()) {
        try {
          banner.addAll(
              Demo.ensure(
                  boot.organization(),
                  services,
                  catalog,
                  resources,
                  json.mapper(),
                  scheme + host + ":" + api.port(),
                  line -> log.println("chartwell: " + line)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while loading the demo data", e);
        }
      }
      banner.add(
          "web UI: "
              + scheme
              + host
              + ":"
              + api.port()
              + "/ (sign in with an API key id and secret)");
      if (access != null) {
        banner.add("embedded service id: " + access.serviceId());
        banner.add("embedded service token (Bearer, for the chart API): " + access.serviceToken());
      }
      recovery.line().ifPresent(banner::add);
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
          List.copyOf(banner),
          shared == null,
          access,
          adoption,
          adopter,
          () -> {
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
      recovery.close();
      if (boot != null) {
        accounts.undoGeneratedKey(boot);
      }
      stop(api, otlp);
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

  private static void stop(ApiServer api, ApiServer otlp) {
    api.stop(1);
    if (otlp != null) {
      otlp.stop(1);
    }
  }

  /**
   * Opens the engine on {@code <data-dir>/engine}: every source the last process kept, with its
   * logged events replayed (which prints progress lines when there is much to do).
   */
  private static Engine engine(ServerConfig config, PrintStream log) {
    Engine.Builder b =
        Engine.builder()
            .dataDirectory(config.dataDir().resolve("engine"))
            .fsyncPolicy(config.fsync())
            .reporter(line -> log.println("chartwell: " + line))
            .workerThreads(config.threads())
            .queryLimits(
                QueryLimits.defaults(config.threads())
                    .withTimeout(config.queryTimeout())
                    .withMemoryBytes(config.queryMemoryBytes()))
            .maxMemoryBytes(config.maxMemoryBytes())
            .maxHeapOccupancy(MAX_HEAP_OCCUPANCY);
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
      Thread otlpStop = otlp == null ? null : new Thread(() -> otlp.stop(10), "otlp-stop");
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
