package dev.chartwell.server;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.server.alerts.AlertOptions;
import dev.chartwell.server.http.ApiServer;
import dev.chartwell.server.management.SecretHasher;
import dev.chartwell.server.security.OutboundPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.regex.Pattern;

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
    Optional<String> metricsToken) {

  /** How the server's lines are written. */
  public enum LogFormat {
    /** Plain lines, for people. */
    TEXT,
    /** One JSON object per line, for log collectors; lines with secrets are left out. */
    JSON
  }

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

  /** One flag: its name, whether it takes a value, its default and its help text. */
  private record Flag(String name, String valueName, String defaultText, String help) {
    String envName() {
      return "CHARTWELL_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    boolean isSwitch() {
      return valueName == null;
    }
  }

  private static final List<Flag> FLAGS =
      List.of(
          new Flag(
              "host",
              "ADDRESS",
              "127.0.0.1",
              "bind address; to expose it, also give --tls-cert/--tls-key (or"
                  + " --tls-self-signed) and see --allow-outbound"),
          new Flag("port", "PORT", "8080", "TCP port for both APIs (0 = any free port)"),
          new Flag(
              "otlp-port", "PORT", "off", "a second port serving only OTLP/HTTP (usually 4318)"),
          new Flag(
              "elasticsearch-port",
              "PORT",
              "off",
              "a port serving only the Elasticsearch bulk API at its root (usually 9200)"),
          new Flag("data-dir", "DIR", "./chartwell-data", "directory of all durable state"),
          new Flag("org-id", "UUID", "generated once", "organization of the bootstrap key"),
          new Flag("api-key", "KEYID:SECRET", "generated once", "ensure this admin key exists"),
          new Flag("org-tier", "TIER", "SCALE", "BASIC, SCALE or ENTERPRISE"),
          new Flag("org-paid", "BOOL", "true", "paid (true) or non-paid (false) limits"),
          new Flag("demo", null, "off", "create the demo service, source and events"),
          new Flag(
              "quickstart",
              null,
              "off",
              "create the service 'default' with a log source and print how to send to it"),
          new Flag("threads", "N", "cores", "query worker threads"),
          new Flag("max-request-bytes", "SIZE", "1m", "body limit of every route but ingestion"),
          new Flag("max-ingest-bytes", "SIZE", "64m", "body limit of the ingestion route"),
          new Flag("query-timeout", "DURATION", "30s", "longest a chart query may run"),
          new Flag(
              "query-memory", "SIZE", "1/4 of heap, at most 1g", "most heap one query may hold"),
          new Flag(
              "max-memory",
              "SIZE",
              "1/2 of heap",
              "events held in memory before ingestion answers 503"),
          new Flag(
              "fsync",
              "POLICY",
              "request",
              "request, interval:<ms> or never: when ingested events reach the disk"),
          new Flag("retention", "AGE", "off", "drop events older than this (30d, 12h, 2w)"),
          new Flag(
              "max-disk",
              "SIZE",
              "off",
              "drop the oldest events of the service holding most when files exceed this"),
          new Flag(
              "max-disk-per-service",
              "SIZE",
              "off",
              "drop a service's oldest events when its files exceed this (API: diskQuota)"),
          new Flag(
              "seal-idle",
              "DURATION",
              "30s",
              "seal a source's unsealed events idle this long when over half --max-memory"),
          new Flag(
              "max-queries-per-service",
              "N",
              "1/4 of --http-threads",
              "queries one service may run at once (more: 429)"),
          new Flag(
              "max-ingests-per-service",
              "N",
              "1/4 of --http-threads",
              "ingestion requests one service may send at once (more: 429)"),
          new Flag("idle-timeout", "DURATION", "30s", "close connections idle this long"),
          new Flag(
              "header-timeout", "DURATION", "10s", "time to send a request's line and headers"),
          new Flag("body-timeout", "DURATION", "10s", "longest pause while a request body arrives"),
          new Flag("max-connections", "N", "1000", "open connections (more wait to be accepted)"),
          new Flag("http-threads", "N", "200", "HTTP worker threads, 8-10000"),
          new Flag("max-header-bytes", "SIZE", "16k", "request line plus headers, 1k-1m"),
          new Flag("webhook-timeout", "DURATION", "10s", "longest one webhook delivery may take"),
          new Flag("webhook-attempts", "N", "3", "attempts per alert notification, 1-10"),
          new Flag(
              "webhook-retry-delay",
              "DURATION",
              "10s",
              "wait before the second attempt (each later one waits 3x longer)"),
          new Flag(
              "allow-outbound",
              "CIDR,...",
              "none",
              "private or own ranges webhooks and ClickHouse may reach when not bound to loopback"),
          new Flag(
              "webhook-deny-private",
              null,
              "off",
              "deprecated: restrict outbound requests even when bound to loopback"),
          new Flag("frontend-url", "URL", "none", "HyperDX UI that alert notifications link to"),
          new Flag(
              "tls-cert",
              "FILE",
              "none (plain HTTP)",
              "PEM certificate chain: serve HTTPS on every port (with --tls-key)"),
          new Flag("tls-key", "FILE", "none", "PEM private key of --tls-cert (PKCS#8, RSA or EC)"),
          new Flag(
              "tls-self-signed",
              null,
              "off",
              "serve HTTPS with a self-signed certificate kept in the data directory"),
          new Flag(
              "tls-check-every",
              "DURATION",
              "10s",
              "how often --tls-cert/--tls-key are re-read when changed"),
          new Flag(
              "log-format",
              "FORMAT",
              "text",
              "text, or json: one JSON object per line (never a secret) for log collectors"),
          new Flag(
              "secrets-key-file",
              "FILE",
              "secrets.key in --data-dir",
              "key that encrypts stored passwords and webhook secrets (base64 of 32 bytes)"),
          new Flag(
              "key-hash-iterations",
              "N",
              "600000",
              "PBKDF2 cost of API key secrets, at least 1000"),
          new Flag(
              "backup-dir",
              "DIR",
              "none (no online backups)",
              "where POST /api/v2/admin/backup writes backups (see docs/operations.md)"),
          new Flag(
              "metrics-token",
              "TOKEN",
              "none",
              "Bearer token that may read /metrics (admin API keys always may), 16-256 URL-safe"
                  + " characters"));

  /** Where the documentation is read. */
  static final String DOCS = "https://github.com/chartwell-dev/chartwell/tree/main/docs";

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");
  private static final Pattern RETENTION = Pattern.compile("(\\d{1,6})(m|h|d|w)");
  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern SECRET = Pattern.compile("[\\x21-\\x7e]{8,256}");
  private static final Pattern IPV4 =
      Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");

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
      Flag flag = flag(name).orElseThrow(() -> new ConfigException("unknown flag --" + name));
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
    Values v = new Values(given, env);
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
        v.metricsToken());
  }

  /**
   * @return the usage text listing every flag, its environment variable and its default
   */
  public static String usage() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "Chartwell: a chart query engine and server for logs, traces and metrics (HyperDX,"
            + " ClickStack, OTLP and ClickHouse Cloud APIs, and a web UI).\n\n");
    sb.append("Usage: java -jar chartwell-server.jar [flags]\n");
    sb.append(
        "Example: java -jar chartwell-server.jar --demo   (then open http://127.0.0.1:8080/)\n");
    sb.append("Docs: " + DOCS + " (running.md explains every flag)\n\n");
    sb.append(
        "Values: DURATION is a number with ms, s, m or h (500ms, 30s, 2m); AGE a whole number with"
            + " m, h, d or w (30d, 12h, 2w); SIZE a number of bytes, optionally with k, m or g"
            + " (64m).\n");
    sb.append("Every flag can also be set with the environment variable shown.\n\n");
    for (Flag f : FLAGS) {
      String left = "  --" + f.name() + (f.isSwitch() ? "" : " " + f.valueName());
      sb.append(String.format(Locale.ROOT, "%-34s %s%n", left, f.help()));
      sb.append(
          String.format(
              Locale.ROOT, "%-34s env %s, default %s%n", "", f.envName(), f.defaultText()));
    }
    sb.append(String.format(Locale.ROOT, "%-34s %s%n", "  --help", "print this text"));
    return sb.toString();
  }

  private static Optional<Flag> flag(String name) {
    return FLAGS.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** Looks values up flag-first, then environment, and validates them. */
  private record Values(Map<String, String> given, Map<String, String> env) {

    Optional<String> raw(String name) {
      String fromFlag = given.get(name);
      if (fromFlag != null) {
        return Optional.of(fromFlag);
      }
      return Optional.ofNullable(env.get(flag(name).orElseThrow().envName()))
          .filter(s -> !s.isEmpty());
    }

    String source(String name) {
      return given.containsKey(name) ? "--" + name : flag(name).orElseThrow().envName();
    }

    ConfigException bad(String name, String value, String expectation) {
      return new ConfigException(
          source(name) + ": " + expectation + ", got '" + printable(value) + "'");
    }

    String host() throws ConfigException {
      String value = raw("host").orElse("127.0.0.1");
      boolean ipv6 = value.contains(":") && value.matches("[0-9A-Fa-f:.]+");
      if (!value.equals("localhost") && !IPV4.matcher(value).matches() && !ipv6) {
        throw bad("host", value, "must be an IPv4 or IPv6 address or 'localhost'");
      }
      return value;
    }

    int intValue(String name, int dflt, int min, int max) throws ConfigException {
      Optional<String> value = raw(name);
      if (value.isEmpty()) {
        return dflt;
      }
      try {
        int parsed = Integer.parseInt(value.get().trim());
        if (parsed >= min && parsed <= max) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below with the accepted range
      }
      throw bad(name, value.get(), "must be an integer from " + min + " to " + max);
    }

    boolean bool(String name, boolean dflt) throws ConfigException {
      Optional<String> value = raw(name);
      if (value.isEmpty()) {
        return dflt;
      }
      switch (value.get().trim().toLowerCase(Locale.ROOT)) {
        case "true", "1", "yes", "on" -> {
          return true;
        }
        case "false", "0", "no", "off" -> {
          return false;
        }
        default -> throw bad(name, value.get(), "must be true or false");
      }
    }

    String oneOf(String name, String dflt, List<String> allowed) throws ConfigException {
      Optional<String> value = raw(name);
      if (value.isEmpty()) {
        return dflt;
      }
      String upper = value.get().trim().toUpperCase(Locale.ROOT);
      if (!allowed.contains(upper)) {
        throw bad(name, value.get(), "must be one of " + String.join(", ", allowed));
      }
      return upper;
    }

    long size(String name, long dflt) throws ConfigException {
      return size(name, dflt, 1, 1L << 40);
    }

    long size(String name, long dflt, long min, long max) throws ConfigException {
      Optional<String> value = raw(name);
      if (value.isEmpty()) {
        return dflt;
      }
      return size(name, value.get().trim().toLowerCase(Locale.ROOT), min, max);
    }

    private long size(String name, String given, long min, long max) throws ConfigException {
      String s = given;
      long unit = 1;
      if (!s.isEmpty() && "kmg".indexOf(s.charAt(s.length() - 1)) >= 0) {
        unit = 1L << (10 * ("kmg".indexOf(s.charAt(s.length() - 1)) + 1));
        s = s.substring(0, s.length() - 1);
      }
      try {
        long n = Long.parseLong(s);
        if (n > 0 && n <= max / unit && n * unit >= min) {
          return n * unit;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      String range = min == 1 && max == 1L << 40 ? "" : " from " + min + " to " + max + " bytes";
      throw bad(
          name,
          raw(name).orElse(given),
          "must be a positive size in bytes, optionally with k, m or g" + range);
    }

    /**
     * A duration from 100 ms to 24 h: a number with {@code ms}, {@code s}, {@code m} or {@code h}.
     */
    Duration duration(String name, Duration dflt) throws ConfigException {
      return duration(name, dflt, Duration.ofMillis(100));
    }

    /** A duration from {@code min} to 24 h. */
    Duration duration(String name, Duration dflt, Duration min) throws ConfigException {
      Optional<String> value = raw(name);
      if (value.isEmpty()) {
        return dflt;
      }
      java.util.regex.Matcher m = DURATION.matcher(value.get().trim().toLowerCase(Locale.ROOT));
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        Duration d =
            switch (m.group(2)) {
              case "ms" -> Duration.ofMillis(n);
              case "s" -> Duration.ofSeconds(n);
              case "m" -> Duration.ofMinutes(n);
              default -> Duration.ofHours(n);
            };
        if (d.compareTo(min) >= 0 && d.compareTo(Duration.ofHours(24)) <= 0) {
          return d;
        }
      }
      throw bad(
          name,
          value.get(),
          "must be a duration from "
              + min.toMillis()
              + "ms to 24h with a unit: ms, s, m or h (for example 30s)");
    }

    FsyncPolicy fsync() throws ConfigException {
      Optional<String> value = raw("fsync");
      if (value.isEmpty()) {
        return FsyncPolicy.REQUEST;
      }
      try {
        return FsyncPolicy.parse(value.get().trim());
      } catch (IllegalArgumentException e) {
        throw bad("fsync", value.get(), e.getMessage());
      }
    }

    /** A retention: a whole number of minutes, hours, days or weeks, at least one minute. */
    Optional<Duration> retention() throws ConfigException {
      Optional<String> value = raw("retention");
      if (value.isEmpty() || value.get().trim().equalsIgnoreCase("off")) {
        return Optional.empty();
      }
      java.util.regex.Matcher m = RETENTION.matcher(value.get().trim().toLowerCase(Locale.ROOT));
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        Duration d =
            switch (m.group(2)) {
              case "m" -> Duration.ofMinutes(n);
              case "h" -> Duration.ofHours(n);
              case "d" -> Duration.ofDays(n);
              default -> Duration.ofDays(7 * n);
            };
        if (n > 0) {
          return Optional.of(d);
        }
      }
      throw bad(
          "retention",
          value.get(),
          "must be a positive whole number of minutes, hours, days or weeks with its unit m, h, d"
              + " or w (for example 30d), or off");
    }

    OptionalInt otlpPort(int port) throws ConfigException {
      return secondPort("otlp-port", port);
    }

    OptionalInt secondPort(String flag, int port) throws ConfigException {
      Optional<String> value = raw(flag);
      if (value.isEmpty() || value.get().trim().equalsIgnoreCase("off")) {
        return OptionalInt.empty();
      }
      int second = intValue(flag, 0, 0, 65535);
      if (second != 0 && second == port) {
        throw bad(flag, value.get(), "must differ from the port of both APIs (" + port + ")");
      }
      if (second != 0
          && flag.equals("elasticsearch-port")
          && otlpPort(port).equals(OptionalInt.of(second))) {
        throw bad(flag, value.get(), "must differ from --otlp-port");
      }
      return OptionalInt.of(second);
    }

    OptionalLong maxDisk(String name) throws ConfigException {
      Optional<String> value = raw(name);
      if (value.isEmpty() || value.get().trim().equalsIgnoreCase("off")) {
        return OptionalLong.empty();
      }
      String s = value.get().trim().toLowerCase(Locale.ROOT);
      if (s.endsWith("t")) {
        s = s.substring(0, s.length() - 1) + "000g";
      }
      return OptionalLong.of(size(name, s, 1L << 20, 1L << 50));
    }

    List<OutboundPolicy.Cidr> allowOutbound() throws ConfigException {
      Optional<String> value = raw("allow-outbound");
      if (value.isEmpty() || value.get().trim().equalsIgnoreCase("none")) {
        return List.of();
      }
      List<OutboundPolicy.Cidr> out = new ArrayList<>();
      for (String part : value.get().split(",")) {
        if (part.isBlank()) {
          continue;
        }
        try {
          out.add(OutboundPolicy.Cidr.parse(part));
        } catch (IllegalArgumentException e) {
          throw bad(
              "allow-outbound",
              value.get(),
              "must be a comma-separated list of IPv4 or IPv6 ranges such as"
                  + " 10.0.0.0/8,fd00::/8 ("
                  + e.getMessage()
                  + ")");
        }
      }
      return out;
    }

    Optional<String> metricsToken() throws ConfigException {
      Optional<String> t = raw("metrics-token");
      if (t.isPresent() && !t.get().matches("[A-Za-z0-9._~-]{16,256}")) {
        throw new ConfigException(
            "--metrics-token must be 16 to 256 URL-safe characters (letters, digits, . _ ~ -)");
      }
      return t;
    }

    Optional<TlsSpec> tls() throws ConfigException {
      Optional<String> cert = raw("tls-cert").map(String::trim).filter(s -> !s.isEmpty());
      Optional<String> key = raw("tls-key").map(String::trim).filter(s -> !s.isEmpty());
      boolean selfSigned = bool("tls-self-signed", false);
      Duration every = duration("tls-check-every", Duration.ofSeconds(10));
      if (selfSigned && (cert.isPresent() || key.isPresent())) {
        throw new ConfigException(
            source("tls-self-signed")
                + " makes its own certificate: give either it or --tls-cert and --tls-key");
      }
      if (cert.isPresent() != key.isPresent()) {
        throw new ConfigException(
            (cert.isPresent() ? source("tls-cert") : source("tls-key"))
                + " needs "
                + (cert.isPresent() ? "--tls-key" : "--tls-cert")
                + " too: the certificate chain and its private key, both PEM files");
      }
      if (selfSigned) {
        return Optional.of(new TlsSpec(null, null, true, every));
      }
      return cert.map(c -> new TlsSpec(Path.of(c), Path.of(key.get()), false, every));
    }

    Optional<String> frontendUrl() throws ConfigException {
      Optional<String> value = raw("frontend-url");
      if (value.isEmpty()) {
        return value;
      }
      String url = value.get().trim();
      try {
        java.net.URI uri = new java.net.URI(url);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if ((scheme.equals("http") || scheme.equals("https"))
            && uri.getHost() != null
            && uri.getRawQuery() == null
            && uri.getRawFragment() == null) {
          return Optional.of(url);
        }
      } catch (java.net.URISyntaxException e) {
        // reported below
      }
      throw bad("frontend-url", value.get(), "must be an http or https URL without query");
    }

    Optional<String> orgId() throws ConfigException {
      Optional<String> value = raw("org-id");
      if (value.isPresent()) {
        try {
          return Optional.of(UUID.fromString(value.get().trim()).toString());
        } catch (IllegalArgumentException e) {
          throw bad("org-id", value.get(), "must be a UUID");
        }
      }
      return value;
    }

    Optional<ApiKeySpec> apiKey() throws ConfigException {
      Optional<String> value = raw("api-key");
      if (value.isEmpty()) {
        return Optional.empty();
      }
      String s = value.get();
      int colon = s.indexOf(':');
      String keyId = colon < 0 ? s : s.substring(0, colon);
      String secret = colon < 0 ? "" : s.substring(colon + 1);
      List<String> problems = new ArrayList<>();
      if (!KEY_ID.matcher(keyId).matches()) {
        problems.add("key id must be 1-64 letters, digits, '_' or '-'");
      }
      if (!SECRET.matcher(secret).matches()) {
        problems.add("secret must be 8-256 printable characters without spaces");
      }
      if (!problems.isEmpty()) {
        throw new ConfigException(
            source("api-key") + ": expected KEYID:SECRET; " + String.join("; ", problems));
      }
      return Optional.of(new ApiKeySpec(keyId, secret));
    }

    private static String printable(String s) {
      String oneLine = s.replaceAll("[\\r\\n\\t]", " ");
      return oneLine.length() > 80 ? oneLine.substring(0, 80) + "..." : oneLine;
    }
  }
}
