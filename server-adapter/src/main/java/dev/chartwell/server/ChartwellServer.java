package dev.chartwell.server;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryCounters;
import dev.chartwell.server.alerts.Alerts;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.TableNames;
import dev.chartwell.server.http.FailedAuthLimiter;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.SelfSigned;
import dev.chartwell.server.http.Tls;
import dev.chartwell.server.management.Accounts;
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
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A running Chartwell server: the data directory, the durable stores and the HTTP front, wired
 * together. {@link #close()} stops it gracefully: no new connections, in-flight requests finish,
 * stores are flushed and closed.
 */
public final class ChartwellServer implements AutoCloseable {
  /** How long a service takes to provision, start, stop or terminate. */
  static final Duration SERVICE_TRANSITION = Duration.ofSeconds(1);

  private final DataDirectory dataDirectory;
  private final ServerStores stores;
  private final Engine engine;
  private final ServerPorts ports;
  private final List<String> banner;
  private final boolean ownsEngine;
  private final EmbeddedLink embedded; // null unless embedded
  private final Runnable cleanup;

  private ChartwellServer(
      DataDirectory dataDirectory,
      ServerStores stores,
      Engine engine,
      ServerPorts ports,
      List<String> banner,
      boolean ownsEngine,
      EmbeddedLink embedded,
      Runnable cleanup) {
    this.dataDirectory = dataDirectory;
    this.stores = stores;
    this.engine = engine;
    this.ports = ports;
    this.banner = banner;
    this.ownsEngine = ownsEngine;
    this.embedded = embedded;
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
    warnAboutConfig(config, tls, log);
    OutboundPolicy outbound = config.outboundPolicy();
    Json json = new Json();
    // The ports first: a server that cannot listen must not touch the data directory.
    ServerPorts ports = ServerPorts.bind(config, json, log, tls);
    DataDirectory dir;
    try {
      dir = DataDirectory.open(config.dataDir());
    } catch (IOException | RuntimeException e) {
      ports.stopNow();
      throw e;
    }
    Secrets secrets;
    RecoveryReport recovery;
    try {
      secrets = openSecrets(config, tls, dir, log);
      recovery = RecoveryReport.begin(dir.root());
    } catch (IOException | RuntimeException e) {
      ports.stopNow();
      dir.close();
      throw e;
    }
    Engine engine;
    DiskQuotas quotas = new DiskQuotas(config.tenants().maxDiskPerService());
    try {
      engine =
          shared != null
              ? shared
              : ServerEngine.open(config, log, quotas, TableNames.read(dir.root(), json.mapper()));
    } catch (IOException | RuntimeException e) {
      recovery.close();
      ports.stopNow();
      dir.close();
      throw e;
    }
    ServerStores stores = null;
    Accounts.Bootstrap boot = null;
    Tenancy tenancy = null;
    ServerMeters meters = null;
    EmbeddedLink embedded = null;
    try {
      stores =
          ServerStores.open(
              dir.root(),
              engine,
              shared != null,
              config,
              overrides,
              json,
              outbound,
              secrets,
              quotas,
              log);
      recovery.close();
      boot =
          stores
              .accounts()
              .bootstrap(
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
      meters = new ServerMeters(engine, stores.alerts());
      ServerRoutes routes =
          ServerRoutes.register(
              config,
              dir.root(),
              stores.accounts(),
              stores.services(),
              stores.catalog(),
              stores.resources(),
              stores.alerts(),
              engine,
              json,
              quotas,
              tenancy,
              meters);
      // One limiter for every port: failures on one count on the others.
      ports.start(
          routes,
          new FailedAuthLimiter(
              overrides.clock(),
              FailedAuthLimiter.Policy.DEFAULT,
              line -> log.println("chartwell: " + line)));
      if (overrides.alertThreads()) {
        stores.alerts().start();
      }
      if (shared != null) {
        embedded =
            EmbeddedLink.start(
                boot, stores.services(), stores.catalog(), json, embeddedService, config, log);
      }

      List<String> banner =
          StartupBanner.lines(
              config,
              tls,
              dir,
              ports.port(),
              ports.otlpPort().orElse(-1),
              ports.elasticsearchPort().orElse(-1),
              boot,
              stores.services(),
              stores.catalog(),
              stores.resources(),
              json,
              log,
              embedded == null ? null : embedded.access());
      recovery.line().ifPresent(banner::add);
      ExternalQueries external = tenancy.external();
      ServerMeters ownMeters = meters;
      return new ChartwellServer(
          dir,
          stores,
          engine,
          ports,
          List.copyOf(banner),
          shared == null,
          embedded,
          () -> {
            external.close();
            ownMeters.close();
            cleanup.run();
          });
    } catch (IOException | RuntimeException e) {
      if (meters != null) {
        meters.close();
      }
      if (embedded != null) {
        embedded.close();
      }
      if (tenancy != null) {
        tenancy.external().close();
      }
      recovery.close();
      if (boot != null) {
        stores.accounts().undoGeneratedKey(boot);
      }
      ports.stopNow();
      if (stores != null) {
        stores.close();
      }
      if (shared == null) {
        engine.close();
      }
      dir.close();
      throw e;
    }
  }

  /**
   * Warns about a configuration that works but should change: plain HTTP off loopback, and more.
   */
  private static void warnAboutConfig(ServerConfig config, Tls tls, PrintStream log) {
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
  }

  /**
   * Readies the data directory for the stores: a self-signed certificate made or read there when
   * asked for, its permissions checked and tightened to the owner, and the server's key read (made
   * at the first start).
   *
   * @return the server's key, which encrypts stored secrets
   */
  private static Secrets openSecrets(
      ServerConfig config, Tls tls, DataDirectory dir, PrintStream log) throws IOException {
    if (tls != null && config.tls().get().selfSigned()) {
      tls.useKeyStore(SelfSigned.ensure(dir.root(), config.host()), SelfSigned.password());
    }
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
    return Secrets.open(dir.root(), config.secrets().keyFile());
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

  /**
   * @return the bound port
   */
  public int port() {
    return ports.port();
  }

  /**
   * @return the bound OTLP/HTTP port, when {@code --otlp-port} was given
   */
  public OptionalInt otlpPort() {
    return ports.otlpPort();
  }

  /**
   * @return the bound Elasticsearch API port, when {@code --elasticsearch-port} was given
   */
  public OptionalInt elasticsearchPort() {
    return ports.elasticsearchPort();
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
    return stores.alerts();
  }

  /**
   * @return the catalog: tables, sources and the engine sources behind them
   */
  public Catalog catalog() {
    return stores.catalog();
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
    return embedded == null ? Optional.empty() : Optional.of(embedded.access());
  }

  /**
   * Lists the engine's sources the server does not know yet (an embedded server also looks every
   * two seconds), with ClickStack sources for them.
   *
   * @return how many were found
   */
  public int adoptEngineSources() {
    return embedded == null ? 0 : embedded.adopt();
  }

  @Override
  public void close() throws IOException {
    if (embedded != null) {
      embedded.close();
    }
    try {
      ports.stop();
    } finally {
      try {
        stores.close();
        if (ownsEngine) {
          engine.close();
        }
      } finally {
        dataDirectory.close();
        cleanup.run();
      }
    }
  }
}
