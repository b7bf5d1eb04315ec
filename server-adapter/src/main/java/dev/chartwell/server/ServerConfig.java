package dev.chartwell.server;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.server.alerts.AlertOptions;
import dev.chartwell.server.http.ApiServer;
import dev.chartwell.server.management.SecretHasher;
import dev.chartwell.server.security.OutboundPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Everything the server is configured with, read from command-line flags and {@code CHARTWELL_*}
 * environment variables. A flag wins over its environment variable, which wins over the default.
 *
 * @param host bind address
 * @param port TCP port, {@code 0} for any free port
 * @param dataDir directory holding all durable state
 * @param orgId the bootstrap organization id, if given
 * @param apiKey the bootstrap admin key, if given
 * @param orgTier organization tier: {@code BASIC}, {@code SCALE} or {@code ENTERPRISE}
 * @param orgPaid whether the organization has paid limits
 * @param demo whether to create the demo service, source and events
 * @param threads query worker threads
 * @param maxRequestBytes body limit of every route but ingestion
 * @param maxIngestBytes body limit of the ingestion route
 * @param queryTimeout how long a chart query may run
 * @param queryMemoryBytes the most heap one chart query may hold
 * @param maxMemoryBytes the most bytes of events held in memory before ingestion is refused
 * @param fsync when ingested events are forced to disk
 * @param retention how long events are kept, if limited
 * @param maxDiskBytes the most bytes of event files before the oldest are dropped, if limited
 * @param http the HTTP front's timeouts and limits
 * @param alerts how alert notifications are delivered
 * @param otlpPort a second TCP port serving only OTLP/HTTP, if any ({@code 0}: any free port)
 * @param elasticsearchPort a TCP port serving only the Elasticsearch API at its root, if any
 *     ({@code 0}: any free port)
 * @param allowOutbound address ranges requests on a user's behalf may reach although special
 *     ({@code --allow-outbound})
 * @param webhookDenyPrivate the deprecated {@code --webhook-deny-private}: restrict outbound
 *     requests even when bound to loopback
 * @param tls HTTPS on every port, if asked for
 * @param secrets where the server's key is and how slowly API key secrets are hashed
 * @param quickstart whether to make (once) the service {@code default} with a log source, and say
 *     how to send events to it ({@code --quickstart})
 * @param logFormat how the server's lines are written ({@code --log-format})
 * @param backupDir where {@code POST /api/v2/admin/backup} writes backups, if it may
 * @param tenants what keeps services from starving each other
 * @param metricsToken the Bearer token that may read {@code /metrics} besides admin API keys, if
 *     any ({@code --metrics-token})
 * @param lokiTable the table Loki pushes write to in each service's warehouse ({@code
 *     --loki-table}; a push's {@code X-Scope-OrgID} tenant {@code T} writes to {@code
 *     <lokiTable>_t})
 * @param warmUp whether the server warms its query and ingestion paths up on synthetic events after
 *     it starts ({@code --warm-up}; see {@code dev.chartwell.server.warmup.WarmUp})
 */
public record ServerConfig(
    String host,
    int port,
    Path dataDir,
    Optional<String> orgId,
    Optional<ApiKeySpec> apiKey,
    String orgTier,
    boolean orgPaid,
    boolean demo,
    int threads,
    long maxRequestBytes,
    long maxIngestBytes,
    Duration queryTimeout,
    long queryMemoryBytes,
    long maxMemoryBytes,
    FsyncPolicy fsync,
    Optional<Duration> retention,
    OptionalLong maxDiskBytes,
    ApiServer.Options http,
    AlertOptions alerts,
    OptionalInt otlpPort,
    OptionalInt elasticsearchPort,
    List<OutboundPolicy.Cidr> allowOutbound,
    boolean webhookDenyPrivate,
    Optional<TlsSpec> tls,
    SecretsSpec secrets,
    boolean quickstart,
    LogFormat logFormat,
    Optional<Path> backupDir,
    TenantLimits tenants,
    Optional<String> metricsToken,
    String lokiTable,
    boolean warmUp) {

  /** How the server's lines are written. */
  public enum LogFormat {
    /** Plain lines, for people. */
    TEXT,
    /** One JSON object per line, for log collectors; lines with secrets are left out. */
    JSON
  }

  /** Where the documentation is read. */
  static final String DOCS = Flags.DOCS;

  /** The default {@code --data-dir}. */
  public static final Path DEFAULT_DATA_DIR = Path.of("./chartwell-data");

  /**
   * The server's own secrets.
   *
   * @param keyFile the key that encrypts stored secrets and indexes tokens, when kept outside the
   *     data directory ({@code --secrets-key-file}); else {@code secrets.key} in it
   * @param keyHashIterations the PBKDF2 cost of API key secrets ({@code --key-hash-iterations})
   */
  public record SecretsSpec(Optional<Path> keyFile, int keyHashIterations) {}

  /**
   * The limits that keep one service from starving the others.
   *
   * @param sealIdle a source's unsealed events idle this long are sealed while memory is wanted
   *     ({@code --seal-idle})
   * @param maxDiskPerService the most bytes of one service's event files, if limited ({@code
   *     --max-disk-per-service}; a quota set through the API wins)
   * @param maxQueriesPerService queries one service may run at once ({@code
   *     --max-queries-per-service})
   * @param maxIngestsPerService ingestion requests one service may send at once ({@code
   *     --max-ingests-per-service})
   */
  public record TenantLimits(
      Duration sealIdle,
      OptionalLong maxDiskPerService,
      int maxQueriesPerService,
      int maxIngestsPerService) {}

  /**
   * Where the server's TLS certificate comes from.
   *
   * @param certFile the PEM certificate chain ({@code --tls-cert}), or {@code null} with {@code
   *     selfSigned}
   * @param keyFile its PEM private key ({@code --tls-key}), or {@code null} with {@code selfSigned}
   * @param selfSigned whether to make (once) and use a self-signed certificate in the data
   *     directory ({@code --tls-self-signed})
   * @param checkEvery how often the files are compared with the certificate in use
   */
  public record TlsSpec(Path certFile, Path keyFile, boolean selfSigned, Duration checkEvery) {}

  /**
   * @return whether the server binds only to loopback (127.0.0.0/8, ::1 or localhost)
   */
  public boolean loopbackOnly() {
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    return h.equals("localhost") || h.equals("::1") || h.matches("127\\.\\d+\\.\\d+\\.\\d+");
  }

  /** Copies the ranges. */
  public ServerConfig {
    allowOutbound = List.copyOf(allowOutbound);
  }

  /**
   * @return the outbound address policy: every destination allowed when bound only to loopback,
   *     special addresses and the server's own refused otherwise (or with {@code
   *     --webhook-deny-private}) unless {@code --allow-outbound} lists them
   */
  public OutboundPolicy outboundPolicy() {
    return OutboundPolicy.forServer(host, webhookDenyPrivate, allowOutbound);
  }

  /** The default of {@code --max-memory}: half of the heap. */
  static long defaultMaxMemory() {
    return Runtime.getRuntime().maxMemory() / 2;
  }

  /** The default of {@code --query-memory}: a quarter of the heap, at most 1 GiB. */
  static long defaultQueryMemory() {
    return Math.max(1 << 20, Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4));
  }

  /**
   * A key id and secret given with {@code --api-key KEYID:SECRET}.
   *
   * @param keyId the public key id (used as the HTTP Basic user name)
   * @param secret the key secret (used as the HTTP Basic password)
   */
  public record ApiKeySpec(String keyId, String secret) {
    @Override
    public String toString() {
      return "ApiKeySpec[keyId=" + keyId + ", secret=***]";
    }
  }

  /** Thrown (as a value, never a failure) when the user asked for {@code --help}. */
  public static final class HelpRequested extends Exception {
    private static final long serialVersionUID = 1L;

    HelpRequested() {
      super("help requested", null, false, false);
    }
  }

  /**
   * Reads the configuration.
   *
   * @param args command-line arguments, {@code --flag value} or {@code --flag=value}
   * @param env environment variables
   * @return the configuration
   * @throws ConfigException naming the first unusable flag or variable
   * @throws HelpRequested when {@code --help} or {@code -h} is among the arguments
   */
  public static ServerConfig parse(String[] args, Map<String, String> env)
      throws ConfigException, HelpRequested {
    Map<String, String> given = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        throw new HelpRequested();
      }
      if (!arg.startsWith("--")) {
        throw new ConfigException("unexpected argument '" + arg + "' (flags start with --)");
      }
      int eq = arg.indexOf('=');
      String name = arg.substring(2, eq < 0 ? arg.length() : eq);
      Flags.Flag flag =
          Flags.flag(name).orElseThrow(() -> new ConfigException("unknown flag --" + name));
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (flag.isSwitch()) {
        value = "true";
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new ConfigException("--" + name + " needs a value (" + flag.valueName() + ")");
      }
      if (given.put(name, value) != null) {
        throw new ConfigException("--" + name + " is given more than once");
      }
    }
    FlagValues v = new FlagValues(given, env);
    int port = v.intValue("port", 8080, 0, 65535);
    int httpThreads = v.intValue("http-threads", 200, 8, 10_000);
    return new ServerConfig(
        v.host(),
        port,
        v.raw("data-dir").map(Path::of).orElse(DEFAULT_DATA_DIR),
        v.orgId(),
        v.apiKey(),
        v.oneOf("org-tier", "SCALE", List.of("BASIC", "SCALE", "ENTERPRISE")),
        v.bool("org-paid", true),
        v.bool("demo", false),
        v.intValue("threads", Runtime.getRuntime().availableProcessors(), 1, 1024),
        v.size("max-request-bytes", 1L << 20),
        v.size("max-ingest-bytes", 64L << 20),
        v.duration("query-timeout", Duration.ofSeconds(30), Duration.ofMillis(1)),
        v.size("query-memory", defaultQueryMemory()),
        v.size("max-memory", defaultMaxMemory()),
        v.fsync(),
        v.retention(),
        v.maxDisk("max-disk"),
        new ApiServer.Options(
            v.duration("idle-timeout", Duration.ofSeconds(30)),
            v.duration("header-timeout", Duration.ofSeconds(10)),
            v.duration("body-timeout", Duration.ofSeconds(10)),
            v.intValue("max-connections", 1000, 1, 1_000_000),
            httpThreads,
            (int) v.size("max-header-bytes", 16L << 10, 1L << 10, 1L << 20)),
        new AlertOptions(
            v.duration("webhook-timeout", AlertOptions.DEFAULTS.webhookTimeout()),
            v.intValue("webhook-attempts", AlertOptions.DEFAULTS.webhookAttempts(), 1, 10),
            v.duration("webhook-retry-delay", AlertOptions.DEFAULTS.retryDelay()),
            v.frontendUrl()),
        v.otlpPort(port),
        v.secondPort("elasticsearch-port", port),
        v.allowOutbound(),
        v.bool("webhook-deny-private", false),
        v.tls(),
        new SecretsSpec(
            v.raw("secrets-key-file").map(String::trim).filter(s -> !s.isEmpty()).map(Path::of),
            v.intValue(
                "key-hash-iterations",
                SecretHasher.DEFAULT_ITERATIONS,
                SecretHasher.MIN_ITERATIONS,
                100_000_000)),
        v.bool("quickstart", false),
        LogFormat.valueOf(
            v.oneOf("log-format", "TEXT", List.of("TEXT", "JSON")).toUpperCase(Locale.ROOT)),
        v.raw("backup-dir").map(String::trim).filter(s -> !s.isEmpty()).map(Path::of),
        new TenantLimits(
            v.duration("seal-idle", Duration.ofSeconds(30), Duration.ofSeconds(1)),
            v.maxDisk("max-disk-per-service"),
            v.intValue("max-queries-per-service", Math.max(1, httpThreads / 4), 1, 10_000),
            v.intValue("max-ingests-per-service", Math.max(1, httpThreads / 4), 1, 10_000)),
        v.metricsToken(),
        v.lokiTable(),
        v.bool("warm-up", true));
  }

  /**
   * @return the usage text listing every flag, its environment variable and its default
   */
  public static String usage() {
    return Flags.usage();
  }
}
